"""The public form of a question, typed: what the self-check data (``checks.json``) hold.

An answer key's questions (:mod:`.questions`) build one of these frozen records
(``Value(...).public(chapter)``), the build writes its :meth:`~ValueSpec.to_json`, and every
reader (the self-check, the judges, a variant's check) turns the JSON back into the record with
:func:`from_json` once, where it loads it, and then reads attributes, never string keys.

- :class:`ValueSpec`: a number, a whole number, a text, or a list of them (kinds float, int,
  text, floats, ints, ids): salted hashes of the expected value (``hashes``, or ``length`` and
  one ``items`` entry per element), and of each common mistake (:class:`ValueMistake`).
- :class:`ChoiceSpec`: one letter among ``options``, judged for ``attempts`` wrong letters.
- :class:`FunctionSpec`: a function to write, tried on ``cases`` against ``reference``; its
  mistakes carry the hashes of their outputs on the cases (:class:`OutputMistake`).
- :class:`AnswerFormat`: what a variant notebook's check() knows (format only, no hash).

Each record holds exactly the fields of its JSON object, in the JSON's order: :meth:`to_json`
writes them (an optional field at its default is left out, as before), :func:`from_json` checks
them: an unknown kind, a missing or unknown field, a value of the wrong type is a ValueError
naming the question and the field.

>>> spec = from_json({"attempts": 1, "qid": "q8", "kind": "choice", "points": 1, "salt": "s",
...                   "options": ["a", "b"], "hint": "", "hashes": {"0": "ab12"}})
>>> spec.options, spec.to_json()["options"]
(('a', 'b'), ['a', 'b'])
>>> from_json({**spec.to_json(), "points": "1"})
Traceback (most recent call last):
ValueError: question q8: points must be a number, got str '1'
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..validation import check_bool, check_scalar, describe

#: ``Function(..., partial=PER_CASE)``: the points shared among the cases the function passes.
PER_CASE = "per-case"
#: The kinds of a :class:`ValueSpec`; those of a list answer.
VALUE_KINDS = ("float", "int", "text", "floats", "ints", "ids")
LIST_KINDS = ("floats", "ints", "ids")
Checker = Callable[[Any, str], Any]


# --------------------------------------------------------------------------------------------
# Checkers of one JSON value: ``(value, name) -> the value as the record holds it``


def _text(value: Any, name: str) -> str:
    return str(check_scalar(value, name, str, what="a text"))


def _number(value: Any, name: str) -> float:
    """A number kept as written (an int stays an int: the JSON is written back unchanged)."""
    return check_scalar(value, name, numbers.Real, what="a number")  # type: ignore[no-any-return]


def _count(value: Any, name: str) -> int:
    return int(check_scalar(value, name, numbers.Integral, what="a whole number", min_val=0))


def _points(value: Any, name: str) -> float:
    return check_scalar(  # type: ignore[no-any-return]
        value, name, numbers.Real, what="a number", min_val=0
    )


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{name} must be a list, got {type(value).__name__} {describe(value)}")
    return list(value)


def _texts(value: Any, name: str) -> tuple[str, ...]:
    return tuple(_text(x, f"{name}[{i}]") for i, x in enumerate(_list(value, name)))


def _counts(value: Any, name: str) -> tuple[int, ...]:
    return tuple(_count(x, f"{name}[{i}]") for i, x in enumerate(_list(value, name)))


def _hashes(value: Any, name: str) -> dict[str, str]:
    """``{"4": hash, "4~": hash of the other rounding of a tie, ...}``."""
    if not isinstance(value, Mapping) or not value:
        raise ValueError(f"{name} must be a non-empty dict of hashes, got {describe(value)}")
    return {_text(k, f"{name} key"): _text(h, f"{name}[{k!r}]") for k, h in value.items()}


def _items(value: Any, name: str) -> tuple[dict[str, str], ...]:
    return tuple(_hashes(h, f"{name}[{i}]") for i, h in enumerate(_list(value, name)))


def _shares(value: Any, name: str) -> dict[int, float]:
    """A :class:`ValueSpec`'s partial credit: ``{"2": 0.5}`` (decimals: share of the points)."""
    if not isinstance(value, Mapping) or not value:
        raise ValueError(f"{name} must be a non-empty dict {{decimals: share}}, got {value!r:.40}")
    shares = {}
    for d, share in value.items():
        if not isinstance(d, (str, int)) or not str(d).isdigit():
            raise ValueError(f"{name} must map numbers of decimals to shares, got key {d!r:.20}")
        shares[int(d)] = check_scalar(
            share, f"{name}[{d!r}]", numbers.Real, what="a share", min_val=0, max_val=1
        )
    return shares


def _cases(value: Any, name: str) -> tuple[tuple[str, list[Any]], ...]:
    cases = []
    for i, case in enumerate(_list(value, name)):
        pair = _list(case, f"{name}[{i}]")
        if len(pair) != 2:
            raise ValueError(f"{name}[{i}] must be [label, arguments], got {describe(case)}")
        cases.append((_text(pair[0], f"{name}[{i}] label"), _list(pair[1], f"{name}[{i}] args")))
    return tuple(cases)


def _per_case(value: Any, name: str) -> str:
    if value != PER_CASE:
        raise ValueError(f"{name} must be {PER_CASE!r}, got {describe(value)}")
    return PER_CASE


def _records(kind: type) -> Checker:
    """The checker of a list of ``kind`` records (a question's mistakes)."""

    def check(value: Any, name: str) -> tuple[Any, ...]:
        return tuple(_read(kind, m, "", f"{name}[{j}].") for j, m in enumerate(_list(value, name)))

    return check


def _checked(check: Checker) -> dict[str, Any]:
    return {"check": check}


# --------------------------------------------------------------------------------------------
# Reading and writing a record


def _read(cls: type, data: Any, where: str, prefix: str = "", **given: Any) -> Any:
    """A ``cls`` record from the JSON object ``data``, every field checked; ``where`` names the
    question in the error (``question q3: ``), ``given`` are fields the JSON does not hold."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}must be a JSON object, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name not in given}
    unknown = [str(k) for k in data if k not in fields]
    if unknown:
        raise ValueError(f"{where}unknown field {prefix + unknown[0]!r}")
    values = dict(given)
    for name, f in fields.items():
        if name in data:
            try:
                values[name] = f.metadata["check"](data[name], f"{prefix}{name}")
            except (TypeError, ValueError) as error:
                message = str(error)
                raise ValueError(
                    message if message.startswith(where) else where + message
                ) from None
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ValueError(f"{where}field {prefix + name!r} is missing")
    return cls(**values)


def _plain(value: Any) -> Any:
    """``value`` as JSON holds it: a record's own JSON, a tuple as a list, dict keys as text."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_plain(x) for x in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


class _Record:
    """``to_json``: every field in order, but those not in the JSON and optional ones left
    at their default (None, False, empty)."""

    def to_json(self) -> dict[str, Any]:
        data = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.metadata.get("json", True) and not (
                f.default is not dataclasses.MISSING and value == f.default
            ):
                data[f.name] = _plain(value)
        return data


# --------------------------------------------------------------------------------------------
# The records


@dataclass(frozen=True)
class ValueMistake(_Record):
    """A common mistake of a :class:`ValueSpec`: its hint and the hashes of its value."""

    hint: str = field(metadata=_checked(_text))
    length: int | None = field(default=None, metadata=_checked(_count))
    items: tuple[dict[str, str], ...] | None = field(default=None, metadata=_checked(_items))
    hashes: dict[str, str] | None = field(default=None, metadata=_checked(_hashes))


@dataclass(frozen=True)
class OutputMistake(_Record):
    """A common mistake of a :class:`FunctionSpec`: its hint and its outputs' hashes."""

    hint: str = field(metadata=_checked(_text))
    outputs: tuple[str, ...] = field(metadata=_checked(_texts))


@dataclass(frozen=True)
class ValueSpec(_Record):
    """The public form of a :class:`~.questions.Value`."""

    qid: str = field(metadata=_checked(_text))
    kind: str = field(metadata=_checked(_text))
    points: float = field(metadata=_checked(_points))
    salt: str = field(metadata=_checked(_text))
    hint: str = field(metadata=_checked(_text))
    decimals: int = field(metadata=_checked(_count))
    significant: bool = field(default=False, metadata=_checked(check_bool))
    partial: dict[int, float] | None = field(default=None, metadata=_checked(_shares))
    low: float | None = field(default=None, metadata=_checked(_number))
    high: float | None = field(default=None, metadata=_checked(_number))
    length: int | None = field(default=None, metadata=_checked(_count))
    items: tuple[dict[str, str], ...] | None = field(default=None, metadata=_checked(_items))
    hashes: dict[str, str] | None = field(default=None, metadata=_checked(_hashes))
    mistakes: tuple[ValueMistake, ...] = field(
        default=(), metadata=_checked(_records(ValueMistake))
    )

    def _consistent(self, where: str) -> None:
        if self.kind not in VALUE_KINDS:
            raise ValueError(f"{where}unknown kind {self.kind!r}")
        listed = self.kind in LIST_KINDS
        for prefix, hashed in [("", self)] + [
            (f"mistakes[{j}].", m) for j, m in enumerate(self.mistakes)
        ]:
            _hashed_as_kind(hashed, listed, where, prefix)


def _hashed_as_kind(hashed: Any, listed: bool, where: str, prefix: str) -> None:
    """A value's hashes as its kind has them: ``length`` and ``items`` for a list, else
    ``hashes`` (``prefix``: ``mistakes[j].`` for a mistake's)."""
    needed, absent = (
        (("length", "items"), ("hashes",)) if listed else (("hashes",), ("length", "items"))
    )
    for name in needed:
        if getattr(hashed, name) is None:
            raise ValueError(f"{where}field {prefix + name!r} is missing")
    for name in absent:
        if getattr(hashed, name) is not None:
            raise ValueError(f"{where}unknown field {prefix + name!r} for this kind")
    if listed and len(hashed.items) != hashed.length:
        raise ValueError(
            f"{where}field {prefix + 'items'!r} has not {hashed.length} hashes (its length)"
        )


@dataclass(frozen=True)
class ChoiceSpec(_Record):
    """The public form of a :class:`~.questions.Choice`."""

    attempts: int = field(metadata=_checked(_count))
    qid: str = field(metadata=_checked(_text))
    kind: str = field(metadata=_checked(_text))
    points: float = field(metadata=_checked(_points))
    salt: str = field(metadata=_checked(_text))
    options: tuple[str, ...] = field(metadata=_checked(_texts))
    hint: str = field(metadata=_checked(_text))
    hashes: dict[str, str] = field(metadata=_checked(_hashes))

    def _consistent(self, where: str) -> None:
        if self.attempts < 1:
            raise ValueError(f"{where}attempts must be at least 1, got {self.attempts}")


@dataclass(frozen=True)
class FunctionSpec(_Record):
    """The public form of a :class:`~.questions.Function` (``hidden_cases``: how many hidden
    cases share the points, given with ``partial`` only; ``salt``: with ``mistakes`` only)."""

    qid: str = field(metadata=_checked(_text))
    kind: str = field(metadata=_checked(_text))
    points: float = field(metadata=_checked(_points))
    name: str = field(metadata=_checked(_text))
    reference: str = field(metadata=_checked(_text))
    hint: str = field(metadata=_checked(_text))
    cases: tuple[tuple[str, list[Any]], ...] = field(metadata=_checked(_cases))
    allowed: tuple[str, ...] = field(metadata=_checked(_texts))
    partial: str | None = field(default=None, metadata=_checked(_per_case))
    hidden_cases: int | None = field(default=None, metadata=_checked(_count))
    salt: str | None = field(default=None, metadata=_checked(_text))
    mistakes: tuple[OutputMistake, ...] = field(
        default=(), metadata=_checked(_records(OutputMistake))
    )

    def _consistent(self, where: str) -> None:
        if self.mistakes and self.salt is None:
            raise ValueError(f"{where}field 'salt' is missing (the mistakes' hashes need it)")


@dataclass(frozen=True)
class AnswerFormat(_Record):
    """What a variant's check() knows of a question: the kind of its answer, a list's length,
    the range, a choice's letters, a function's name and numbers of arguments, the points; no
    hash. Its JSON is keyed by the question id, so ``qid`` is not written in it."""

    qid: str = field(metadata={"json": False})
    kind: str = field(metadata=_checked(_text))
    options: str | None = field(default=None, metadata=_checked(_text))
    name: str | None = field(default=None, metadata=_checked(_text))
    arities: tuple[int, ...] | None = field(default=None, metadata=_checked(_counts))
    length: int | None = field(default=None, metadata=_checked(_count))
    low: float | None = field(default=None, metadata=_checked(_number))
    high: float | None = field(default=None, metadata=_checked(_number))
    points: float | None = field(default=None, metadata=_checked(_points))

    @classmethod
    def from_json(cls, data: Any, qid: str) -> AnswerFormat:
        """The format of question ``qid`` from its JSON (a variant's set-up cell)."""
        where = f"question {qid}: "
        found = _read(cls, data, where, qid=qid)
        fields = {
            "choice": {"options"},
            "function": {"name", "arities"},
            **{
                kind: {"low", "high"} | ({"length"} if kind in LIST_KINDS else set())
                for kind in VALUE_KINDS
            },
        }
        if found.kind not in fields:
            raise ValueError(f"{where}unknown kind {found.kind!r}")
        for name in ("options", "name", "arities", "length", "low", "high"):
            if getattr(found, name) is not None and name not in fields[found.kind]:
                raise ValueError(f"{where}unknown field {name!r} for the kind {found.kind}")
        return found  # type: ignore[no-any-return]


QuestionSpec = ValueSpec | ChoiceSpec | FunctionSpec
_BY_KIND: dict[str, type] = {"choice": ChoiceSpec, "function": FunctionSpec}


def from_json(data: Any) -> QuestionSpec:
    """The public form of a question from its JSON (one entry of ``checks.json``): a ValueError
    naming the question and the field for an unknown kind, a missing or unknown field, or a
    value of the wrong type."""
    qid = data.get("qid") if isinstance(data, Mapping) else None
    where = f"question {qid if isinstance(qid, str) else '(no qid)'}: "
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}must be a JSON object, got {type(data).__name__}")
    if "kind" not in data:
        raise ValueError(f"{where}field 'kind' is missing")
    kind = data["kind"]
    if not isinstance(kind, str) or (kind not in _BY_KIND and kind not in VALUE_KINDS):
        raise ValueError(f"{where}unknown kind {kind!r:.40} (field 'kind')")
    spec = _read(_BY_KIND.get(kind, ValueSpec), data, where)
    spec._consistent(where)
    return spec  # type: ignore[no-any-return]


def chapter_from_json(data: Any, chapter: str = "") -> dict[str, QuestionSpec]:
    """The public forms of a chapter's questions (``{qid: spec}`` of ``checks.json``), each
    :func:`from_json`, under the question id it is filed by."""
    if not isinstance(data, Mapping):
        raise ValueError(f"chapter {chapter}: must be a JSON object of questions")
    specs = {}
    for qid, entry in data.items():
        spec = from_json(entry)
        if spec.qid != qid:
            raise ValueError(
                f"question {qid}: filed under {qid!r} but its field 'qid' is {spec.qid!r}"
            )
        specs[qid] = spec
    return specs
