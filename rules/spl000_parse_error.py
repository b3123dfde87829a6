"""SPL000: a file that cannot be read, decoded or parsed.

A file-level rule: the engine gives it each file it cannot lint, with the reason and the place.
"""

from spanlint.rules.base import Invalid, Rule, Valid


class ParseError(Rule):
    code = "SPL000"
    name = "parse-error"
    summary = "File could not be read, decoded or parsed"
    message = "File could not be parsed"
    file_pass = "unlintable"
    docs = """
## What it does
Reports a file that spanlint could not lint: it cannot be read, its bytes do not decode in its
declared encoding, it is not valid Python, it nests too deeply, it is larger than `max-file-bytes`,
or an internal error stopped a rule on it. The message gives the reason.

## Why is this bad?
A file spanlint cannot read is a file nobody checked. The rest of the run goes on; this finding
makes sure the gap is visible and fails the run.

## Example
```python
def compress(span:
    span.content = span.content[:100]
```

## Use instead
```python
def compress(span):
    span.content = span.content[:100]
    span.version += 1
```

## Fix safety
There is no automatic fix.
"""
    valid = [Valid("x = 1\n"), Valid("")]
    invalid = [Invalid("def compress(span:\n    pass\n", line=1, column=13, message="syntax error: '(' was never closed")]
