# rules: SPL101, SPL102, SPL103, SPL104
"""Shapes met triaging frameworks the rules were not tuned on (issue 14): a RAG middleware puts a hint
block it builds into the current reply for one model call and takes it out again afterwards. Taking out
only what the same call put in leaves the content as holders saw it before; the insertion itself, and
removing blocks the call did not add, are rewrites."""
from dataclasses import dataclass, field
from uuid import uuid4


@dataclass
class HintBlock:
    text: str
    id: str = field(default_factory=lambda: uuid4().hex)


@dataclass
class Msg:
    id: str
    content: list = field(default_factory=list)


@dataclass
class State:
    context: list[Msg] = field(default_factory=list)
    reply_id: str = ""

    def append_context(self, blocks: list) -> None:
        if self.context and self.context[-1].id == self.reply_id:
            self.context[-1].content.extend(blocks)  # expect: SPL103
        else:
            self.context.append(Msg(id=self.reply_id, content=list(blocks)))


async def reason_with_knowledge(state: State, retrieved: list[str], next_handler, persist: bool = False):
    hint = None
    try:
        if retrieved:
            hint = HintBlock(text="\n".join(retrieved))
            state.append_context([hint])
        return await next_handler()
    finally:
        if hint is not None and not persist:
            for msg in reversed(state.context):
                if msg.id != state.reply_id:
                    continue
                msg.content = [b for b in msg.content if b.id != hint.id]
                break


def drop_hint_object(state: State, text: str, run) -> None:
    hint = HintBlock(text=text)
    state.append_context([hint])
    run()
    last = state.context[-1]
    last.content = [b for b in last.content if b is not hint]


def drop_every_hint(state: State) -> None:
    for msg in state.context:
        msg.content = [b for b in msg.content if not isinstance(b, HintBlock)]  # expect: SPL103


def drop_received_hint(state: State, hint: HintBlock) -> None:
    for msg in state.context:
        msg.content = [b for b in msg.content if b.id != hint.id]  # expect: SPL103
