"""Measure names, as in ir_measures: ``AP``, ``P@10``, ``nDCG@10``, ``RR`` ...

:func:`parse_measure` turns a name into a :class:`Measure` that computes the value for one query
with the readable functions of :mod:`coursekit.ranked`, :mod:`coursekit.graded` and
:mod:`coursekit.recall`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .measures import graded, ranked
from .measures import recall_oriented as recall

__all__ = ["Measure", "parse_measure", "known_measures"]


@dataclass(frozen=True)
class Measure:
    """A measure for one query: ``measure(rels, n_relevant, judged_grades)``."""

    name: str  #: canonical name, e.g. "P@10"
    family: str  #: "P"
    cutoff: int | float | None  #: 10
    description: str
    compute: Callable[..., float] = field(repr=False, compare=False)

    def __call__(self, rels: np.ndarray, n_relevant: int, judged: np.ndarray, **options) -> float:
        return float(self.compute(rels, n_relevant, judged, self.cutoff, **options))


def _ap(rels, n, judged, cutoff, **_):
    return ranked.average_precision(rels, n)


def _p(rels, n, judged, k, **_):
    return ranked.precision_at(rels, k)


def _r(rels, n, judged, k, **_):
    return ranked.recall_at(rels, k, n)


def _rprec(rels, n, judged, cutoff, **_):
    return ranked.r_precision(rels, n)


def _rr(rels, n, judged, cutoff, **_):
    return ranked.reciprocal_rank(rels)


def _ndcg(rels, n, judged, k, ndcg_variant="trec", **_):
    return graded.ndcg(rels, k=k, ideal=judged, variant=ndcg_variant)


def _iprec(rels, n, judged, level, **_):
    return ranked.interpolated_precision(rels, n, levels=[level])[0]


def _pres(rels, n, judged, n_max, **_):
    return recall.pres(rels, n, n_max)


def _mor(rels, n, judged, n_max, **_):
    return recall.mor(rels, n, n_max)


def _num_ret(rels, n, judged, cutoff, **_):
    return float(len(rels))


def _num_rel(rels, n, judged, cutoff, **_):
    return float(n)


def _num_rel_ret(rels, n, judged, cutoff, **_):
    return float(np.count_nonzero(np.asarray(rels) >= 1))


# family: (parameter: "none" | "optional" | "int" | "level", function, description)
_FAMILIES: dict[str, tuple[str, Callable[..., float], str]] = {
    "AP": ("none", _ap, "average precision"),
    "P": ("int", _p, "precision at rank k (P@k)"),
    "R": ("int", _r, "recall at rank k (R@k)"),
    "Rprec": ("none", _rprec, "R-precision"),
    "RR": ("none", _rr, "reciprocal rank of the first relevant document"),
    "nDCG": ("optional", _ndcg, "normalised discounted cumulated gain (nDCG, nDCG@k)"),
    "IPrec": ("level", _iprec, "interpolated precision at a recall level (IPrec@0.3)"),
    "PRES": ("int", _pres, "PRES with N_max documents (PRES@100)"),
    "MOR": ("int", _mor, "MOR with N_max documents (MOR@100)"),
    "NumRet": ("none", _num_ret, "number of documents retrieved"),
    "NumRel": ("none", _num_rel, "number of relevant documents of the query"),
    "NumRelRet": ("none", _num_rel_ret, "number of relevant documents retrieved"),
}

_NAME = re.compile(r"^(?P<family>[A-Za-z]+)(?:@(?P<param>[0-9]+(?:\.[0-9]+)?))?$")


def known_measures() -> str:
    """One line per measure family: the forms :func:`parse_measure` accepts."""
    forms = {"none": "{f}", "optional": "{f}, {f}@k", "int": "{f}@k", "level": "{f}@r"}
    return "\n".join(
        f"{forms[kind].format(f=family):<16} {description}"
        for family, (kind, _, description) in _FAMILIES.items()
    )


def _unknown(name: str, why: str) -> ValueError:
    return ValueError(f"unknown measure {name!r} ({why}). Known measures:\n{known_measures()}")


def parse_measure(name: str) -> Measure:
    """The :class:`Measure` called ``name``; an unknown name is a ``ValueError`` listing the
    known ones.

    >>> parse_measure("P@10")
    Measure(name='P@10', family='P', cutoff=10, description='precision at rank k (P@k)')
    >>> parse_measure("nDCG").cutoff is None
    True
    """
    if not isinstance(name, str):
        raise TypeError(f"a measure name is a string such as 'AP' or 'P@10', got {name!r}")
    match = _NAME.match(name.strip())
    if not match or match["family"] not in _FAMILIES:
        close = [f for f in _FAMILIES if match and f.lower() == match["family"].lower()]
        hint = f"did you mean {close[0]!r}?" if close else "no such family"
        raise _unknown(name, hint)
    family, param = match["family"], match["param"]
    kind, function, description = _FAMILIES[family]
    cutoff: int | float | None = None
    if kind == "none" and param is not None:
        raise _unknown(name, f"{family} takes no @ parameter")
    if kind in ("int", "level") and param is None:
        raise _unknown(name, f"{family} needs a parameter, e.g. {family}@10")
    if param is not None:
        if kind == "level":
            cutoff = float(param)
            if not 0 <= cutoff <= 1:
                raise _unknown(name, "a recall level is between 0 and 1")
        else:
            if "." in param or int(param) <= 0:
                raise _unknown(name, "the cut-off must be a positive integer")
            cutoff = int(param)
    canonical = family if cutoff is None else f"{family}@{param}"
    return Measure(canonical, family, cutoff, description, function)
