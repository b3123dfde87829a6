"""llama_chat: the support assistant's chat backend."""
