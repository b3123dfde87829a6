# rules: SPL101
def compress(span):
    span.content = span.content[:100]  # expect: SPL101


def compress_and_bump(span):
    span.content = span.content[:100]
    span.version += 1
