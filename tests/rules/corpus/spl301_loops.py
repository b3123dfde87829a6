# rules: SPL301
"""Rolling and iterative summarization loops."""


def rolling_summary(llm, turns):
    summary = ""
    for turn in turns:
        summary = llm.summarize(summary + "\n" + turn.text)  # expect: SPL301
    return summary


def rolling_via_prompt(llm, turns):
    state = ""
    for turn in turns:
        prompt = f"Previous: {state}\nNew: {turn.text}"
        state = llm.condense(prompt)  # expect: SPL301
    return state


def per_chunk(llm, chunks):
    out = []
    for chunk in chunks:
        text = chunk.text
        text = llm.summarize(text)
        out.append(text)
    return out


def shrink(history, budget):
    while count_tokens(history) > budget:
        history = compress_history(history)  # expect: SPL301
    return history


async def map_reduce(llm, chunks):
    partials = [await llm.asummarize(chunk) for chunk in chunks]
    return await llm.asummarize("\n\n".join(partials))  # expect: SPL301


def map_reduce_tracked(llm, chunks):
    partials = [llm.summarize(chunk.text) for chunk in chunks]
    return llm.summarize("\n\n".join(partials), source_ids=[c.id for c in chunks])


def two_pass(llm, document):
    first = llm.summarize(document)
    return llm.summarize(first, max_words=50)  # expect: SPL301


def nested(llm, document):
    return llm.summarize(llm.summarize(document))  # expect: SPL301


def once(text):
    text = summarize(text)
    return text


def collect(llm, sections):
    parts = []
    for section in sections:
        parts.append(llm.summarize(section))
    return llm.summarize("\n".join(parts))  # expect: SPL301
