"""The questions of an answer key and their public form.

A lecturer writes :class:`Value`, :class:`Choice` and :class:`Function` in
``solutions/keys/NN_topic.py``; :meth:`public` gives what students install (a typed record of
:mod:`.spec`, written as its ``to_json()``): salted SHA-256 hashes of the expected value
rounded to 2, 3 and 4 decimals (:func:`digest`), never the value.
A :class:`Value` may list :class:`Mistake` s: wrong values a common mistake gives (dividing by
the relevant documents retrieved, a reversed ranking, rounding early, log base 10), shipped
hashed the same way, each with the hint the self-check prints when an answer matches it.

Marks are all or nothing unless the key declares partial credit: ``Value(..., partial={2:
0.5})`` gives half the points to an answer right to 2 decimals only, ``Function(...,
partial="per-case")`` shares the points among the cases (public and hidden) the function
passes. The public form carries the rule, so that the self-check can say it.
"""

from __future__ import annotations

import importlib
import json
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .digests import (  # noqa: F401 - also their address for the callers
    digest,
    matches,
    output_digest,
    precisions,
)
from .plain import points_of, points_text  # noqa: F401 - also their address
from .portable import DEFAULT_ALLOWED, allowed_list
from .spec import (  # noqa: F401 - PER_CASE: also its address for the callers
    PER_CASE,
    ChoiceSpec,
    FunctionSpec,
    OutputMistake,
    QuestionSpec,
    ValueMistake,
    ValueSpec,
)

CHECKS_PATH = Path(__file__).parent.parent / "data" / "exercises" / "checks.json"
#: Environment variable naming the file where :func:`check` records answers while grading.
ANSWER_LOG = "COURSEKIT_ANSWER_LOG"
PASSED = "passed"
DECIMALS = (4, 3, 2)
TOLERANCE = 1e-6
#: Wrong letters the self-check judges per multiple-choice question (:class:`Choice`).
DEFAULT_ATTEMPTS = 2
#: Seconds a student's function may run on one case, in the grader's judge and in check().
CASE_SECONDS = 2


# --------------------------------------------------------------------------------------------
# Questions of an answer key (lecturer side) and their public form (what students install)


@dataclass(frozen=True)
class Mistake:
    """A wrong answer that a common mistake gives, and the hint to print when it is given.

    ``value`` is computed by the key from its own data (same type and length as the expected
    value); the hint says what the mistake is, never the expected value.
    """

    value: Any
    hint: str

    def __post_init__(self) -> None:
        if not isinstance(self.hint, str) or not self.hint.strip():
            raise ValueError("Mistake: hint must be a non-empty text")


@dataclass
class Value:
    """A question whose answer is a number, a whole number, a list of them, or a list of ids.

    ``expected`` is the value in clear; only :meth:`public` (hashes) is shipped to students.
    """

    qid: str
    expected: Any
    points: float = 1.0
    low: float | None = None
    high: float | None = None
    hint: str = ""
    decimals: int = 4
    mistakes: Sequence[Mistake] = ()
    #: compare to ``decimals`` significant digits, not decimal places (for values such as
    #: p-values, which can be far below 10**-decimals)
    significant: bool = False
    #: partial credit: ``{2: 0.5}`` gives half the points to an answer right to 2 decimals (or
    #: significant digits) only; None: all or nothing
    partial: Mapping[int, float] | None = None

    def __post_init__(self) -> None:
        if self.partial is not None:
            self.partial = _checked_partial(self)

    def kind(self) -> str:
        return _kind(self.expected)

    def public(self, chapter: str) -> ValueSpec:
        salt = f"{chapter}:{self.qid}"
        return ValueSpec(
            qid=self.qid,
            kind=self.kind(),
            points=self.points,
            salt=salt,
            hint=self.hint,
            decimals=self.decimals,
            significant=bool(self.significant),
            partial=dict(sorted(self.partial.items())) if self.partial else None,
            low=self.low,
            high=self.high,
            **self._hashed(salt, self.expected),
            mistakes=tuple(
                ValueMistake(hint=m.hint, **self._hashed(f"{salt}:mistake{j}", m.value))
                for j, m in enumerate(self._checked_mistakes(chapter))
            ),
        )

    def _hashed(self, salt: str, value: Any) -> dict[str, Any]:
        """Hashes of ``value`` (the expected value or a mistake), each element hashed as the
        expected value's element of the same place is (a float to 2-4 decimals, else exact)."""
        if self.kind() in ("ids", "ints", "floats"):
            values, like = list(value), list(self.expected)
            return {
                "length": len(values),
                "items": tuple(
                    self._hashes(f"{salt}:{i}", v, e)
                    for i, (v, e) in enumerate(zip(values, like, strict=True))
                ),
            }
        return {"hashes": self._hashes(salt, value, self.expected)}

    def _checked_mistakes(self, chapter: str) -> list[Mistake]:
        """The mistakes, refused (ValueError naming key and question) when one has another
        kind or length than the expected value, or equals it."""
        where = f"key {chapter}, question {self.qid}"
        kind, e = self.kind(), self.expected
        for j, m in enumerate(self.mistakes):
            if not isinstance(m, Mistake):
                raise TypeError(f"{where}: mistakes[{j}] is not a Mistake")
            mk = _kind(m.value)
            if mk != kind and {mk, kind} not in ({"int", "float"}, {"ints", "floats"}):
                raise ValueError(f"{where}: mistake {j} is {mk}, the expected value is {kind}")
            if kind in ("ids", "ints", "floats") and len(m.value) != len(self.expected):
                raise ValueError(f"{where}: mistake {j} has not the expected value's length")
            if _finest(self._hashed("same", m.value)) == _finest(self._hashed("same", e)):
                raise ValueError(
                    f"{where}: mistake {j} ({m.hint!r}) equals the expected value "
                    f"(to {self.decimals} decimals): the student could never see its hint"
                )
        return list(self.mistakes)

    def _hashes(self, salt: str, value: Any, like: Any) -> dict[str, str]:
        if isinstance(like, float) and isinstance(value, numbers.Real):
            value = float(value)
            hashes = {}
            for d in (d for d in DECIMALS if d <= self.decimals):
                hashes[str(d)] = digest(salt, value, d, self.significant)
                hair = abs(value) * 1e-9 if self.significant else 1e-9
                above = digest(salt, value + hair, d, self.significant)
                below = digest(salt, value - hair, d, self.significant)
                if above != below:  # on a tie: both roundings are right
                    hashes[f"{d}~"] = above if above != hashes[str(d)] else below
            return hashes
        return {"0": digest(salt, value, 0, exact=self.kind() == "ids")}  # ids: case kept


def _checked_partial(question: Value) -> dict[int, float]:
    """A :class:`Value`'s ``partial``, refused (ValueError naming the question) unless it maps
    fewer decimals than asked, among those hashed, to a share of the points between 0 and 1
    (excluded), for a question whose answer is a number or a list of numbers."""
    where = f"Value {question.qid}: partial={question.partial!r:.60}"
    if question.kind() not in ("float", "floats"):
        raise ValueError(f"{where}: partial credit to fewer decimals needs a float answer")
    if not isinstance(question.partial, Mapping) or not question.partial:
        raise ValueError(f"{where}: give a dict {{decimals: share of the points}}, e.g. {{2: 0.5}}")
    finest = min(question.decimals, max(DECIMALS))
    below = sorted(d for d in DECIMALS if d < finest)
    checked = {}
    for decimals, share in question.partial.items():
        if isinstance(decimals, bool) or decimals not in below:
            fewer = ", ".join(map(str, below))
            raise ValueError(
                f"{where}: {decimals!r} decimals: partial credit is for {fewer} decimals (fewer "
                f"than the {finest} asked)"
                if below
                else f"{where}: no fewer decimals than the {finest} asked are checked"
            )
        if isinstance(share, bool) or not isinstance(share, numbers.Real) or not 0 < share < 1:
            raise ValueError(
                f"{where}: the share for {decimals} decimals must lie between 0 and 1 (excluded),"
                f" got {share!r}"
            )
        checked[int(decimals)] = float(share)
    return checked


def _finest(hashed: dict[str, Any]) -> list[str]:
    """The hash to the most decimals of each element (what decides "passed")."""
    items = hashed.get("items", [hashed.get("hashes", {})])
    return [h[str(max(precisions(h)))] for h in items]


def distinct_mistakes(expected: Any, *mistakes: Mistake, decimals: int = 4) -> list[Mistake]:
    """The ``mistakes`` of the expected value's length whose value differs from ``expected`` and
    from every mistake kept before it, to ``decimals`` decimals, as the self-check compares them.

    A student's own data (a variant) can make a slip harmless: its value is then the right one,
    which :class:`Value` refuses. A key that draws its data passes its mistakes through this.

    >>> kept = distinct_mistakes(0.5, Mistake(0.5, "same"), Mistake(0.25, "a"), Mistake(0.25, "b"))
    >>> [m.hint for m in kept]
    ['a']
    """
    probe = Value("probe", expected, decimals=decimals)
    seen, kept = [_finest(probe._hashed("same", expected))], []
    for m in mistakes:
        if isinstance(expected, (list, tuple)) and len(m.value) != len(expected):
            continue  # drawn data changed the length: the self-check says "wrong length" first
        finest = _finest(probe._hashed("same", m.value))
        if finest not in seen:
            seen.append(finest)
            kept.append(m)
    return kept


def without_harmless_mistakes(questions: Sequence[Any]) -> list[Any]:
    """``questions`` with each :class:`Value`'s mistakes passed through
    :func:`distinct_mistakes` (to the question's decimals): what a key that draws its data
    returns from ``generate(rng)``."""
    for q in questions:
        if isinstance(q, Value) and q.mistakes:
            q.mistakes = distinct_mistakes(q.expected, *q.mistakes, decimals=q.decimals)
    return list(questions)


def _kind(e: Any) -> str:
    """The kind of an expected value: float, int, text, floats, ints or ids."""
    if isinstance(e, str):
        return "text"
    if isinstance(e, (list, tuple)):
        if all(isinstance(x, str) for x in e):
            return "ids"
        if all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in e):
            return "ints"
        return "floats"
    if isinstance(e, numbers.Integral) and not isinstance(e, bool):
        return "int"
    return "float"


@dataclass
class Choice:
    """A multiple-choice question: the answer is one letter among ``options``.

    The self-check says right or wrong for ``attempts`` different wrong letters (default: 2,
    or 1 with two options); after them it only says where to read (``hint``). The grader
    ignores attempts.
    """

    qid: str
    expected: str
    options: str = "abcd"
    points: float = 1.0
    hint: str = ""
    attempts: int | None = None

    def public(self, chapter: str) -> ChoiceSpec:
        salt = f"{chapter}:{self.qid}"
        if self.expected not in self.options:
            raise ValueError(f"{self.qid}: {self.expected!r} is not among {self.options!r}")
        attempts = self.attempts
        if attempts is None:
            attempts = min(DEFAULT_ATTEMPTS, len(self.options) - 1)
        if isinstance(attempts, bool) or not isinstance(attempts, int):
            raise TypeError(f"{self.qid}: attempts must be a whole number")
        if not 1 <= attempts < len(self.options):
            raise ValueError(
                f"{self.qid}: attempts must lie between 1 and {len(self.options) - 1} "
                f"(fewer than the {len(self.options)} options), got {attempts}"
            )
        return ChoiceSpec(
            attempts=attempts,
            qid=self.qid,
            kind="choice",
            points=self.points,
            salt=salt,
            options=tuple(self.options),
            hint=self.hint,
            hashes={"0": digest(salt, self.expected, 0)},
        )


@dataclass
class Function:
    """A function to write without coursekit, judged against ``reference`` on inputs.

    ``reference`` is ``"module:function"`` of coursekit; ``cases`` are ``(label, args)`` pairs
    shipped with the self-check; ``hidden`` are more pairs only the grader uses. ``mistakes``
    are :class:`Mistake` s whose value is a function of the key giving a typical wrong output
    (dividing by the relevant documents retrieved ...): its outputs on the cases are shipped
    hashed, and a student's function giving one of them on a failing case gets its hint.
    ``allowed`` are the top-level packages the function may import besides the standard
    library (the judge refuses any other; default: numpy only, so that the measure is written,
    not taken from scipy or scikit-learn); it is public, so that the self-check says the same.
    """

    qid: str
    name: str
    reference: str
    cases: Sequence[tuple[str, Sequence[Any]]]
    hidden: Sequence[tuple[str, Sequence[Any]]] = field(default_factory=list)
    points: float = 2.0
    hint: str = ""
    mistakes: Sequence[Mistake] = ()
    allowed: Sequence[str] = DEFAULT_ALLOWED
    #: partial credit: ``"per-case"`` (:data:`PER_CASE`) shares the points equally among the
    #: cases, public and hidden, and gives those of the cases passed; None: all or nothing
    partial: str | None = None

    def __post_init__(self) -> None:
        if self.partial is not None and self.partial != PER_CASE:
            raise ValueError(
                f"Function {self.qid}: partial must be None (all or nothing) or {PER_CASE!r}, "
                f"got {self.partial!r:.40}"
            )
        if self.partial == PER_CASE and not self.cases:
            raise ValueError(f"Function {self.qid}: partial={PER_CASE!r} needs public cases")

    def case_count(self) -> int:
        """How many cases the grader tries: public and hidden."""
        return len(self.cases) + len(self.hidden)

    def public(self, chapter: str) -> FunctionSpec:
        per_case = self.partial == PER_CASE  # the rule, and how many cases share the points
        return FunctionSpec(
            qid=self.qid,
            kind="function",
            points=self.points,
            name=self.name,
            reference=self.reference,
            hint=self.hint,
            cases=tuple((label, list(args)) for label, args in self.cases),
            allowed=tuple(allowed_list(self.allowed, f"key {chapter}, question {self.qid}")),
            partial=PER_CASE if per_case else None,
            hidden_cases=len(self.hidden) if per_case else None,
            salt=f"{chapter}:{self.qid}" if self.mistakes else None,
            mistakes=tuple(
                OutputMistake(hint=m.hint, outputs=tuple(self._outputs(chapter, j, m)))
                for j, m in enumerate(self.mistakes)
            ),
        )

    def _outputs(self, chapter: str, j: int, mistake: Mistake) -> list[str]:
        """Hashes of ``mistake``'s outputs on the public cases; refused (ValueError naming key
        and question) when it is no function or agrees with the reference on every case."""
        where = f"key {chapter}, question {self.qid}: mistake {j}"
        if not isinstance(mistake, Mistake) or not callable(mistake.value):
            raise TypeError(f"{where}: a Function's mistake is Mistake(a function, hint)")
        module, _, name = self.reference.partition(":")
        reference = getattr(importlib.import_module(module), name)
        hashes, differs = [], False
        for i, (_, args) in enumerate(self.cases):
            got = _call(mistake.value, args)
            differs = differs or output_digest("same", got) != output_digest(
                "same", _call(reference, args)
            )
            hashes.append(output_digest(f"{chapter}:{self.qid}:mistake{j}:{i}", got))
        if not differs:
            raise ValueError(f"{where} ({mistake.hint!r}) equals the expected output on every case")
        return hashes


def _call(func: Any, args: Sequence[Any]) -> Any:
    """``func`` on a fresh copy of ``args``: its output, or the exception's name."""
    try:
        return func(*json.loads(json.dumps(list(args))))
    except Exception as error:  # noqa: BLE001 - a mistaken function may raise
        return f"raised {type(error).__name__}"


Question = Value | Choice | Function
