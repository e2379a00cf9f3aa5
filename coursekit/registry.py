"""Measure names, as in ir_measures: ``AP``, ``P@10``, ``nDCG@10``, ``RR`` ...

:func:`parse_measure` turns a name into a :class:`Measure`: the value for one query with the
readable functions of :mod:`coursekit.measures`, and, for most families, for every query at once
with numpy (the form :func:`coursekit.evaluate` uses; tested equal to the readable one). Adding
a measure is one place: its per-query function, its vectorised one (optional) and one line in
``_FAMILIES``. Without a vectorised one (Bpref, infAP, RBP, ERR, IPrec, PRES, MOR),
:func:`coursekit.evaluate` computes it query by query; ``known_measures()`` marks them so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .i18n import N_, _, speaking
from .measures import graded, incomplete, interpolation, ranked, user
from .measures import recall_oriented as recall
from .measures.ndcg_every import ndcg_every
from .measures.rankings import Rankings, ranks_in_blocks
from .validation import as_binary, as_grades, check_n_relevant

__all__ = [
    "Measure",
    "Rankings",
    "parse_measure",
    "known_measures",
    "PARAM_KINDS",
    "DOC_FAMILIES",
    "DIVERSITY_FAMILIES",
    "OPTIONS",
    "ranks_in_blocks",
]


#: What :attr:`Measure.param` holds, by ``param_kind``.
PARAM_KINDS = {
    "k": "a rank cut-off: only the top k documents count (P@10, R@100, nDCG@10, ERR@20)",
    "n_max": "N_max, the number of documents a user would examine (PRES@100, MOR@100)",
    "level": "a recall level between 0 and 1 (IPrec@0.3)",
    "p": "RBP's persistence p, strictly between 0 and 1 (RBP(p=0.8))",
}


@dataclass(frozen=True)
class Measure:
    """A measure for one query, ``measure(rels, n_relevant, judged_grades)``, and, when it has
    one, for every query at once, ``measure.every(rankings)`` (the same numbers, vectorised).
    ``param`` is its parameter (None if it has none), ``param_kind`` what that is: ``"k"``,
    ``"n_max"``, ``"level"`` or ``"p"`` (see :data:`PARAM_KINDS`); ``cutoff``, its old name."""

    name: str  #: canonical name, e.g. "P@10"
    family: str  #: "P"
    param: int | float | None  #: 10
    param_kind: str | None  #: "k"
    description: str
    compute: Callable[..., float] = field(repr=False, compare=False)
    vectorised: Callable[..., np.ndarray] | None = field(default=None, repr=False, compare=False)

    @property
    def cutoff(self) -> int | float | None:
        """The former name of :attr:`param` (whatever its kind), kept so old code runs."""
        return self.param

    def __call__(self, rels: np.ndarray, n_relevant: int, judged: np.ndarray, **options) -> float:
        """The value for one query; ``options`` are among :data:`OPTIONS` (a measure ignores
        those it does not use)."""
        if options and not OPTIONS.issuperset(options):
            _refuse_options(self.name, options)
        return float(self.compute(rels, n_relevant, judged, self.param, **options))

    def every(self, rankings: Rankings, **options) -> np.ndarray:
        """The value for every query of ``rankings`` (needs a vectorised form)."""
        if self.vectorised is None:
            raise ValueError(f"{self.name} has no vectorised form: compute it query by query")
        if not isinstance(rankings, Rankings):
            raise TypeError(
                f"rankings must be a Rankings (Rankings.build(...) checks one built by hand), "
                f"got {type(rankings).__name__}"
            )
        if options and not OPTIONS.issuperset(options):
            _refuse_options(self.name, options)
        return np.asarray(self.vectorised(rankings, self.param, **options), dtype=float)


#: The options a measure may be given (what :func:`coursekit.evaluate` passes to every one):
#: nDCG's formula, ERR's maximum grade, and the doc ids of the ranking and of the judgments
#: (Bpref, infAP). A measure ignores those it does not use; any other name is refused.
OPTIONS = frozenset({"ndcg_variant", "max_grade", "docs", "judged_docs"})


def _refuse_options(measure: str, options: dict) -> None:
    import difflib

    unknown = sorted(set(options) - OPTIONS)
    close = difflib.get_close_matches(unknown[0], OPTIONS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise TypeError(
        f"{measure} got the unknown option {unknown[0]!r}{hint}: "
        f"the options are {', '.join(sorted(OPTIONS))}"
    )


#: The families whose per-query function tells an unjudged document from a judged one by its
#: doc id (``docs``, ``judged_docs``): :func:`coursekit.evaluate` keeps doc codes for them.
DOC_FAMILIES = frozenset({"Bpref", "infAP"})

#: The diversity measures (ir_measures' names): they need subtopic judgments, so
#: :func:`coursekit.evaluate_diversity` computes them (and parses their names), not evaluate().
DIVERSITY_FAMILIES = frozenset(
    {"alpha_nDCG", "ERR_IA", "nERR_IA", "nDCG_IA", "P_IA", "StRecall", "AP_IA", "NRBP", "nNRBP"}
)


# Each family: its per-query function (rels, n_relevant, judged grades, param) and, side by
# side, its vectorised one (Rankings, param), or None when only the per-query one exists.
def _ap(rels, n, judged, _param, **_):
    return ranked.average_precision(rels, n)


def _ap_every(r: Rankings, _param, **_):
    return r.over_relevant(r.per_query(r.relevant_so_far / r.hit_rank, r.hit_query))


def _p(rels, n, judged, k, **_):
    return ranked.precision_at(rels, k)


def _p_every(r: Rankings, k, **_):
    return r.hits_per_query(r.hit_rank <= k) / k


def _r(rels, n, judged, k, **_):
    return ranked.recall_at(rels, k, n)


def _r_every(r: Rankings, k, **_):
    return r.over_relevant(r.hits_per_query(r.hit_rank <= k))


def _rprec(rels, n, judged, _param, **_):
    return ranked.r_precision(rels, n)


def _rprec_every(r: Rankings, _param, **_):
    return r.over_relevant(r.hits_per_query(r.hit_rank <= r.n_relevant[r.hit_query]))


def _rr(rels, n, judged, _param, **_):
    return ranked.reciprocal_rank(rels)


def _rr_every(r: Rankings, _param, **_):
    value = np.zeros(r.n_queries)
    first = r.relevant_so_far == 1  # each query's first relevant row
    value[r.hit_query[first]] = 1.0 / r.hit_rank[first]
    return value


def _ndcg(rels, n, judged, k, ndcg_variant="trec", **_):
    return graded.ndcg(rels, k=k, ideal=judged, variant=ndcg_variant)


def _iprec(rels, n, judged, level, **_):
    return interpolation.interpolated_precision(rels, n, levels=[level])[0]


def _pres(rels, n, judged, n_max, **_):
    return recall.pres(rels, n, n_max)


def _mor(rels, n, judged, n_max, **_):
    return recall.mor(rels, n, n_max)


def _num_ret(rels, n, judged, _param, **_):
    return float(as_grades(rels).size)


def _num_ret_every(r: Rankings, _param, **_):
    return np.bincount(r.query, minlength=r.n_queries).astype(float)


def _num_rel(rels, n, judged, _param, **_):
    return float(check_n_relevant(n, as_binary(rels)))


def _num_rel_every(r: Rankings, _param, **_):
    return r.n_relevant.copy()


def _num_rel_ret(rels, n, judged, _param, **_):
    return float(np.count_nonzero(as_binary(rels)))


def _num_rel_ret_every(r: Rankings, _param, **_):
    return r.hits_per_query()


def _incomplete_grades(rels, judged, docs=None, judged_docs=None):
    """``(grades, pooled, n_relevant, n_nonrelevant)`` of one query for Bpref and infAP. With
    the doc codes of the ranking and of the judgments (as :func:`coursekit.evaluate` passes
    them), a retrieved document absent from the qrels is unjudged and a negative grade pooled
    (:func:`coursekit.incomplete.judge_incomplete`); else ``rels`` holds ``nan`` if unjudged."""
    judged = judged if isinstance(judged, np.ndarray) else list(judged)  # read once
    n_relevant, n_nonrelevant = incomplete.judgment_counts(judged)  # (checks the grades)
    if docs is None and judged_docs is None:
        grades = incomplete.as_incomplete_grades(rels, "rels")
        return grades, np.zeros(grades.size, dtype=bool), n_relevant, n_nonrelevant
    if docs is None or judged_docs is None:
        raise ValueError("docs and judged_docs go together: give both (or neither)")
    docs, judged_docs, judged = np.asarray(docs), np.asarray(judged_docs), np.asarray(judged)
    ranked = len(rels) if np.ndim(rels) == 1 else incomplete.as_incomplete_grades(rels).size
    for name, ids, size, what in (
        ("docs", docs, ranked, "grades of rels"),
        ("judged_docs", judged_docs, judged.size, "judged grades"),
    ):
        if ids.ndim != 1 or ids.size != size:
            raise ValueError(f"{name} must hold one doc id for each of the {size} {what}")
    qrels_q = dict(zip(judged_docs.tolist(), judged.tolist(), strict=True))
    grades, pooled = incomplete.judge_incomplete(np.asarray(docs).tolist(), qrels_q)
    return grades, pooled, n_relevant, n_nonrelevant


def _bpref(rels, n, judged, _param, docs=None, judged_docs=None, **_):
    grades, _pooled, n_rel, n_nonrel = _incomplete_grades(rels, judged, docs, judged_docs)
    return incomplete.bpref(grades, n_rel, n_nonrel)


def _infap(rels, n, judged, _param, docs=None, judged_docs=None, **_):
    grades, pooled, n_rel, _n_nonrel = _incomplete_grades(rels, judged, docs, judged_docs)
    return incomplete.infap(grades, n_rel, pooled=pooled)


def _rbp(rels, n, judged, p, **_):
    """RBP's value only (binary: grade >= 1 gains 1); its residual (what unjudged documents and
    those below the ranking could add) is given by :func:`coursekit.measures.user.rbp`, not here."""
    return user.rbp(rels, p=p).value


def _err(rels, n, judged, k, max_grade=None, **_):
    """ERR@k; the maximum grade G is ``max_grade``, which :func:`coursekit.evaluate` sets to the
    highest grade in the qrels it was given (at least 1); called alone, the highest grade of
    this query's judgments (at least 1)."""
    if max_grade is None:
        judged = np.asarray(judged, dtype=float)
        max_grade = max(1.0, float(judged.max(initial=1.0)))
    return user.err(rels, max_grade=max_grade, k=k)


@dataclass(frozen=True)
class _Family:
    parameter: str  # "none" | "optional" | "int" | "n_max" | "level" | "persistence" (RBP(p=0.8))
    one: Callable[..., float]  # per query
    every: Callable[..., np.ndarray] | None  # every query at once, or None
    description: str


# One line per measure family (and its two functions above).
_FAMILIES: dict[str, _Family] = {
    "AP": _Family("none", _ap, _ap_every, N_("average precision")),
    "P": _Family("int", _p, _p_every, N_("precision at rank k (P@k)")),
    "R": _Family("int", _r, _r_every, N_("recall at rank k (R@k)")),
    "Rprec": _Family("none", _rprec, _rprec_every, N_("R-precision")),
    "RR": _Family("none", _rr, _rr_every, N_("reciprocal rank of the first relevant document")),
    "nDCG": _Family(
        "optional", _ndcg, ndcg_every, N_("normalised discounted cumulated gain (nDCG, nDCG@k)")
    ),
    "IPrec": _Family(
        "level", _iprec, None, N_("interpolated precision at a recall level (IPrec@0.3)")
    ),
    "PRES": _Family("n_max", _pres, None, N_("PRES with N_max documents (PRES@100)")),
    "MOR": _Family("n_max", _mor, None, N_("MOR with N_max documents (MOR@100)")),
    "NumRet": _Family("none", _num_ret, _num_ret_every, N_("number of documents retrieved")),
    "NumRel": _Family(
        "none", _num_rel, _num_rel_every, N_("number of relevant documents of the query")
    ),
    "NumRelRet": _Family(
        "none", _num_rel_ret, _num_rel_ret_every, N_("number of relevant documents retrieved")
    ),
    "Bpref": _Family("none", _bpref, None, N_("bpref: unjudged documents skipped (trec_eval's)")),
    "infAP": _Family(
        "none", _infap, None, N_("inferred AP (infAP, trec_eval's; pooled = grade < 0)")
    ),
    "RBP": _Family(
        "persistence", _rbp, None, N_("rank-biased precision, binary, value only (RBP(p=0.8))")
    ),
    "ERR": _Family(
        "optional", _err, None, N_("expected reciprocal rank, G = max grade of the qrels (ERR@20)")
    ),
}

# the kind of parameter (Measure.param_kind) of each form of family
_PARAM_KIND = {"optional": "k", "int": "k", "n_max": "n_max", "level": "level", "persistence": "p"}
_DEFAULT_PERSISTENCE = 0.8  # RBP alone is RBP(p=0.8), as in ir_measures

_NAME = re.compile(
    r"^(?P<family>[A-Za-z_]+)(?:\((?P<args>[^()]*)\))?(?:@(?P<param>[0-9]+(?:\.[0-9]+)?))?$"
)
_PERSISTENCE = re.compile(r"^\s*p\s*=\s*(?P<p>[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*$")


def known_measures() -> str:
    """A line per measure family: the forms :func:`parse_measure` accepts (in the language set)."""
    forms = {"none": "{f}", "optional": "{f}, {f}@k", "int": "{f}@k", "level": "{f}@r"}
    forms["n_max"] = "{f}@N"
    forms["persistence"] = "{f}, {f}(p=0.8)"
    return "\n".join(
        f"{forms[spec.parameter].format(f=family):<16} {_(spec.description)}"
        + ("" if spec.every is not None else " " + _("(per query)"))
        for family, spec in _FAMILIES.items()
    )


def _unknown(name: str, why: str) -> ValueError:
    with speaking("en"):  # (an error is said in English, its list of measures too)
        return ValueError(f"unknown measure {name!r} ({why}). Known measures:\n{known_measures()}")


MAX_CUTOFF = 2**31 - 1  #: the largest cut-off (P@k, nDCG@k...): far more than any run ranks


def parse_measure(name: str) -> Measure:
    """The :class:`Measure` called ``name``; an unknown name is a ``ValueError`` listing the
    known ones.

    >>> m = parse_measure("P@10")
    >>> m.name, m.family, m.param, m.param_kind
    ('P@10', 'P', 10, 'k')
    >>> parse_measure("PRES@100").param_kind
    'n_max'
    >>> parse_measure("nDCG").param is None
    True
    >>> parse_measure("P@010").name, parse_measure("IPrec@0.30").name
    ('P@10', 'IPrec@0.3')
    """
    if not isinstance(name, str):
        raise TypeError(f"a measure name is a string such as 'AP' or 'P@10', got {name!r}")
    match = _NAME.match(name.strip())
    if match and match["family"] in DIVERSITY_FAMILIES:
        raise ValueError(
            f"{name!r} is a diversity measure: it needs subtopic judgments, and "
            f"coursekit.evaluate_diversity(run, subtopic_qrels, [{name!r}]) computes it"
        )
    if not match or match["family"] not in _FAMILIES:
        close = [f for f in _FAMILIES if match and f.lower() == match["family"].lower()]
        hint = f"did you mean {close[0]!r}?" if close else "no such family"
        raise _unknown(name, hint)
    family, param = match["family"], match["param"]
    spec = _FAMILIES[family]
    kind = spec.parameter
    param_value: int | float | None = None
    if kind == "persistence":
        return _persistence_measure(name, family, match["args"], param, spec)
    if match["args"] is not None:
        raise _unknown(name, f"{family} takes no (...) parameter")
    if kind == "none" and param is not None:
        raise _unknown(name, f"{family} takes no @ parameter")
    if kind in ("int", "n_max", "level") and param is None:
        raise _unknown(name, f"{family} needs a parameter, e.g. {family}@10")
    if param is not None:
        if kind == "level":
            param_value = float(param)
            if not 0 <= param_value <= 1:
                raise _unknown(name, "a recall level is between 0 and 1")
        else:
            if "." in param or int(param) <= 0:
                raise _unknown(name, "the cut-off must be a positive integer")
            if int(param) > MAX_CUTOFF:
                raise _unknown(name, f"the cut-off must be at most {MAX_CUTOFF}")
            param_value = int(param)
    if param_value is None:
        return Measure(family, family, None, None, spec.description, spec.one, spec.every)
    # one name for one measure: P@010 is P@10, IPrec@0.30 is IPrec@0.3
    canonical = f"{family}@{param_value!r}"
    kind = _PARAM_KIND[kind]
    return Measure(canonical, family, param_value, kind, spec.description, spec.one, spec.every)


def _persistence_measure(
    name: str, family: str, args: str | None, param: str | None, spec: _Family
) -> Measure:
    """``RBP`` or ``RBP(p=0.8)``: p is a probability strictly between 0 and 1."""
    if param is not None:
        raise _unknown(name, f"{family} takes no @ parameter; write {family}(p=0.8)")
    p = _DEFAULT_PERSISTENCE
    if args is not None:
        found = _PERSISTENCE.match(args)
        if not found:
            raise _unknown(name, f"write the persistence as {family}(p=0.8)")
        p = float(found["p"])
    if not 0 < p < 1:
        raise ValueError(
            f"{name!r}: the persistence p of {family} must be strictly between 0 and 1 "
            f"(0.5 impatient, 0.8 average, 0.95 persistent user), got {p!r}"
        )
    return Measure(f"{family}(p={p!r})", family, p, "p", spec.description, spec.one, spec.every)
