"""How the guard reads a span: which fields hold its id, content, version and hash, and which digest
function produced the hash."""

from __future__ import annotations

import dataclasses
import hashlib
import operator
import threading
import types
import typing
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Union

from runtime_guard.vocabulary import DEFAULT_VOCABULARY, Vocabulary

Digest = Callable[[Union[str, bytes]], str]
MISSING = object()


def _utf8(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


def sha256_hex(content: str | bytes) -> str:
    """Hex SHA-256 of the content (UTF-8 for text)."""
    return hashlib.sha256(_utf8(content)).hexdigest()


def sha1_hex(content: str | bytes) -> str:
    """Hex SHA-1 of the content (UTF-8 for text)."""
    return hashlib.sha1(_utf8(content), usedforsecurity=False).hexdigest()


def md5_hex(content: str | bytes) -> str:
    """Hex MD5 of the content (UTF-8 for text)."""
    return hashlib.md5(_utf8(content), usedforsecurity=False).hexdigest()


def blake2b_hex(content: str | bytes) -> str:
    """Hex BLAKE2b (64-byte digest) of the content (UTF-8 for text)."""
    return hashlib.blake2b(_utf8(content)).hexdigest()


COMMON_DIGESTS: tuple[Digest, ...] = (sha256_hex, sha1_hex, md5_hex, blake2b_hex)
# The length of each common digest's hex form: a stored hash of another length is none of them.
_DIGEST_BY_LENGTH = {64: sha256_hex, 40: sha1_hex, 32: md5_hex, 128: blake2b_hex}


@dataclass(frozen=True)
class SpanSchema:
    """Overrides for how a guard reads spans.

    A field name given here is used for every span type; a field left as None is looked up in
    `vocabulary`. `digest` is the function that maps content to its stored hash; without it the guard
    infers one of `COMMON_DIGESTS` from the spans' pre-call state.
    """

    id_field: str | None = None
    content_field: str | None = None
    version_field: str | None = None
    hash_field: str | None = None
    digest: Digest | None = None
    vocabulary: Vocabulary = DEFAULT_VOCABULARY


DEFAULT_SCHEMA = SpanSchema()

_EXEMPT_TYPES: "weakref.WeakSet[type]" = weakref.WeakSet()
_READERS: "weakref.WeakSet[SpanReader]" = weakref.WeakSet()
_LOCK = threading.RLock()


def exempt(span_type: type) -> type:
    """Opt `span_type` (and its subclasses) out of the guard: its instances are not treated as spans.

    Usable as a class decorator. Returns the type unchanged.
    """
    with _LOCK:
        _EXEMPT_TYPES.add(span_type)
        for reader in list(_READERS):
            reader.forget_types()
    return span_type


class TypeCache:
    """Values computed once per type, by id of the type (`values`, for inline lookups). An entry
    leaves with its type: types made at run time (pydantic.create_model per request, `type(...)`
    factories) stay collectable."""

    def __init__(self) -> None:
        self.values: dict[int, Any] = {}
        self._refs: dict[int, weakref.ref] = {}

    def remember(self, kind: type, value: Any) -> Any:
        """Store `value` for `kind` and return it (not stored if `kind` cannot be weakly referenced)."""
        key = id(kind)
        values, refs = self.values, self._refs

        def forget(_ref: weakref.ref) -> None:
            if refs.get(key) is _ref:
                del refs[key]
                values.pop(key, None)

        with _LOCK:
            if key not in refs:
                try:
                    refs[key] = weakref.ref(kind, forget)
                except TypeError:
                    return value
            values[key] = value
        return value


class SpanType:
    """The resolved fields of one span type."""

    __slots__ = (
        "id_field", "content_field", "version_field", "hash_field", "hash_is_computed",
        "derived_fields", "tombstone_flags", "slot_names", "eager_fields", "metadata_field", "digest",
        "digest_inferred", "slot_getter", "field_count", "mutable_names", "mutable_getter",
    )

    def __init__(self, **values: Any) -> None:
        for name in self.__slots__:
            setattr(self, name, values.get(name))
        self.digest_inferred = False
        self.slot_getter = operator.attrgetter(*self.slot_names) if self.slot_names else None
        self.field_count, self.mutable_names, self.mutable_getter = _mutable_fields(
            values["declared"]) if values.get("declared") else (None, (), None)

    @property
    def has_stored_hash(self) -> bool:
        """Whether the hash is a stored field (not computed from the content on access)."""
        return self.hash_field is not None and not self.hash_is_computed


def read(obj: Any, name: str) -> Any:
    """`obj.name`, or MISSING when it is absent or reading it raises (a failing property or
    `__getattr__` is a field the object does not have)."""
    try:
        return getattr(obj, name, MISSING)
    except Exception:
        return MISSING


def is_text_content(value: Any) -> bool:
    """Whether `value` can be a span's content: text, bytes, or a list of text parts or content
    blocks (chat messages)."""
    if isinstance(value, (str, bytes)):
        return True
    return type(value) is list and bool(value) and isinstance(value[0], (str, dict))


def _class_attribute(span_type: type, name: str) -> Any:
    for klass in span_type.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return MISSING


_ATOMIC_ANNOTATIONS = (str, bytes, int, float, bool, "str", "bytes", "int", "float", "bool")


def declared_fields(span_type: type) -> dict[str, Any] | None:
    """The annotation of each field a dataclass, attrs class or pydantic model declares (None for
    other classes)."""
    if dataclasses.is_dataclass(span_type):
        return {f.name: f.type for f in dataclasses.fields(span_type)}
    attributes = _class_attribute(span_type, "__attrs_attrs__")
    if attributes is not MISSING:
        return {a.name: a.type for a in attributes}
    model_fields = getattr(span_type, "__pydantic_fields__", None)
    if isinstance(model_fields, dict) and hasattr(span_type, "__pydantic_fields_set__"):
        return {name: info.annotation for name, info in model_fields.items()}
    return None


def _is_atomic(annotation: Any) -> bool:
    """Whether an annotation admits only text, numbers and None: `str`, `Optional[int]`,
    `Literal["ai"]`, `Union[str, int]`, `Annotated[str, ...]`."""
    if annotation is None or annotation is type(None):
        return True
    try:
        if any(annotation is atomic or annotation == atomic for atomic in _ATOMIC_ANNOTATIONS):
            return True
        origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    except Exception:  # an annotation object that cannot be compared or taken apart
        return False
    if origin is typing.Literal:
        return all(value is None or type(value) in (str, bytes, int, bool) for value in arguments)
    if origin is typing.Union or origin is getattr(types, "UnionType", typing.Union):
        return all(map(_is_atomic, arguments))
    if origin is typing.Annotated:
        return _is_atomic(arguments[0])
    return False


def _mutable_fields(declared: dict[str, Any]) -> tuple[int, tuple[str, ...], Callable[[dict], tuple] | None]:
    """How many fields a type declares, the names of those not annotated as text, numbers or None
    (only those can hold a dict, list or set to save), and a getter of their values (None when
    there are none)."""
    names = [name for name, annotation in declared.items() if not _is_atomic(annotation)]
    if not names:
        return len(declared), (), None
    if len(names) == 1:
        name = names[0]
        return len(declared), (name,), lambda state: (state[name],)
    return len(declared), tuple(names), operator.itemgetter(*names)


def slot_names(span_type: type) -> tuple[str, ...]:
    """The slots of a type and its bases (without `__dict__` and `__weakref__`)."""
    names: list[str] = []
    for klass in span_type.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return tuple(names)


_NOT_SPANS = (type, str, bytes, int, float, bool, list, tuple, dict, set, frozenset, types.ModuleType,
              types.FunctionType, types.MethodType, types.BuiltinFunctionType)


class SpanReader:
    """Resolves, once per type, how a guard reads spans of that type."""

    def __init__(self, schema: SpanSchema = DEFAULT_SCHEMA) -> None:
        self.schema = schema
        self.vocabulary = schema.vocabulary
        self._types = TypeCache()
        with _LOCK:
            _READERS.add(self)

    def forget_types(self) -> None:
        """Drop the per-type cache (after a type was exempted)."""
        self._types = TypeCache()

    @property
    def cached_types(self) -> dict[int, SpanType | None]:
        """The per-type cache, by id of the type, for hot loops that look it up inline."""
        return self._types.values

    def span_type(self, obj: Any) -> SpanType | None:
        """The fields of `obj`'s type if `obj` is a span, else None."""
        cached = self._types.values.get(id(type(obj)), MISSING)
        if cached is not MISSING:
            return cached
        return self._resolve(obj)

    def _remember(self, span_type: type, resolved: SpanType | None) -> SpanType | None:
        return self._types.remember(span_type, resolved)

    def key(self, obj: Any, span_type: SpanType) -> Any:
        """The identity of a span across the call: its id, or the object itself when it has none."""
        span_id = read(obj, span_type.id_field)
        if type(span_id) is str:
            return span_id
        if span_id is None or span_id is MISSING:
            return ("<object>", id(obj))
        try:
            hash(span_id)
        except TypeError:
            return ("<object>", id(obj))
        return span_id

    def _resolve(self, obj: Any) -> SpanType | None:
        span_type = type(obj)
        if isinstance(obj, _NOT_SPANS) or any(issubclass(span_type, t) for t in list(_EXEMPT_TYPES)):
            return self._remember(span_type, None)
        schema, vocabulary = self.schema, self.vocabulary

        def first(explicit: str | None, candidates: tuple[str, ...], accepts: Callable[[Any], bool]):
            for name in (explicit,) if explicit else candidates:
                value = read(obj, name)
                if value is not MISSING and accepts(value):
                    return name
            return None

        id_field = first(schema.id_field, vocabulary.id_fields, lambda v: not callable(v))
        if id_field is None:
            return self._remember(span_type, None)
        content_field = first(schema.content_field, vocabulary.content_fields, is_text_content)
        if content_field is None:
            return None  # maybe a span whose content is unset; decide again for the next instance
        if self._is_holder(obj, content_field):
            return self._remember(span_type, None)
        version_field = first(schema.version_field, vocabulary.version_fields,
                              lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)))
        hash_field = first(schema.hash_field, vocabulary.hash_fields,
                           lambda v: v is None or isinstance(v, (str, bytes)))
        hash_is_computed = False
        if hash_field is not None:
            attribute = _class_attribute(span_type, hash_field)
            stored = hash_field in getattr(obj, "__dict__", {}) or isinstance(
                attribute, types.MemberDescriptorType)
            hash_is_computed = not stored and hasattr(type(attribute), "__get__")

        def present(names: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(n for n in names if read(obj, n) is not MISSING)

        metadata = first(None, vocabulary.metadata_fields, lambda v: hasattr(v, "get"))
        derived_fields = present(vocabulary.derived_fields)
        tombstone_flags = present(vocabulary.tombstone_flags)
        slots = slot_names(span_type)
        instance_fields = getattr(obj, "__dict__", {})
        checked = (version_field, hash_field if not hash_is_computed else None) + derived_fields + tombstone_flags
        eager_fields = tuple(n for n in checked
                             if n is not None and n not in instance_fields and n not in slots)
        resolved = SpanType(
            id_field=id_field, content_field=content_field, version_field=version_field,
            hash_field=hash_field, hash_is_computed=hash_is_computed,
            derived_fields=derived_fields, tombstone_flags=tombstone_flags, slot_names=slots,
            eager_fields=eager_fields,
            metadata_field=metadata,
            digest=schema.digest,
            declared=declared_fields(span_type),
        )
        return self._remember(span_type, resolved)

    def _is_holder(self, obj: Any, content_field: str) -> bool:
        """Whether `obj` only shows the content of a span it holds (LlamaIndex `NodeWithScore.node`):
        its content is computed by its class, and one of its own attributes is a span."""
        attributes = getattr(obj, "__dict__", None)
        if not isinstance(attributes, dict) or content_field in attributes:
            return False
        if not hasattr(type(_class_attribute(type(obj), content_field)), "__get__"):
            return False
        return any(self.span_type(value) is not None for value in list(attributes.values())
                   if not isinstance(value, _NOT_SPANS))

    def digest_for(self, span_type: SpanType, content: Any, stored_hash: Any) -> Digest | None:
        """The digest function of `span_type`: the schema's, or the common digest that maps this
        (pre-call) content to its stored hash. Inferred once per type: the first stored hash that
        is set decides, and a type whose hash is none of the common digests is not tried again."""
        if span_type.digest is not None or span_type.digest_inferred:
            return span_type.digest
        if not isinstance(content, (str, bytes)) or not isinstance(stored_hash, str) or not stored_hash:
            return None
        candidate = _DIGEST_BY_LENGTH.get(len(stored_hash))
        if candidate is not None and candidate(content) == stored_hash:
            span_type.digest = candidate
        span_type.digest_inferred = True
        return span_type.digest


_SHARED_READERS: dict[SpanSchema, SpanReader] = {}


def reader_for(schema: SpanSchema | None) -> SpanReader:
    """The reader shared by every guard and cache that uses `schema` (default: the vocabulary)."""
    schema = schema or DEFAULT_SCHEMA
    with _LOCK:
        reader = _SHARED_READERS.get(schema)
        if reader is None:
            reader = _SHARED_READERS[schema] = SpanReader(schema)
        return reader
