"""``evaluate_diversity()``: diversity measures of a run, query by query, against subtopic
judgments (a TREC Web track diversity qrels file, ``topic subtopic doc_id grade``).

The names are ir_measures' (``alpha_nDCG@20``, ``ERR_IA@20``, ``StRecall@10`` ...;
``nDCG_IA@20``, which ir_measures lacks, in its style); the measures are those of
:mod:`coursekit.measures.diversity` and :mod:`coursekit.measures.intent_aware`, which follow
ndeval (v4.5, the TREC Web track's tool, as pyndeval and ir_measures run it):

* each query's documents are ordered by score, descending, ties by doc id descending (as
  trec_eval and ``ndeval -traditional`` do; ndeval without that flag follows the run's rank
  column, and pyndeval, hence ir_measures, breaks ties by doc id *ascending*);
* α and β are 0.5 unless the name sets them: ``alpha_nDCG(alpha=0.3)@10``,
  ``NRBP(alpha=0.5, beta=0.8)``;
* a grade >= 1 is relevant to its subtopic; the subtopics of a query are those with a relevant
  document, weighted equally; a query without one scores 0 (for nNRBP ndeval gives NaN);
* the queries evaluated are those of both the run and the qrels, or, with
  ``missing_as_zero=True`` (ndeval -c), every query of the qrels;
* a cut-off k may be any positive integer (ndeval computes k <= 20 only); ndeval's ERR-IA@1
  is its numerator alone (see :func:`coursekit.measures.diversity.err_ia`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from ..measures import diversity, intent_aware
from ..measures.diversity import check_alpha, judged_subtopics
from ..registry import MAX_CUTOFF, Measure, parse_measure
from ..trec import as_run_frame, sort_run, subtopic_qrels_to_dict
from ..validation import check_bool
from .encode import evaluated_queries
from .evaluate import Evaluation, measure_list

__all__ = ["evaluate_diversity", "known_diversity_measures", "parse_diversity_measure"]

# ir_measures' name -> (function, takes a cut-off @k, its parameters, description)
_MEASURES: dict[str, tuple[Callable[..., float], bool, tuple[str, ...], str]] = {
    "alpha_nDCG": (diversity.alpha_ndcg, True, ("alpha",), "alpha-nDCG, greedy ideal (ndeval)"),
    "ERR_IA": (diversity.err_ia, True, ("alpha",), "intent-aware ERR (ndeval's ERR-IA)"),
    "nERR_IA": (diversity.nerr_ia, True, ("alpha",), "ERR-IA over that of the ideal ranking"),
    "NRBP": (diversity.nrbp, False, ("alpha", "beta"), "novelty- and rank-biased precision"),
    "nNRBP": (diversity.nnrbp, False, ("alpha", "beta"), "NRBP over that of the ideal ranking"),
    "nDCG_IA": (intent_aware.ndcg_ia, True, (), "intent-aware nDCG (not in ndeval)"),
    "P_IA": (intent_aware.precision_ia, True, (), "intent-aware precision"),
    "AP_IA": (intent_aware.ap_ia, False, (), "intent-aware average precision (MAP-IA)"),
    "StRecall": (intent_aware.subtopic_recall, True, (), "subtopic recall (S-recall, strec)"),
}
_DEFAULT = 0.5  # alpha and beta, as in ndeval and ir_measures
_NAME = re.compile(r"^(?P<family>[A-Za-z_]+)(?:\((?P<args>[^()]*)\))?(?:@(?P<k>[0-9]+))?$")
_ARGUMENT = re.compile(r"^\s*(?P<key>[A-Za-z_]+)\s*=\s*(?P<value>[^\s=]+)\s*$")


def known_diversity_measures() -> str:
    """One line per diversity measure: the forms :func:`parse_diversity_measure` accepts.

    >>> print(known_diversity_measures().splitlines()[0])
    alpha_nDCG@k, alpha_nDCG(alpha=0.5)@k   alpha-nDCG, greedy ideal (ndeval)
    """
    lines = []
    for family, (_function, takes_k, keys, description) in _MEASURES.items():
        cut = "@k" if takes_k else ""
        form = f"{family}{cut}"
        if keys:
            form += f", {family}({', '.join(f'{key}=0.5' for key in keys)}){cut}"
        lines.append(f"{form:<38} {description}")
    return "\n".join(lines)


def _unknown(name: str, why: str) -> ValueError:
    return ValueError(
        f"unknown diversity measure {name!r} ({why}). Known diversity measures:\n"
        f"{known_diversity_measures()}"
    )


def _per_query(
    function: Callable[..., float],
    params: dict,
    ranking: Any,
    _n: Any,
    judgments: Any,
    k: Any,
    **_options: Any,
) -> float:
    """The measure of one query: ``measure(ranking, None, {doc: {subtopic: grade}})`` (the
    options of :func:`coursekit.evaluate`'s measures do not concern it)."""
    return function(ranking, judgments, *([] if k is None else [k]), **params)


def _parameters(name: str, family: str, args: str, keys: tuple[str, ...]) -> dict[str, float]:
    """``alpha=0.3, beta=0.8`` as {"alpha": 0.3, "beta": 0.8}, each a number in [0, 1]."""
    if not keys:
        raise _unknown(name, f"{family} takes no (...) parameter")
    given: dict[str, float] = {}
    for part in args.split(","):
        found = _ARGUMENT.match(part)
        if not found or found["key"] not in keys or found["key"] in given:
            allowed = ", ".join(f"{key}=0.5" for key in keys)
            raise _unknown(name, f"write its parameters as {family}({allowed})")
        try:
            value = float(found["value"])
        except ValueError:
            raise _unknown(name, f"{found['key']} must be a number") from None
        given[found["key"]] = check_alpha(value, f"{name!r}: {found['key']}")
    return given


def parse_diversity_measure(name: str | Measure) -> Measure:
    """The diversity measure called ``name`` (ir_measures' names), as a
    :class:`coursekit.registry.Measure` computed for one query by
    ``measure(ranking, None, {doc: {subtopic: grade}})``; an unknown name is a ``ValueError``
    listing the known ones.

    >>> m = parse_diversity_measure("alpha_nDCG(alpha=0.5)@010")
    >>> m.name, m.family, m.param
    ('alpha_nDCG@10', 'alpha_nDCG', 10)
    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}}
    >>> parse_diversity_measure("StRecall@1")(["d2", "d1"], None, judgments)
    0.5
    """
    if isinstance(name, Measure) and name.family in _MEASURES:
        return name
    if not isinstance(name, str):
        raise TypeError(
            f"a diversity measure name is a string such as 'alpha_nDCG@10', got {name!r}"
        )
    match = _NAME.match(name.strip())
    if not match or match["family"] not in _MEASURES:
        try:
            parse_measure(name)
        except ValueError:
            raise _unknown(name, "no such measure") from None
        raise _unknown(name, "an ordinary measure: coursekit.evaluate computes it")
    family = match["family"]
    function, takes_k, keys, description = _MEASURES[family]
    k: int | None = None
    if match["k"] is not None:
        if not takes_k:
            raise _unknown(name, f"{family} takes no @ cut-off")
        k = int(match["k"])
        if not 1 <= k <= MAX_CUTOFF:
            raise _unknown(name, f"the cut-off must be a positive integer, at most {MAX_CUTOFF}")
    elif takes_k:
        raise _unknown(name, f"{family} needs a cut-off, e.g. {family}@10")
    params = {} if match["args"] is None else _parameters(name, family, match["args"], keys)
    shown = ", ".join(
        f"{key}={params[key]!r}" for key in keys if params.get(key, _DEFAULT) != _DEFAULT
    )
    canonical = family + (f"({shown})" if shown else "") + ("" if k is None else f"@{k}")
    compute = partial(_per_query, function, params)
    return Measure(canonical, family, k, None if k is None else "k", description, compute)


def _measures(measures: Any) -> list[Measure]:
    return measure_list(measures, parse_diversity_measure, ("alpha_nDCG@10", "ERR_IA@20"))


def evaluate_diversity(
    run: Any,
    subtopic_qrels: Any,
    measures: str | Sequence[str | Measure] = ("alpha_nDCG@20", "ERR_IA@20", "StRecall@20"),
    *,
    missing_as_zero: bool = False,
) -> Evaluation:
    """Evaluate a run against subtopic judgments: each diversity measure for each query, and
    their means (the same :class:`~coursekit.evaluation.Evaluation` as :func:`evaluate` gives).

    ``run``: a DataFrame, a path to a TREC run file or a dict ``{query_id: {doc_id: score}}``;
    ``subtopic_qrels``: a path to a diversity qrels file (``topic subtopic doc_id grade``), a
    DataFrame (query_id, subtopic_id, doc_id, relevance) or a dict ``{query_id: {doc_id:
    {subtopic_id: grade}}}``; ``measures``: names such as ``"alpha_nDCG@20"``, ``"ERR_IA@20"``,
    ``"nERR_IA@20"``, ``"nDCG_IA@20"``, ``"P_IA@10"``, ``"StRecall@10"``, ``"AP_IA"``,
    ``"NRBP"``, ``"nNRBP"`` (see :func:`known_diversity_measures`). The conventions are
    ndeval's (see the module's docstring).

    >>> run = {"q1": {"d1": 2.0, "d2": 3.0, "d3": 1.0}}
    >>> qrels = {"q1": {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}}}
    >>> evaluate_diversity(run, qrels, ["StRecall@1", "StRecall@2"]).table()
              StRecall@1  StRecall@2
    query_id
    q1               0.5         1.0
    """
    missing_as_zero = check_bool(missing_as_zero, "missing_as_zero")
    parsed = _measures(measures)
    judgments = subtopic_qrels_to_dict(subtopic_qrels)
    ranked = sort_run(as_run_frame(run))
    rankings: dict[str, list[str]] = {}
    ids = zip(ranked["query_id"].astype(str), ranked["doc_id"].astype(str), strict=True)
    for query, doc in ids:  # in rank order
        rankings.setdefault(query, []).append(doc)
    present = pd.Index(list(rankings)), pd.Index(list(judgments))
    queries = evaluated_queries(*present, missing_as_zero)
    values = {m.name: np.zeros(len(queries)) for m in parsed}
    for i, query in enumerate(queries):
        judged = judged_subtopics(judgments[query])  # checked once for every measure
        for m in parsed:
            values[m.name][i] = m(rankings.get(query, []), None, judged)
    names = [m.name for m in parsed]
    tidy = pd.DataFrame(
        {
            "query_id": pd.array(np.tile(np.asarray(queries, dtype=object), len(names)), "str"),
            "measure": pd.array(np.repeat(np.asarray(names, dtype=object), len(queries)), "str"),
            "value": np.concatenate([values[name] for name in names]),
        }
    )
    return Evaluation(per_query=tidy, mean=pd.DataFrame(values)[names].mean(axis=0))
