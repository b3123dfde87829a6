"""The hazards, each with its forms and its safe twins.

Each family draws one point of the product (`Config`) and builds the hazardous program and a
negative twin that differs only in what makes it safe. Labels follow the hazard: the finding a
reviewer of the program would ask for, whatever spanlint does today.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace as dc_replace

from bench.programs.code import HIT, Code, Program, block, indent, line, lines, retag
from bench.programs.project import Build, assemble, decision_log_class, holder_class
from bench.programs.shapes import ALIAS_KINDS, Acquired, Action, alias_chain, applicable_control_flow, control_flow
from bench.programs.types import (FRAMEWORK_NAMES, KIND_CODES, LOOKALIKES, PROJECT_NAMES, SpanType, framework_type,
                                  project_type)

NOUNS = {"versioned": ("span", "block", "chunk"), "hashed": ("span", "passage", "chunk"), "both": ("span", "span", "block"),
         "message": ("msg", "message", "turn"), "embedded": ("chunk", "node", "passage"), "lookalike": ("span", "node", "chunk")}
NEUTRAL = ("x", "item", "doc", "entry", "obj", "rec")
CONTAINER_NOUNS = {"message": "messages", "embedded": "nodes"}
LOCATIONS = ("same", "other_module", "framework", "framework_subclass")
ANNOTATIONS = ("none", "precise", "container", "holder")


@dataclass
class Config:
    """One point of the product."""

    family: str
    kind: str
    location: str
    naming: str
    annotation: str
    alias_kinds: tuple[str, ...]
    control_flow: str = "straight"
    form: str = ""
    twin: str = ""
    acquisition: str = ""


def pick(rng: random.Random, options):
    options = list(options)
    return options[rng.randrange(len(options))]


def span_type(rng: random.Random, kind: str, location: str, *, setter=False, mapping=False, tombstones=False) -> SpanType:
    if location in ("framework", "framework_subclass"):
        return framework_type(kind, pick(rng, FRAMEWORK_NAMES[kind]), location == "framework_subclass")
    t = project_type(kind, pick(rng, PROJECT_NAMES[kind]), location, setter=setter, mapping=mapping)
    return dc_replace(t, tombstones=tombstones)


def var_names(rng: random.Random, naming: str, kind: str, count: int) -> list[str]:
    """`count` distinct variable names for values of `kind`: span nouns or neutral names."""
    if naming == "noun":
        base = pick(rng, NOUNS[kind])
        pool = [base, f"live_{base}", f"cur_{base}", f"{base}_ref", f"target_{base}"]
    else:
        pool = list(NEUTRAL)
        rng.shuffle(pool)
    return pool[:count]


def container_name(naming: str, kind: str) -> str:
    return CONTAINER_NOUNS.get(kind, "spans") if naming == "noun" else "items"


# ---------------------------------------------------------------- acquisition of one span

def acquire_span(b: Build, rng: random.Random, t: SpanType, cfg: Config, var: str, need_store: bool) -> Acquired:
    """The span reaches the method: the way depends on the annotation dimension."""
    coll = container_name(cfg.naming, t.kind)
    choices: list[str]
    if cfg.annotation == "precise":
        choices = ["param"]
    elif cfg.annotation == "container":
        choices = ["dict_index", "list_enumerate", "dict_items", "module_registry"] if need_store else [
            "list_for", "dict_index", "optional", "iterable_for", "comprehension_for", "dict_items", "list_enumerate",
            "module_registry", "closure_for",
        ]
        if t.origin != "same" and t.kind == "embedded" and t.origin.startswith("framework") and not need_store:
            choices.append("node_with_score")
    elif cfg.annotation == "holder":
        choices = ["holder_get"] if need_store else ["holder_get", "holder_iter"]
    else:
        choices = ["self_index", "self_values"] if not need_store else ["self_index"]
        if cfg.naming == "noun" and not need_store:
            choices.append("bare_param")
        if t.kind == "message" and t.origin.startswith("framework"):
            choices.append("graph_state")
    how = pick(rng, choices)
    cfg.acquisition = how
    store_attr = f"self._{coll}"
    if how == "param" and need_store:  # the span and the buffer it is written back to
        return Acquired([f"{var}: {t.name}", f"{coll}: dict[str, {t.name}]"], [], 0, var, coll, t.ident(var))
    if how == "param":
        return Acquired([f"{var}: {t.name}"], [], 0, var)
    if how == "bare_param":
        return Acquired([var], [], 0, var)
    if how == "optional":
        return Acquired([f"{var}: {t.name} | None"], block(f"if {var} is None:", line("return")), 0, var)
    if how in ("list_for", "iterable_for"):
        ann = f"list[{t.name}]" if how == "list_for" else f"Iterable[{t.name}]"
        return Acquired([f"{coll}: {ann}"], line(f"for {var} in {coll}:"), 1, var, in_loop=True)
    if how == "module_registry":  # a registry of the module, annotated where it is made
        registry = coll.upper()
        b.helpers += lines(f"{registry}: dict[str, {t.name}] = {{}}", "", "")
        return Acquired(["sid: str"], line(f"{var} = {registry}[sid]"), 0, var, registry, "sid")
    if how == "closure_for":  # a nested function reads the operator's parameter
        return Acquired([f"{coll}: list[{t.name}]"], lines("def apply() -> None:", f"    for {var} in {coll}:"), 2, var, in_loop=True)
    if how == "comprehension_for":
        return Acquired([f"{coll}: list[{t.name}]"], line(f"for {var} in [o for o in {coll} if {t.read('o')}]:"), 1, var, in_loop=True)
    if how == "list_enumerate":
        return Acquired([f"{coll}: list[{t.name}]"], line(f"for i, {var} in enumerate({coll}):"), 1, var, coll, "i", in_loop=True)
    if how == "dict_index":
        return Acquired([f"{coll}: dict[str, {t.name}]", "sid: str"], line(f"{var} = {coll}[sid]"), 0, var, coll, "sid")
    if how == "dict_items":
        return Acquired([f"{coll}: dict[str, {t.name}]"], line(f"for sid, {var} in {coll}.items():"), 1, var, coll, "sid", in_loop=True)
    if how == "node_with_score":
        b.framework.append("from llama_index.core.schema import NodeWithScore")
        return Acquired([f"{coll}: list[NodeWithScore]"], lines(f"for scored in {coll}:", f"    {var} = scored.node"), 1, var, in_loop=True)
    if how in ("holder_get", "holder_iter"):
        holder = "ContextBuffer" if cfg.naming == "noun" else pick(rng, ("Workspace", "Store"))
        param = "buffer" if cfg.naming == "noun" else "store"
        b.add_class(holder, holder_class(t, holder, rng.random() < 0.5))
        if how == "holder_get":
            return Acquired([f"{param}: {holder}", "sid: str"], line(f"{var} = {param}.get(sid)"), 0, var, f"{param}.spans", "sid", holder=True)
        return Acquired([f"{param}: {holder}"], line(f"for {var} in {param}:"), 1, var, in_loop=True, holder=True)
    if how == "graph_state":
        return Acquired(["state"], line(f'for i, {var} in enumerate(state["messages"]):'), 1, var, 'state["messages"]', "i", in_loop=True)
    # read out of the operator's own container, annotated where it is created
    b.attr(f"{store_attr}: dict[str, {t.name}] = {{}}")
    if how == "self_index":
        return Acquired(["sid: str"], line(f"{var} = {store_attr}[sid]"), 0, var, store_attr, "sid")
    return Acquired([], line(f"for {var} in {store_attr}.values():"), 1, var, in_loop=True)


def with_aliases(rng: random.Random, t: SpanType, cfg: Config, got: Acquired, names: list[str]) -> tuple[Code, int, str]:
    chain, depth, last = alias_chain(got.var, names, list(cfg.alias_kinds), t.ident)
    return got.code + indent(chain, got.depth), got.depth + depth, last


def signature(op: str, params: list[str]) -> str:
    return f"def {op}(self" + "".join(f", {p}" for p in params) + ") -> None:"


def finish(b: Build, cfg: Config, role: str, op: str, params: list[str], head: Code, depth: int, action: Action,
           hazard: bool, codes: tuple[str, ...], exit_kw: str, structure_hazard: bool | None = None) -> Program:
    """Put `action` under the control flow of `cfg` and assemble. `structure_hazard` (default:
    `hazard`) chooses the path structure; a twin whose action is safe in itself keeps the
    hazardous structure but has no label."""
    structure = hazard if structure_hazard is None else structure_hazard
    body = head + indent(control_flow(cfg.control_flow, action, structure, exit_kw, b.rng), depth)
    if not hazard:
        body = retag(body, None)
    dims = dict(family=cfg.family, rule="+".join(codes), polarity="positive" if hazard else "negative",
                twin=cfg.twin or "-", form=cfg.form, alias_depth=str(len(cfg.alias_kinds)),
                alias_kinds="+".join(cfg.alias_kinds) or "-", control_flow=cfg.control_flow, location=cfg.location,
                naming=cfg.naming, annotation=cfg.annotation, acquisition=cfg.acquisition or "-", kind=cfg.kind)
    return assemble(b, role, signature(op, params), body, codes, hazard, dims, "")


def new_build(rng: random.Random, location: str) -> Build:
    return Build(rng, split=location in ("other_module", "framework_subclass") or (location == "framework" and rng.random() < 0.3),
                 relative_import=rng.random() < 0.5)


def draw(rng: random.Random, family: str, kinds, locations) -> Config:
    kind = pick(rng, kinds)
    location = pick(rng, [loc for loc in locations if kind in ("message", "embedded") or not loc.startswith("framework")])
    depth = rng.randrange(4)
    return Config(family, kind, location, pick(rng, ("noun", "neutral")), pick(rng, ANNOTATIONS),
                  tuple(pick(rng, ALIAS_KINDS) for _ in range(depth)))


# ---------------------------------------------------------------- SPL101-104: rewrites

OPS_NEW = {
    "redact": lambda r: f'{r}.replace(self.secret, "[redacted]")',
    "normalize": lambda r: f'" ".join({r}.split())',
    "truncate": lambda r: f"{r}[: self.max_chars]",
    "compress": lambda r: f"self.compress({r})",
}
WRITE_FORMS = ("attr", "augmented", "setattr", "object_setattr", "dunder_dict", "setter", "dict_item", "copy_back")


def rewrite(rng: random.Random) -> list[Program]:
    cfg = draw(rng, "rewrite", KIND_CODES, LOCATIONS)
    forms = ["attr", "augmented", "setattr", "dunder_dict", "copy_back"]
    if not cfg.location.startswith("framework"):
        forms.append("object_setattr")  # how frozen dataclasses are written
    if cfg.kind != "message" and (cfg.location in ("same", "other_module") or cfg.kind == "embedded"):
        forms.append("setter")
    if cfg.kind in ("versioned", "hashed", "both") and not cfg.location.startswith("framework"):
        forms.append("dict_item")
    cfg.form = pick(rng, forms)
    t = span_type(rng, cfg.kind, cfg.location, setter=cfg.form == "setter", mapping=cfg.form == "dict_item")
    if t.name == "Document" and cfg.form != "setter":
        # LlamaIndex's `Document.text` is a read-only property over `text_resource`: assigning it
        # raises, and `__dict__["text"]` or `model_copy(update={"text": ...})` leave the content as
        # it was. Only `set_content` rewrites a Document; the other forms rewrite a `TextNode`.
        t = dc_replace(t, name="TextNode")
    t = dc_replace(t, frozen=cfg.form == "object_setattr" and not t.origin.startswith("framework"))
    op = pick(rng, OPS_NEW)
    twins = ["lookalike", "fresh"] + (["fixed"] if t.fix_after_write("v") is not None or (cfg.form == "copy_back" and t.copy_fixes("v", "x")) else [])
    if cfg.form == "copy_back" or cfg.kind == "message":
        twins.append("copy_new_id")
    twin = pick(rng, twins)
    seed = rng.random()
    return [_rewrite(cfg, t, op, None, seed), _rewrite(dc_replace(cfg, twin=twin), t, op, twin, seed)]


def _rewrite(cfg: Config, t: SpanType, op: str, twin: str | None, seed: float) -> Program:
    rng = random.Random(seed)
    cfg = dc_replace(cfg)
    if twin == "lookalike":
        look = LOOKALIKES[pick(rng, [n for n in LOOKALIKES if cfg.form != "copy_back" or LOOKALIKES[n].copy != "none"])]
        t = dc_replace(look, origin="same" if cfg.location.startswith("framework") else cfg.location)
        if cfg.form in ("setter", "dict_item"):
            cfg.form = "attr"
    b = new_build(rng, cfg.location)
    b.add_type(t)
    b.attr("self.secret = \"sk-\"")
    b.attr("self.max_chars = 2000")
    b.attr("self.compress = lambda text: text[:200]")
    names = var_names(rng, cfg.naming, t.kind, 1 + len(cfg.alias_kinds))
    if twin == "copy_new_id":
        cfg.form = "copy_back"  # the safe twin of any in-place write: a copy under a new id
    need_store = cfg.form == "copy_back"
    if twin == "fresh":
        cfg.annotation = "n/a"
        head, depth, v, got = _fresh(b, rng, t, cfg, names)
    else:
        got = acquire_span(b, rng, t, cfg, names[0], need_store)
        head, depth, v = with_aliases(rng, t, cfg, got, names[1:])
    new = OPS_NEW[op](t.read(v))
    action = _write_action(t, cfg.form, v, new, got, twin)
    shapes = applicable_control_flow(action)
    cfg.control_flow = pick(rng, shapes)
    hazard = twin is None
    codes = KIND_CODES[cfg.kind]
    structure = hazard if twin in (None, "fixed") else True
    return finish(b, cfg, "Redactor", pick(rng, ("redact", "compress_span", "normalize", "rewrite")), got.params, head, depth,
                     action, hazard, codes, "continue" if got.in_loop else "return", structure)


def _fresh(b: Build, rng: random.Random, t: SpanType, cfg: Config, names: list[str]):
    """A new object built by the method (a constructor, or a deep copy given a new id)."""
    v0 = names[0]
    b.attr(f"self._{container_name(cfg.naming, t.kind)}: dict[str, {t.name}] = {{}}")
    if rng.random() < 0.5 or t.mapping:
        code = line(f"{v0} = {t.new('new_id()', 'text')}")
        cfg.acquisition = "constructor"
        params = ["text: str"]
    else:
        code = lines(f"{v0} = copy.deepcopy(source)", f"{t.ident(v0)} = new_id()" if not t.origin.startswith("framework") else f"{v0}.id_ = new_id()" if t.kind == "embedded" else f"{v0}.id = new_id()")
        cfg.acquisition = "deepcopy_new_id"
        params = [f"source: {t.name}"]
    chain, depth, last = alias_chain(v0, names[1:], list(cfg.alias_kinds), t.ident)
    got = Acquired(params, [], 0, v0, f"self._{container_name(cfg.naming, t.kind)}", t.ident(v0))
    # a new object stored under its new id: the copy is what others will see from now on
    store = f"self._{container_name(cfg.naming, t.kind)}"
    b.methods.append(block(f"def publish(self, item: {t.name}) -> None:", line(f"{store}[{t.ident('item')}] = item")))
    return code + chain, depth, last, got


def _write_action(t: SpanType, form: str, v: str, new: str, got: Acquired, twin: str | None) -> Action:
    f = t.content
    fix = t.fix_after_write(v)
    after = lambda: t.always_after_write(v)  # noqa: E731
    post = (lambda: fix) if fix is not None and twin not in ("lookalike", "fresh") else None
    if t.lookalike:
        post = None
    if form == "copy_back":
        store, key = got.store, got.key
        if twin == "copy_new_id":
            changes = {f: new, t.id if not t.origin.startswith("framework") else ("id_" if t.kind == "embedded" else "id"): "new_id()"}
            def core() -> Code:
                copied = f"{v}_copy"
                if store and key == "i":
                    return lines(f"{store}[i] = {t.copy_expr(v, changes)}", tag=HIT)
                return lines(f"{copied} = {t.copy_expr(v, changes)}", f"{store}[{t.ident(copied)}] = {copied}", tag=HIT)
            return Action(core)
        one_line = len(new) < 40

        # what every rewrite of the kind does anyway, in the copy (an embedded chunk's version bumped)
        bumped = {"version": f"{t.get(v, 'version')} + 1"} if t.always_after_write(v) else {}

        def core() -> Code:
            if one_line:
                return line(f"{store}[{key}] = {t.copy_expr(v, {f: new, **bumped})}", HIT)
            return lines(f"new_{f} = {new}", tag=None) + line(f"{store}[{key}] = {t.copy_expr(v, {f: f'new_{f}', **bumped})}", HIT)

        def good() -> Code:
            return lines(f"new_{f} = {new}", f"{store}[{key}] = {t.copy_expr(v, {f: f'new_{f}', **t.copy_fixes(v, f'new_{f}')})}")
        return Action(core, inline_good=good if t.copy_fixes(v, "x") and not t.lookalike else None)
    target = t.get(v, f)
    text = {
        "attr": f"{target} = {new}",
        "augmented": f'{target} += "\\n[tool output truncated]"',
        "setattr": f'setattr({v}, "{f}", {new})',
        "object_setattr": f'object.__setattr__({v}, "{f}", {new})',
        "dunder_dict": f'{v}.__dict__["{f}"] = {new}',
        "setter": f"{v}.set_content({new})",
        "dict_item": f"{target} = {new}",
    }[form]
    if twin == "fresh":
        return Action(lambda: line(text, HIT) + t.always_after_write(v), post=None,
                      after=lambda: line(f"self.publish({v})"))
    return Action(lambda: line(text, HIT), post=post, after=after)


# ---------------------------------------------------------------- SPL201: caches keyed on the id

ARTIFACTS = {
    "embedding": ("_embeddings", lambda r: f"self.embedder.embed({r})"),
    "offsets": ("_offsets", lambda r: f"self.tokenizer.offsets({r})"),
    "token_count": ("_token_counts", lambda r: f"len(self.tokenizer.encode({r}))"),
    "citations": ("_citations", lambda r: f"self.citer.extract({r})"),
}
CACHE_FORMS = ("subscript", "setdefault", "get_then_set", "key_alias", "fstring_key", "update")


def cache(rng: random.Random) -> list[Program]:
    cfg = draw(rng, "cache", ("versioned", "hashed", "both", "message", "embedded"), LOCATIONS)
    cfg.form = pick(rng, CACHE_FORMS)
    t = span_type(rng, cfg.kind, cfg.location)
    artifact = pick(rng, ARTIFACTS)
    twin = pick(rng, ("fixed", "fixed", "lookalike", "not_derived"))
    seed = rng.random()
    return [_cache(cfg, t, artifact, None, seed), _cache(dc_replace(cfg, twin=twin), t, artifact, twin, seed)]


def versioned_key(t: SpanType, v: str) -> str:
    return f"({t.ident(v)}, {key_part(t, v)})"


def key_part(t: SpanType, v: str) -> str:
    """What a key needs beside the id to change when the content does."""
    if t.version:
        return f"{v}.version"
    if t.stored_hash:
        return f"{v}.content_hash"
    if t.kind == "embedded":
        return f"{v}.hash"  # LlamaIndex: the hash property digests the text
    return f"digest({t.read(v)})"


def _cache(cfg: Config, t: SpanType, artifact: str, twin: str | None, seed: float) -> Program:
    rng = random.Random(seed)
    cfg = dc_replace(cfg)
    if twin == "lookalike":
        t = dc_replace(LOOKALIKES[pick(rng, ("Label", "Setting", "HttpPayload"))], origin="same")
    b = new_build(rng, cfg.location)
    b.add_type(t)
    attr, derive = ARTIFACTS[artifact]
    if cfg.naming == "neutral":
        attr = pick(rng, ("_memo", "_lookup", "_store"))
    if t.lookalike:
        attr, derive = "_rendered", (lambda r: f"self.renderer.render({r})")
    if twin == "not_derived":
        attr = "_by_id"  # the spans themselves, by id: nothing derived
    b.attr(f"self.{attr}: dict = {{}}")
    for dep in ("embedder", "tokenizer", "citer", "renderer"):
        b.attr(f"self.{dep} = None")
    names = var_names(rng, cfg.naming, t.kind, 1 + len(cfg.alias_kinds))
    got = acquire_span(b, rng, t, cfg, names[0], False)
    head, depth, v = with_aliases(rng, t, cfg, got, names[1:])
    value = f"{v}" if twin == "not_derived" else derive(t.read(v))
    key_bad = t.ident(v)
    key_good = versioned_key(t, v) if not t.lookalike else key_bad
    cache_ = f"self.{attr}"

    def write(key: str, tag) -> Code:
        if cfg.form == "subscript":
            return line(f"{cache_}[{key}] = {value}", tag)
        if cfg.form == "setdefault":
            return line(f"{cache_}.setdefault({key}, {value})", tag)
        if cfg.form == "update":
            return line(f"{cache_}.update({{{key}: {value}}})", tag)
        if cfg.form == "fstring_key":
            inner = f"{{{t.ident(v)}}}" + ("" if key == key_bad else f":{{{key_part(t, v)}}}")
            return line(f'{cache_}[f"{artifact}:{inner}"] = {value}', tag)
        if cfg.form == "key_alias":
            return line(f"key = {key}") + line(f"{cache_}[key] = {value}", tag)
        # the lookup, the derivation and the store are one caching statement: a finding on any of them is right
        return retag(line(f"value = {cache_}.get({key})", HIT) + block("if value is None:", line(f"value = {value}", HIT) + line(f"{cache_}[{key}] = value", HIT), HIT), tag)

    action = Action(lambda: write(key_bad, HIT), inline_good=lambda: write(key_good, None))
    cfg.control_flow = pick(rng, applicable_control_flow(action))
    hazard = twin is None
    return finish(b, cfg, "ArtifactCache", pick(rng, ("embed_span", "index", "warm", "remember")), got.params, head, depth,
                  action, hazard, ("SPL201",), "continue" if got.in_loop else "return", hazard if twin in (None, "fixed") else True)


# ---------------------------------------------------------------- SPL501: slices with stored offsets

SLICE_FORMS = ("subscript", "tuple_offsets", "slice_object", "content_alias", "offsets_map")


def slicing(rng: random.Random) -> list[Program]:
    cfg = draw(rng, "slice", ("versioned", "hashed", "both", "embedded"), LOCATIONS)
    cfg.form = pick(rng, SLICE_FORMS)
    t = span_type(rng, cfg.kind, cfg.location)
    twin = pick(rng, ("fixed", "fixed", "lookalike", "fresh_offsets"))
    seed = rng.random()
    return [_slice(cfg, t, None, seed), _slice(dc_replace(cfg, twin=twin), t, twin, seed)]


def citation_class(t: SpanType) -> Code:
    code = lines("@dataclass", "class Citation:", '    """Where an answer quotes a span: the span as it was, and the offsets into it."""', "",
                 f"    {t.id if not t.origin.startswith('framework') else 'node_id'}: str")
    if t.origin.startswith("framework"):
        code += lines("    node_hash: str")
    else:
        code += lines("    version: int") if t.version else []
        code += lines("    content_hash: str") if t.stored_hash else []
    return code + lines("    start: int", "    end: int")


def stale_check(t: SpanType, c: str, v: str) -> Code:
    if t.origin.startswith("framework"):
        cond = f"{c}.node_hash != {v}.hash"
    elif t.version and t.stored_hash:
        cond = f"{c}.version != {v}.version or {c}.content_hash != {v}.content_hash"
    elif t.version:
        cond = f"{c}.version != {v}.version"
    else:
        cond = f"{c}.content_hash != {v}.content_hash"
    return block(f"if {cond}:", line(f'raise StaleSpanError(f"citation of {{{t.ident(v)}}} is stale")'))


def _slice(cfg: Config, t: SpanType, twin: str | None, seed: float) -> Program:
    rng = random.Random(seed)
    cfg = dc_replace(cfg)
    look = twin == "lookalike"
    if look:
        t = dc_replace(LOOKALIKES["Label"], origin="same")
        cfg.form = "subscript" if cfg.form == "offsets_map" else cfg.form
    b = new_build(rng, cfg.location)
    b.add_type(t)
    if look:
        b.add_class("Selection", lines("@dataclass", "class Selection:", '    """The characters the user highlighted in a widget."""', "",
                                       "    start: int", "    end: int"))
    else:
        b.add_class("Citation", citation_class(t))
    b.helpers += lines("class StaleSpanError(RuntimeError):", "    pass", "", "")
    b.attr("self.quotes: list[str] = []")
    names = var_names(rng, cfg.naming, t.kind, 1 + len(cfg.alias_kinds))
    got = acquire_span(b, rng, t, cfg, names[0], False)
    head, depth, v = with_aliases(rng, t, cfg, got, names[1:])
    c = "sel" if look else pick(rng, ("cite", "citation", "ref"))
    params = got.params + ([f"{c}: Selection" if look else f"{c}: Citation"] if cfg.form != "offsets_map" or look else [])
    if cfg.form == "offsets_map" and not look:
        key_good = versioned_key(t, v)
        b.attr("self._offsets: dict = {}")
    text = t.read(v)
    fresh = twin == "fresh_offsets"

    def core(tag=HIT, key=None) -> Code:
        if fresh:
            return lines(f"lo = {text}.find(self.query)", "hi = lo + len(self.query)") + line(f"self.quotes.append({text}[lo:hi])", tag)
        if cfg.form == "subscript":
            return line(f"self.quotes.append({text}[{c}.start:{c}.end])", tag)
        if cfg.form == "tuple_offsets":
            return line(f"lo, hi = {c}.start, {c}.end") + line(f"self.quotes.append({text}[lo:hi])", tag)
        if cfg.form == "slice_object":
            return line(f"self.quotes.append({text}[slice({c}.start, {c}.end)])", tag)
        if cfg.form == "content_alias":
            return line(f"body = {text}") + line(f"self.quotes.append(body[{c}.start:{c}.end])", tag)
        return line(f"lo, hi = self._offsets[{key or t.ident(v)}]", "offsets-read") + line(f"self.quotes.append({text}[lo:hi])", tag)

    if fresh:
        b.attr('self.query = "refund"')
    if cfg.form == "offsets_map" and not look:
        action = Action(core, inline_good=lambda: core(None, key_good))
    elif look or fresh:
        action = Action(core)
    else:
        action = Action(core, pre=lambda: stale_check(t, c, v))
    cfg.control_flow = pick(rng, applicable_control_flow(action))
    hazard = twin is None
    return finish(b, cfg, "Quoter", pick(rng, ("quote", "extract_evidence", "render_citation")), params, head, depth, action,
                  hazard, ("SPL501",), "continue" if got.in_loop else "return", hazard if twin in (None, "fixed") else True)


# ---------------------------------------------------------------- SPL401: prunes before the rationale

PRUNE_FORMS = ("del_key", "pop_key", "pop_index", "remove", "clear", "filter_reassign", "slice_assign", "del_slice",
               "alias_reassign", "tombstone_flag", "helper", "graph_remove")


def acquire_container(b: Build, rng: random.Random, t: SpanType, cfg: Config, mapping: bool) -> tuple[list[str], Code, str, str | None]:
    """A container of spans: the operator's own attribute (annotated or filled by `add`), a
    parameter, a buffer's attribute, or a graph state's messages. Returns parameters, code, the
    expression and, when it is an attribute the method may rebind, that attribute."""
    coll = container_name(cfg.naming, t.kind)
    ann = f"dict[str, {t.name}]" if mapping else f"list[{t.name}]"
    empty = "{}" if mapping else "[]"
    if cfg.annotation == "container":
        cfg.acquisition = "param"
        return [f"{coll}: {ann}"], [], coll, None
    if cfg.annotation == "holder":
        holder = "ContextBuffer" if cfg.naming == "noun" else pick(rng, ("Workspace", "Store"))
        b.add_class(holder, holder_class(t, holder, True))
        param = "buffer" if cfg.naming == "noun" else "store"
        cfg.acquisition = "holder_attr"
        attr = "spans" if mapping else "messages"
        return [f"{param}: {holder}"], [], f"{param}.{attr}", f"{param}.{attr}"
    graph = cfg.form == "graph_remove" or rng.random() < 0.5
    if cfg.annotation == "none" and t.kind == "message" and t.origin.startswith("framework") and not mapping and graph:
        cfg.acquisition = "graph_state"
        return ["state"], [], 'state["messages"]', None
    attr = f"self._{coll}"
    if cfg.annotation == "precise":
        b.attr(f"{attr}: {ann} = {empty}")
        cfg.acquisition = "self_annotated"
    else:
        b.attr(f"{attr} = {empty}")
        add = f"self._{coll}[{t.ident('item')}] = item" if mapping else f"self._{coll}.append(item)"
        b.methods.append(block(f"def add(self, item: {t.name}) -> None:", line(add)))
        cfg.acquisition = "self_filled_by_add"
    return [], [], attr, attr


def prune(rng: random.Random) -> list[Program]:
    cfg = draw(rng, "prune", ("versioned", "hashed", "both", "message", "embedded"), LOCATIONS)
    cfg.form = pick(rng, PRUNE_FORMS)
    if cfg.form == "graph_remove":
        cfg.kind, cfg.location, cfg.annotation = "message", pick(rng, ("framework", "framework_subclass")), "none"
    t = span_type(rng, cfg.kind, cfg.location, tombstones=cfg.form == "tombstone_flag")
    if cfg.form == "tombstone_flag" and t.origin.startswith("framework"):
        cfg.form = "pop_index"
    twin = pick(rng, ("fixed", "fixed", "lookalike", "appended_same_call")) if cfg.form != "graph_remove" else "fixed"
    late = rng.random() < 0.4  # the bad form records the rationale after the removal
    seed = rng.random()
    return [_prune(cfg, t, None, late, seed), _prune(dc_replace(cfg, twin=twin), t, twin, late, seed)]


def _prune(cfg: Config, t: SpanType, twin: str | None, late: bool, seed: float) -> Program:
    rng = random.Random(seed)
    cfg = dc_replace(cfg)
    if twin == "lookalike":
        t = dc_replace(LOOKALIKES[pick(rng, ("Label", "Setting", "HttpPayload"))], origin="same")
        if cfg.form == "tombstone_flag":
            cfg.form = "remove"
    b = new_build(rng, cfg.location)
    b.add_type(t)
    b.add_class("DecisionLog", decision_log_class())
    b.attr("self.decision_log = DecisionLog()")
    mapping = cfg.form in ("del_key", "pop_key", "tombstone_flag") or (cfg.form in ("clear", "filter_reassign", "helper") and rng.random() < 0.5)
    if cfg.form == "graph_remove":
        b.framework.append("from langchain_core.messages import RemoveMessage")
    params, head, c, owned = acquire_container(b, rng, t, cfg, mapping)
    if cfg.form in ("filter_reassign", "alias_reassign") and owned is None:
        cfg.form = "slice_assign"
    kinds = [k if k != "comprehension" else "plain" for k in cfg.alias_kinds]
    if cfg.form == "alias_reassign" and not kinds:
        kinds = ["plain"]
    cfg.alias_kinds = tuple(kinds)
    names = [pick(rng, ("hist", "window", "live", "current"))] + [f"view{i}" for i in range(1, 4)]
    chain, depth, alias = alias_chain(c, names, kinds, lambda x: f"len({x})")
    head = head + chain
    if cfg.form in ("del_key", "pop_key", "tombstone_flag", "helper") and mapping:
        params = params + ["sid: str"]
        victims = "[sid]"
    elif mapping:
        victims = f"list({alias})"
    elif cfg.form in ("pop_index", "remove", "helper"):
        victims = f"[{t.ident(alias + '[0]')}]"
    elif cfg.form == "clear":
        victims = f"[{t.ident('o')} for o in {alias}]"
    else:
        victims = f"[{t.ident('o')} for o in {alias}[: -self.keep]]"
    if cfg.form == "helper":
        body = line("del spans[sid]" if mapping else "spans.pop(0)", "helper-body")
        b.methods.append(block(f"def _drop(self, spans{', sid' if mapping else ''}) -> None:", body))
    appended = twin == "appended_same_call"
    probe = t.new('"probe"', '""')

    def removal() -> Code:
        f = cfg.form
        if appended:
            if mapping:
                return lines(f"probe = {probe}", f"{alias}[{t.ident('probe')}] = probe", f"self.measure({alias})",
                             f"del {alias}[{t.ident('probe')}]")
            return lines(f"probe = {probe}", f"{alias}.append(probe)", f"self.measure({alias})", f"{alias}.pop()")
        text = {
            "del_key": f"del {alias}[sid]",
            "pop_key": f"{alias}.pop(sid, None)",
            "pop_index": f"{alias}.pop(0)",
            "remove": f"{alias}.remove({alias}[0])",
            "clear": f"{alias}.clear()",
            "filter_reassign": (f"{owned} = {{k: o for k, o in {alias}.items() if k not in self.stale}}" if mapping
                                else f"{owned} = [o for o in {alias} if {t.ident('o')} not in self.stale]"),
            "slice_assign": f"{alias}[:] = {alias}[-self.keep:]",
            "del_slice": f"del {alias}[: -self.keep]",
            "alias_reassign": f"{owned} = {alias}[-self.keep:]",
            "tombstone_flag": f"{alias}[sid].tombstoned = True",
            "helper": f"self._drop({alias}{', sid' if mapping else ''})",
            "graph_remove": f"return {{\"messages\": [RemoveMessage(id=o.id) for o in {alias}[: -self.keep]]}}",
        }[f]
        return line(text, HIT)

    if cfg.form in ("filter_reassign",):
        victims = (f"[k for k in {alias} if k in self.stale]" if mapping else f"[{t.ident('o')} for o in {alias} if {t.ident('o')} in self.stale]")
        b.attr("self.stale: set[str] = set()")
    record = lambda: line(f'self.decision_log.record(action="prune", span_ids={victims}, reason="over the token budget")')  # noqa: E731
    b.methods.append(block("def measure(self, items) -> int:", line("return len(items)")))
    if appended:
        action = Action(removal)
    else:
        action = Action(removal, pre=record, tail=record if late and cfg.form != "graph_remove" else None)
    shapes = applicable_control_flow(action)
    if cfg.form == "graph_remove":
        shapes = [s for s in shapes if s in ("straight", "if_write", "with", "try_except")]
    cfg.control_flow = pick(rng, shapes)
    hazard = twin is None
    return finish(b, cfg, "Compactor", pick(rng, ("compact", "trim", "evict", "prune")), params, head, depth, action, hazard,
                  ("SPL401",), "return", hazard if twin in (None, "fixed") else True)


# ---------------------------------------------------------------- SPL402: decision log edited

LOG_FORMS = ("pop", "pop_first", "del_index", "del_slice", "setitem", "entry_edit", "clear", "remove", "insert",
             "truncate_reassign", "sort")


def log_edit(rng: random.Random) -> list[Program]:
    cfg = draw(rng, "log", ("versioned",), ("same", "other_module"))
    cfg.kind = "decision_log"
    cfg.form = pick(rng, LOG_FORMS)
    twin = pick(rng, ("fixed", "fixed", "copy_then_edit", "read_only", "lookalike"))
    seed = rng.random()
    return [_log(cfg, None, seed), _log(dc_replace(cfg, twin=twin), twin, seed)]


def _log(cfg: Config, twin: str | None, seed: float) -> Program:
    rng = random.Random(seed)
    cfg = dc_replace(cfg)
    b = new_build(rng, cfg.location)
    b.add_class("DecisionLog", decision_log_class())
    look = twin == "lookalike"
    name = pick(rng, ("decision_log", "audit_log", "ledger")) if cfg.naming == "noun" else pick(rng, ("store", "book", "records"))
    params: list[str] = []
    owned: str | None = None
    if look:
        b.attr("self.retry_queue: list[dict] = []")
        entries, owned = "self.retry_queue", "self.retry_queue"
        cfg.acquisition = "work_queue"
    elif cfg.annotation == "precise":
        params, entries = [f"{name}: DecisionLog"], f"{name}.entries"
        owned = entries
        cfg.acquisition = "param"
    elif cfg.annotation == "container":
        params, entries = [f"{name}: list[dict]"], name
        cfg.acquisition = "param_entries"
        if cfg.naming == "neutral":
            params = [f"{name}: DecisionLog"]
            entries = f"{name}.entries"
            owned = entries
    elif cfg.annotation == "holder":
        b.add_class("AgentContext", lines("@dataclass", "class AgentContext:", '    """What one agent run carries."""', "",
                                          "    decision_log: DecisionLog = field(default_factory=DecisionLog)"))
        params, entries = ["ctx: AgentContext"], "ctx.decision_log.entries"
        owned = entries
        cfg.acquisition = "holder_attr"
    else:
        b.attr(f"self.{name} = DecisionLog()")
        entries = owned = f"self.{name}.entries"
        cfg.acquisition = "self_attr"
    kinds = [k if k != "comprehension" else "plain" for k in cfg.alias_kinds]
    cfg.alias_kinds = tuple(kinds)
    chain, depth, alias = alias_chain(entries, ["entries", "log_entries", "rows"], kinds, lambda x: f"len({x})")
    if cfg.form == "truncate_reassign" and owned is None:
        cfg.form = "del_slice"

    def mutation(tag=HIT) -> Code:
        text = {
            "pop": f"{alias}.pop()",
            "pop_first": f"{alias}.pop(0)",
            "del_index": f"del {alias}[-1]",
            "del_slice": f"del {alias}[: -self.keep]",
            "setitem": f'{alias}[-1] = {{"action": "prune", "reason": "rewritten"}}',
            "entry_edit": f'{alias}[-1]["reason"] = "superseded"',
            "clear": f"{alias}.clear()",
            "remove": f"{alias}.remove({alias}[0])",
            "insert": f'{alias}.insert(0, {{"action": "note", "reason": "backfilled"}})',
            "truncate_reassign": f"{owned} = {alias}[-self.keep:]",
            "sort": f'{alias}.sort(key=lambda e: e.get("at", 0))',
        }[cfg.form]
        if twin == "copy_then_edit":
            return line(f"recent = list({alias})") + line(text.replace(alias, "recent").replace(str(owned), "recent"), tag)
        if twin == "read_only":
            return line(f"self.last = {alias}[-1] if {alias} else None", tag)
        return line(text, tag)

    def append() -> Code:
        return line(f'{alias}.append({{"action": "undo", "reason": "operator request"}})')

    action = Action(mutation, inline_good=append)
    cfg.control_flow = pick(rng, applicable_control_flow(action))
    b.attr("self.last = None")
    hazard = twin is None
    return finish(b, cfg, "DecisionKeeper", pick(rng, ("undo_last", "rotate", "amend", "tidy")), params, chain, depth, action, hazard,
                  ("SPL402",), "return", hazard if twin in (None, "fixed") else True)


# ---------------------------------------------------------------- SPL403: tombstones collected by age

GC_FORMS = ("del_key", "pop_key", "dict_filter_reassign", "list_remove")
AGES = {
    "time": ("now = time.time()", "now - {s}.tombstoned_at > self.ttl"),
    "monotonic": ("cutoff = time.monotonic() - self.ttl", "{s}.tombstoned_at < cutoff"),
}
HOLDER_GATES = ("not self.holders.get({sid})", "self.refcounts.get({sid}, 0) == 0", "{sid} not in self.pinned")


def gc(rng: random.Random) -> list[Program]:
    cfg = draw(rng, "gc", ("versioned", "hashed", "both"), ("same", "other_module"))
    cfg.form = pick(rng, GC_FORMS)
    twin = pick(rng, ("fixed", "fixed", "lookalike", "mark_only"))
    seed = rng.random()
    return [_gc(cfg, None, seed), _gc(dc_replace(cfg, twin=twin), twin, seed)]


def _gc(cfg: Config, twin: str | None, seed: float) -> Program:
    rng = random.Random(seed)
    cfg = dc_replace(cfg)
    t = span_type(rng, cfg.kind, cfg.location, tombstones=True)
    look = twin == "lookalike"
    if look:
        t = SpanType(kind="lookalike", name="CachedResponse", id="url", content="body", lookalike=True)
    b = new_build(rng, cfg.location)
    if look:
        b.add_class("CachedResponse", lines("@dataclass", "class CachedResponse:", '    """An HTTP response kept for the retry window."""', "",
                                            "    url: str", '    body: str = ""', "    fetched_at: float = 0.0"))
    else:
        b.add_type(t)
    b.add_class("DecisionLog", decision_log_class())
    b.attr("self.decision_log = DecisionLog()")
    for attr in ("self.ttl = 3600.0", "self.holders: dict[str, set[str]] = {}", "self.refcounts: dict[str, int] = {}",
                 "self.pinned: set[str] = set()"):
        b.attr(attr)
    mapping = cfg.form != "list_remove"
    params, head, c, owned = acquire_container(b, rng, t, cfg, mapping)
    if cfg.form == "dict_filter_reassign" and owned is None:
        cfg.form = "del_key"
    kinds = [k if k != "comprehension" else "plain" for k in cfg.alias_kinds]
    cfg.alias_kinds = tuple(kinds)
    chain, depth, alias = alias_chain(c, ["live", "pool", "view"], kinds, lambda x: f"len({x})")
    start, cond = AGES[pick(rng, AGES)]
    gate = pick(rng, HOLDER_GATES)
    s = "s"

    def sweep(gated: bool, tag=HIT) -> Code:
        sid = "sid" if mapping else t.ident(s)
        if look:  # expiring cached HTTP responses: nothing was pruned, nothing holds them
            test = cond.format(s=s).replace("tombstoned_at", "fetched_at")
            if cfg.form == "dict_filter_reassign":
                return line(start) + line(f"{owned} = {{k: {s} for k, {s} in {alias}.items() if not ({test})}}", tag)
            if cfg.form == "list_remove":
                return line(start) + block(f"for {s} in list({alias}):", block(f"if {test}:", line(f"{alias}.remove({s})", tag)))
            remove = f"del {alias}[k]" if cfg.form == "del_key" else f"{alias}.pop(k, None)"
            return line(start) + block(f"for k, {s} in list({alias}.items()):", block(f"if {test}:", line(remove, tag)))
        test = f"{s}.tombstoned and " + cond.format(s=s) + (f" and {gate.format(sid=sid)}" if gated else "")
        record = line(f'self.decision_log.record(action="gc", span_id={sid}, reason="tombstone expired")')
        if twin == "mark_only":
            return line(start) + block(f"for {s} in list({alias}.values() if isinstance({alias}, dict) else {alias}):",
                                       block(f"if not {s}.tombstoned and {s} in self.retired:", record + line(f"{s}.tombstoned = True", tag) + line(f"{s}.tombstoned_at = time.time()")))
        if cfg.form == "dict_filter_reassign":
            keep = f"not ({test.replace(' and ' + gate.format(sid=sid), '') if not gated else test})"
            return line(start) + line(f'self.decision_log.record(action="gc", span_ids=[sid for sid, {s} in {alias}.items() if {test}], reason="tombstones expired")') + line(
                f"{owned} = {{sid: {s} for sid, {s} in {alias}.items() if {keep}}}", tag)
        if cfg.form == "list_remove":
            return line(start) + block(f"for {s} in list({alias}):", block(f"if {test}:", record + line(f"{alias}.remove({s})", tag)))
        remove = f"del {alias}[sid]" if cfg.form == "del_key" else f"{alias}.pop(sid, None)"
        return line(start) + block(f"for sid, {s} in list({alias}.items()):", block(f"if {test}:", record + line(remove, tag)))

    if twin == "mark_only":
        b.attr("self.retired: list = []")
    action = Action(lambda: sweep(False), inline_good=lambda: sweep(True, None))
    cfg.control_flow = pick(rng, ("straight", "if_write", "with", "try_except", "early_return", "match"))
    hazard = twin is None
    role, ops = ("ResponseCache", ("expire", "evict_stale")) if look else ("TombstoneCollector", ("collect", "vacuum", "gc_tombstones"))
    return finish(b, cfg, role, pick(rng, ops), params, chain, depth, action, hazard,
                  ("SPL403",), "return", hazard if twin in (None, "fixed") else True)


# ---------------------------------------------------------------- SPL301: summaries of summaries

SUMMARY_FORMS = ("rolling_attr", "rolling_prompt", "map_reduce", "summary_span", "new_summary_helper")
SUMMARIZERS = ("self.summarize", "self.llm.summarize", "summarize", "self.summarizer.summarize")


def summary(rng: random.Random) -> list[Program]:
    cfg = draw(rng, "summary", ("versioned",), ("same", "other_module"))
    cfg.kind = "summary"
    cfg.form = pick(rng, SUMMARY_FORMS)
    twin = pick(rng, ("fixed", "from_sources", "lineage_logged", "stored_only"))
    seed = rng.random()
    return [_summary(cfg, None, seed), _summary(dc_replace(cfg, twin=twin), twin, seed)]


def _summary(cfg: Config, twin: str | None, seed: float) -> Program:
    rng = random.Random(seed)
    cfg = dc_replace(cfg)
    b = new_build(rng, cfg.location)
    t = span_type(rng, "versioned", cfg.location)
    b.add_type(t)
    b.add_class("DecisionLog", decision_log_class())
    call = pick(rng, SUMMARIZERS)
    if call == "summarize":
        b.helpers += lines("def summarize(text: str, parents: list[str] | None = None) -> str:",
                           '    """One LLM call: a shorter text that keeps the decisions and open questions."""',
                           "    return text[:500]", "", "")
    b.attr("self.llm = None")
    b.attr("self.summarizer = None")
    b.attr("self.decision_log = DecisionLog()")
    b.attr("self.turns: list[str] = []")
    b.attr('self.store = {}')
    if call == "self.summarize":
        b.methods.append(block("def summarize(self, text: str, parents: list[str] | None = None) -> str:",
                               line("return self.llm.complete(f\"Summarize the conversation so far:\\n{text}\")")))
    params = ["new_lines: list[str]"]
    names = (["prev", "running", "last_summary"] if cfg.naming == "noun" else ["x", "prior", "acc"])
    kinds = [k if k != "comprehension" else "plain" for k in cfg.alias_kinds]
    cfg.alias_kinds = tuple(kinds)
    cfg.annotation = pick(rng, ("none", "precise")) if cfg.form == "summary_span" else "none"
    text_turns = '"\\n".join(new_lines)'
    lineage = ', parents=["summary", *self.turn_ids]' if call != "self.llm.summarize" else ', source_ids=list(self.turn_ids)'
    b.attr("self.turn_ids: list[str] = []")
    if cfg.form == "summary_span":
        attr = "self.summary_span"
        b.attr(f"{attr}: {t.name} | None = None" if cfg.annotation == "precise" else f"{attr} = None")
        source = attr
        read = lambda v: t.read(v)  # noqa: E731
    else:
        attr = "self.summary" if cfg.naming == "noun" else "self.state"
        b.attr(f'{attr} = ""')
        source = attr
        read = lambda v: v  # noqa: E731
    chain, depth, prev = alias_chain(source, names, kinds, lambda x: f"len({read(x)})" if cfg.form != "summary_span" else t.ident(x))
    if cfg.form == "summary_span" and "walrus" not in kinds:
        chain = block(f"if {source} is None:", line("return")) + chain
    sources = "\"\\n\".join(self.turns + new_lines)"

    def produce(extra: str = "", tag=HIT) -> Code:
        inp = f"{read(prev)} + \"\\n\" + {text_turns}"
        if twin == "from_sources":
            inp = sources
        if twin == "stored_only":
            return line(f'{attr} = self.store.get("summary", {read(prev)} if {prev} is not None else "")' if cfg.form != "summary_span"
                        else f'self.last_seen = {t.ident(prev)}', tag)
        if cfg.form == "rolling_attr":
            return line(f"{attr} = {call}({inp}{extra})", tag)
        if cfg.form == "rolling_prompt":
            prompt = f'f"Progressively summarize, adding to the previous summary.\\n{{{read(prev)}}}\\nNew lines:\\n{{joined}}"' if twin != "from_sources" else 'f"Summarize the conversation:\\n{joined}"'
            joined = line(f"joined = {text_turns if twin != 'from_sources' else sources}")
            return joined + line(f"{attr} = {call}({prompt}{extra})", tag)
        if cfg.form == "map_reduce":
            if twin == "from_sources":
                return line(f"{attr} = {call}({sources}{extra})", tag)
            return lines(f"partials = [{call}(chunk) for chunk in self.turns]") + line(
                f"{attr} = {call}(\"\\n\".join(partials) + \"\\n\" + {read(prev)}{extra})", tag)
        if cfg.form == "new_summary_helper":
            return line(f"{attr} = self.predict_new_summary(new_lines, {read(prev) if twin != 'from_sources' else repr('')}{extra})", tag)
        return line(f'{attr} = {t.new("new_id()", f"{call}({inp}{extra})")}', tag)

    if cfg.form == "new_summary_helper":
        b.methods.append(block("def predict_new_summary(self, new_lines: list[str], existing: str, parents: list[str] | None = None) -> str:",
                               lines('"""The running summary, extended with the new lines (one LLM call)."""',
                                     f"return {call}(existing + \"\\n\" + \"\\n\".join(new_lines))")))
    log = lambda: line(f'self.decision_log.record(action="summarize", summary_of="{attr[5:]}", parents=list(self.turn_ids))')  # noqa: E731
    if twin == "lineage_logged":
        action = Action(produce, pre=log)
    elif twin in ("from_sources", "stored_only"):
        action = Action(produce)
    else:
        action = Action(produce, inline_good=lambda: produce(lineage if cfg.form != "new_summary_helper" else ", parents=list(self.turn_ids)", None))
    cfg.control_flow = pick(rng, applicable_control_flow(action))
    hazard = twin is None
    if cfg.form == "new_summary_helper":
        # the helper summarizes what it is given: whether that is a summary is the caller's business
        cfg.form = "new_summary_helper"
    return finish(b, cfg, "ConversationSummaryMemory", pick(rng, ("save_context", "roll_summary", "condense")), params, chain, depth,
                  action, hazard, ("SPL301",), "return", hazard if twin in (None, "fixed", "lineage_logged") else True)


# ---------------------------------------------------------------- SPL202: artifacts without the version

RECORD_FORMS = ("dataclass", "namedtuple", "typeddict", "pydantic", "plain_class", "attrs")
PAYLOADS = {"offsets": ("start: int", "end: int"), "quote": ("quote: str",), "embedding": ("vector: list[float]",),
            "tokens": ("token_count: int",)}


def record(rng: random.Random) -> list[Program]:
    cfg = draw(rng, "record", ("versioned", "hashed", "both"), ("same", "other_module"))
    cfg.form = pick(rng, RECORD_FORMS)
    cfg.alias_kinds = ()
    cfg.control_flow = "n/a"
    twin = pick(rng, ("with_version", "with_hash", "not_derived", "lookalike"))
    seed = rng.random()
    return [_record(cfg, None, seed), _record(dc_replace(cfg, twin=twin), twin, seed)]


def record_class(form: str, name: str, fields: list[str], doc: str) -> Code:
    body = lines(f'"""{doc}"""', "")
    if form == "plain_class":
        args = ", ".join(fields)
        init = block(f"def __init__(self, {args}) -> None:", lines(*[f"self.{f.split(':')[0]} = {f.split(':')[0]}" for f in fields]))
        return block(f"class {name}:", body + init, HIT)
    base = {"dataclass": "", "namedtuple": "(NamedTuple)", "typeddict": "(TypedDict)", "pydantic": "(BaseModel)", "attrs": ""}[form]
    deco = {"dataclass": ["@dataclass(frozen=True)"], "attrs": ["@define"]}.get(form, [])
    return lines(*deco, tag=HIT) + block(f"class {name}{base}:", body + lines(*fields), HIT)


def _record(cfg: Config, twin: str | None, seed: float) -> Program:
    rng = random.Random(seed)
    cfg = dc_replace(cfg)
    t = span_type(rng, cfg.kind, cfg.location)
    b = new_build(rng, cfg.location)
    b.add_type(t)
    payload = pick(rng, PAYLOADS)
    key = pick(rng, ("span_id", "source_span_id")) if cfg.naming == "noun" else pick(rng, ("ref", "source", "key"))
    name = pick(rng, ("Citation", "OffsetMap", "EmbeddingRecord", "Evidence")) if cfg.naming == "noun" else pick(rng, ("Entry", "Record", "Item"))
    fields = [f"{key}: str", *PAYLOADS[payload]]
    v = "span" if cfg.naming == "noun" else "x"
    src = t
    doc = "What an answer derived from a span: kept beside the answer."
    if twin == "with_version" and t.version:
        fields.insert(1, "span_version: int")
    elif twin in ("with_version", "with_hash"):
        fields.insert(1, "content_hash: str")
        twin = "with_hash"
    elif twin == "not_derived":
        fields = [f"{key}: str", "reason: str", "decided_at: float"]
        payload = "decision"
        doc = "Why a span was dropped from the context."
    elif twin == "lookalike":
        src = dc_replace(LOOKALIKES["Label"], origin="same")
        b.add_type(src)
        key = "widget_id"
        fields = [f"{key}: str", "x: int", "y: int"]
        name, v = "WidgetAnchor", "w"
        payload = "layout"
        doc = "Where a widget sits on the screen."
    cfg.twin = twin or ""
    cfg.acquisition = payload
    imports = {"pydantic": ["from pydantic import BaseModel"], "attrs": ["from attrs import define"]}.get(cfg.form, [])
    b.add_class(name, record_class(cfg.form, name, fields, doc), *imports)
    ann = f"{v}: {src.name}" if rng.random() < 0.5 or cfg.naming == "neutral" else v
    cfg.annotation = "precise" if ":" in ann else "none"
    values = {"start: int": "start", "end: int": "end", "quote: str": f"{src.read(v)}[start:end]",
              "vector: list[float]": f"self.embedder.embed({src.read(v)})", "token_count: int": f"len({src.read(v)}.split())",
              "span_version: int": f"{v}.version", "content_hash: str": f"{v}.content_hash" if src.stored_hash else f"digest({src.read(v)})",
              "reason: str": '"superseded"', "decided_at: float": "time.time()", "x: int": f"{v}.x + start", "y: int": f"{v}.y"}
    args = ", ".join(f"{f.split(':')[0]}={values.get(f, src.ident(v))}" for f in fields)
    b.attr("self.embedder = None")
    b.attr("self.derived: list = []")
    body = line(f"self.derived.append({name}({args}))")
    hazard = twin is None
    dims = dict(family="record", rule="SPL202", polarity="positive" if hazard else "negative", twin=twin or "-", form=cfg.form,
                alias_depth="n/a", alias_kinds="-", control_flow="n/a", location=cfg.location, naming=cfg.naming,
                annotation=cfg.annotation, acquisition=payload, kind=cfg.kind)
    return assemble(b, "Deriver", f"def derive(self, {ann}, start: int = 0, end: int = 0) -> None:", body, ("SPL202",), hazard, dims, "")


FAMILIES = {"rewrite": rewrite, "cache": cache, "slice": slicing, "prune": prune, "log": log_edit, "gc": gc,
            "summary": summary, "record": record}
