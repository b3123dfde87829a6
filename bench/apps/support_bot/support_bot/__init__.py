"""support_bot: a customer-support agent on LangGraph."""
