"""Interleaving: one list mixing two rankings, and the credit of each click.

Team draft (Radlinski, Kurup & Joachims 2008) and balanced interleaving (Joachims 2002, 2003).
Rankings are sequences of distinct, hashable document ids; click positions are 0-based indices
into the list shown (0 = top). Simulations are in :mod:`coursekit.measures.online`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..validation import check_bool, check_positive_int, check_rng, first_ranks

__all__ = [
    "balanced_interleave",
    "common_prefix",
    "credit_balanced",
    "credit_clicks",
    "team_draft_interleave",
]


def as_ranking(ranking: Any, name: str) -> list:
    """A ranking as a list of distinct, hashable document ids (checked)."""
    if isinstance(ranking, (str, bytes, Mapping)) or not isinstance(ranking, Iterable):
        raise TypeError(
            f"{name} must be a sequence of document ids in rank order, got {type(ranking).__name__}"
        )
    docs = ranking.tolist() if isinstance(ranking, np.ndarray) else list(ranking)
    first_ranks(docs, name)
    return docs


def common_prefix(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """How many top ranks ``a`` and ``b`` share, rank by rank (0 if their first documents
    differ).

    >>> common_prefix(["d1", "d2", "d3"], ["d1", "d2", "d4"])
    2
    """
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _limit(length: Any) -> float:
    return math.inf if length is None else check_positive_int(length, "length")


def team_draft_interleave(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    rng: np.random.Generator,
    length: int | None = None,
    *,
    neutral_prefix: bool = True,
) -> tuple[list, list[str]]:
    """Team-draft interleaving of rankings ``a`` and ``b``: ``(interleaved, teams)``.

    Like captains picking players: the team with fewer picks so far picks next (a coin decides
    when both have as many), and it adds its highest-ranked document not yet in the list.
    ``teams[i]`` is ``"a"`` or ``"b"``: who contributed ``interleaved[i]``. As in the paper the
    list stops when either ranking has no new document left (or at ``length`` documents).
    Every prefix holds as many documents of each team, give or take one.

    The *common prefix* is the top ranks where ``a`` and ``b`` hold the same document, rank by
    rank. With ``neutral_prefix`` (the default) it is shown first, as both rankings show it,
    with team ``"ab"``: a click on it says nothing about which ranking is better, and
    :func:`credit_clicks` counts it for neither. With ``neutral_prefix=False`` the coin gives
    each of its documents to one team, as in the algorithm of Radlinski et al. (2008); a click
    on it is then credited at random, which adds noise and no information. The team draft of
    Lerot (A. Schuth, K. Hofmann, S. Whiteson & M. de Rijke, "Lerot: an online learning to rank
    framework", 2013) likewise leaves the common prefix out of both teams.

    Reference: F. Radlinski, M. Kurup & T. Joachims, "How does clickthrough data reflect
    retrieval quality?", CIKM 2008; O. Chapelle, T. Joachims, F. Radlinski & Y. Yue,
    "Large-scale validation and analysis of interleaved search evaluation", TOIS 2012.

    >>> interleaved, teams = team_draft_interleave(
    ...     ["d1", "d2", "d3"], ["d2", "d4", "d1"], np.random.default_rng(1)
    ... )
    >>> sorted(interleaved[:2]), sorted(teams[:2])
    (['d1', 'd2'], ['a', 'b'])

    Both rankings put d1 first: it is shown first and belongs to neither team.

    >>> team_draft_interleave(["d1", "d2"], ["d1", "d3"], np.random.default_rng(1))[1][0]
    'ab'
    """
    docs_a, docs_b = as_ranking(a, "a"), as_ranking(b, "b")
    rng = check_rng(rng)
    limit = _limit(length)
    neutral_prefix = check_bool(neutral_prefix, "neutral_prefix")
    prefix = common_prefix(docs_a, docs_b) if neutral_prefix else 0
    interleaved: list = docs_a[: min(prefix, limit)]
    teams: list[str] = ["ab"] * len(interleaved)
    shown: set = set(interleaved)
    picks = {"a": 0, "b": 0}
    next_a = next_b = 0
    while len(interleaved) < limit:
        while next_a < len(docs_a) and docs_a[next_a] in shown:
            next_a += 1
        while next_b < len(docs_b) and docs_b[next_b] in shown:
            next_b += 1
        if next_a == len(docs_a) or next_b == len(docs_b):
            break
        if picks["a"] < picks["b"] or (picks["a"] == picks["b"] and rng.random() < 0.5):
            team, doc = "a", docs_a[next_a]
        else:
            team, doc = "b", docs_b[next_b]
        interleaved.append(doc)
        teams.append(team)
        shown.add(doc)
        picks[team] += 1
    return interleaved, teams


def balanced_interleave(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    rng: np.random.Generator,
    length: int | None = None,
) -> list:
    """Balanced interleaving of rankings ``a`` and ``b``.

    A coin decides which ranking starts; then the two rankings take turns, each adding its next
    document unless already shown: the interleaved list alternates between rank k_a of ``a``
    and rank k_b of ``b`` with |k_a − k_b| <= 1. Every prefix of the result is the union of the
    top k_a of ``a`` and the top k_b of ``b`` for some such k_a, k_b. The list stops when either
    ranking is exhausted (or at ``length`` documents). Credit clicks with
    :func:`credit_balanced`.

    Reference: T. Joachims, "Optimizing search engines using clickthrough data", KDD 2002;
    T. Joachims, "Evaluating retrieval performance using clickthrough data", 2003; the loop and
    its stopping rule as written by O. Chapelle, T. Joachims, F. Radlinski & Y. Yue,
    "Large-scale validation and analysis of interleaved search evaluation", TOIS 2012.

    Here the coin lets b start: b's d1, (a's d1 already shown), b's d3, a's d2, b's d4:

    >>> balanced_interleave(["d1", "d2", "d3"], ["d1", "d3", "d4"], np.random.default_rng(1))
    ['d1', 'd3', 'd2', 'd4']
    """
    docs_a, docs_b = as_ranking(a, "a"), as_ranking(b, "b")
    rng = check_rng(rng)
    limit = _limit(length)
    a_first = bool(rng.random() < 0.5)
    interleaved: list = []
    shown: set = set()
    k_a = k_b = 0
    while k_a < len(docs_a) and k_b < len(docs_b) and len(interleaved) < limit:
        if k_a < k_b or (k_a == k_b and a_first):
            doc, k_a = docs_a[k_a], k_a + 1
        else:
            doc, k_b = docs_b[k_b], k_b + 1
        if doc not in shown:
            interleaved.append(doc)
            shown.add(doc)
    return interleaved


def as_clicks(clicks: Any, n_shown: int) -> list[int]:
    """Click positions as a sorted list of distinct 0-based ranks below ``n_shown`` (checked)."""
    if isinstance(clicks, (str, bytes)) or not isinstance(clicks, (Iterable, np.ndarray)):
        raise TypeError(
            "clicks must be a sequence of clicked positions (0-based indices into the "
            f"interleaved list), got {type(clicks).__name__}"
        )
    positions = []
    for c in clicks.tolist() if isinstance(clicks, np.ndarray) else list(clicks):
        if isinstance(c, bool) or not isinstance(c, numbers.Integral):
            raise TypeError(f"clicks must hold integer positions, got {type(c).__name__} {c!r}")
        if not 0 <= c < n_shown:
            raise ValueError(
                f"clicks holds position {c}, outside the {n_shown} documents shown (0-based)"
            )
        positions.append(int(c))
    return sorted(set(positions))


def _winner(score_a: int, score_b: int) -> str:
    return "a" if score_a > score_b else "b" if score_b > score_a else "tie"


def credit_clicks(clicks: Iterable[int], teams: Sequence[str]) -> str:
    """The winner of a team-draft session: ``"a"``, ``"b"`` or ``"tie"``.

    Each clicked position counts for the team that contributed its document; the team with more
    clicks wins (no click, or as many for both, is a tie). A position clicked twice counts once.
    A document of team ``"ab"`` (the common prefix, see :func:`team_draft_interleave`) was
    contributed by both rankings: its clicks count for neither.

    >>> credit_clicks([0, 1], ["a", "b", "b", "a"])
    'tie'
    >>> credit_clicks([1, 2], ["a", "b", "b", "a"])
    'b'
    >>> credit_clicks([0, 1], ["ab", "a", "b"])
    'a'
    """
    if isinstance(teams, (str, bytes)) or not isinstance(teams, Iterable):
        raise TypeError(f"teams must be a sequence of 'a'/'b'/'ab', got {type(teams).__name__}")
    team_list = list(teams)
    for i, t in enumerate(team_list):
        if t not in ("a", "b", "ab"):
            raise ValueError(f"teams[{i}] must be 'a', 'b' or 'ab', got {t!r}")
    positions = as_clicks(clicks, len(team_list))
    score_a = sum(team_list[c] == "a" for c in positions)
    score_b = sum(team_list[c] == "b" for c in positions)
    return _winner(score_a, score_b)


def credit_balanced(
    clicks: Iterable[int],
    interleaved: Sequence[Hashable],
    a: Sequence[Hashable],
    b: Sequence[Hashable],
) -> str:
    """The winner of a balanced-interleaving session: ``"a"``, ``"b"`` or ``"tie"``.

    Let d be the lowest clicked document of the interleaved list and k = min(rank of d in a,
    rank of d in b). h_a counts the clicked documents in the top k of ``a``, h_b those in the
    top k of ``b``; the ranking with the larger count wins (Joachims 2003; Radlinski et al.
    2008).

    A click on d2 (rank 2 in a, absent from b): k = 2, h_a = 1, h_b = 0. A click on d3 (rank 3
    in a, 2 in b): k = 2, h_a = 0, h_b = 1:

    >>> a, b, shown = ["d1", "d2", "d3"], ["d1", "d3", "d4"], ["d1", "d3", "d2", "d4"]
    >>> credit_balanced([2], shown, a, b), credit_balanced([1], shown, a, b)
    ('a', 'b')
    >>> credit_balanced([0], shown, a, b)
    'tie'
    """
    shown = as_ranking(interleaved, "interleaved")
    docs_a, docs_b = as_ranking(a, "a"), as_ranking(b, "b")
    positions = as_clicks(clicks, len(shown))
    if not positions:
        return "tie"
    rank_a = {doc: r for r, doc in enumerate(docs_a, start=1)}
    rank_b = {doc: r for r, doc in enumerate(docs_b, start=1)}
    clicked = [shown[c] for c in positions]
    for doc in clicked:
        if doc not in rank_a and doc not in rank_b:
            raise ValueError(f"interleaved document {doc!r} is in neither a nor b")
    lowest = clicked[-1]
    k = min(rank_a.get(lowest, math.inf), rank_b.get(lowest, math.inf))
    h_a = sum(rank_a.get(doc, math.inf) <= k for doc in clicked)
    h_b = sum(rank_b.get(doc, math.inf) <= k for doc in clicked)
    return _winner(h_a, h_b)
