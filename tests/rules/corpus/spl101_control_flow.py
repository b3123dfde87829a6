# rules: SPL101
"""Paths from the write to the function's exit: branches, loops, try/finally, early returns, match."""


def bump_in_one_branch(span, text, important):
    span.content = text  # expect: SPL101
    if important:
        span.version += 1


def bump_in_both_branches(span, text, important):
    span.content = text
    if important:
        span.version += 1
    else:
        span.version += 2


def bump_in_every_elif(span, text, mode):
    span.content = text
    if mode == "a":
        span.version += 1
    elif mode == "b":
        span.version += 1
    else:
        span.version += 1


def bump_skipped_by_early_return(span, text, dry_run):
    span.content = text  # expect: SPL101
    if dry_run:
        return span
    span.version += 1
    return span


def bump_in_finally(span, text, log):
    try:
        span.content = text
        log.write(span.span_id)
    finally:
        span.version += 1


def bump_in_try_only(span, text, log):
    try:
        span.content = text  # expect: SPL101
        log.write(span.span_id)
    except OSError:
        return None
    span.version += 1
    return span


def raise_needs_no_bump(span, text):
    span.content = text
    if not text:
        raise ValueError("empty")
    span.version += 1


def write_under_condition_bump_under_same(span, text, changed):
    if changed:
        span.content = text
        span.version += 1


def bump_before_under_other_condition(span, text, changed):
    if changed:
        span.version += 1
    span.content = text  # expect: SPL101


def bump_each_then_rewrite(spans, text):
    for span in spans:
        span.version += 1
        span.content = text


def loop_with_continue_before_bump(spans):
    for span in spans:
        span.content = span.content.strip()  # expect: SPL101
        if span.content:
            continue
        span.version += 1


def with_block(span, text, lock):
    with lock:
        span.content = text
        span.version += 1


def match_all_cases(span, text, kind):
    span.content = text
    match kind:
        case "a":
            span.version += 1
        case _:
            span.version += 1


def match_missing_case(span, text, kind):
    span.content = text  # expect: SPL101
    match kind:
        case "a":
            span.version += 1
        case "b":
            pass


def nested_function_bump_does_not_count(span, text):
    span.content = text  # expect: SPL101

    def later():
        span.version += 1

    return later


def inline_suite(span, text, ok):
    if ok: span.content = text; span.version += 1
