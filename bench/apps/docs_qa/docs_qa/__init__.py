"""docs_qa: question answering over the internal handbook, built on LlamaIndex."""
