"""Online evaluation: interleaving, click models and simulated A/B and interleaving experiments.

Offline measures need relevance judgments; online evaluation instead watches users click.

* **A/B testing** shows each user the ranking of one system (A or B) and compares the
  systems' click statistics over many sessions.
* **Interleaving** shows each user one list that mixes both rankings, and credits each click to
  the system that contributed the clicked document; the system with more credited clicks wins
  the session. Team draft (Radlinski, Kurup & Joachims 2008) and balanced interleaving
  (Joachims 2002, 2003) are implemented here.
* **Click models** simulate users: in the position-based model (PBM) a user examines rank i
  with a probability that only depends on i and clicks an examined document with a probability
  that only depends on its relevance; in the cascade model the user reads from the top and
  stops at the first click (Craswell, Zoeter, Taylor & Ramsey 2008; Chuklin, Markov & de Rijke
  2015).

Everything random draws from an explicit ``numpy.random.Generator`` (``rng``), so a seeded
generator reproduces a simulation exactly. Rankings are sequences of distinct, hashable
document ids; click positions are 0-based indices into the list shown (0 = top).

English / French / Italian: interleaving / entrelacement / interleaving; click model / modèle
de clics / modello di click.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..validation import check_choice, check_positive_int, check_rng
from .clicks import ClickModel, cascade_clicks, position_based_clicks
from .interleaving import (
    as_clicks,
    as_ranking,
    balanced_interleave,
    credit_balanced,
    credit_clicks,
    team_draft_interleave,
)

__all__ = [
    "ABSessions",
    "InterleavingSessions",
    "balanced_interleave",
    "cascade_clicks",
    "credit_balanced",
    "credit_clicks",
    "position_based_clicks",
    "simulate_ab",
    "simulate_interleaving",
    "team_draft_interleave",
]


class ABSessions(NamedTuple):
    """Per-session outcomes of :func:`simulate_ab`, one entry per session."""

    query: np.ndarray  #: index of the session's query in ``queries``
    arm: np.ndarray  #: "a" or "b": the ranking the session was shown
    clicks: np.ndarray  #: number of clicks
    first_click: np.ndarray  #: 0-based position of the first click, -1 when none


class InterleavingSessions(NamedTuple):
    """Per-session outcomes of :func:`simulate_interleaving`, one entry per session."""

    query: np.ndarray  #: index of the session's query in ``queries``
    winner: np.ndarray  #: "a", "b" or "tie"


def _queries(queries: Any) -> list[tuple[list, list, Mapping]]:
    if isinstance(queries, (str, bytes, Mapping)) or not isinstance(queries, Iterable):
        raise TypeError(
            "queries must be a list of (a, b, qrels) triples: two rankings of document ids and "
            f"a mapping document -> grade, got {type(queries).__name__}"
        )
    checked = []
    for i, item in enumerate(queries):
        if not (isinstance(item, tuple) and len(item) == 3 and isinstance(item[2], Mapping)):
            raise TypeError(
                f"queries[{i}] must be an (a, b, qrels) triple with qrels a mapping "
                "document -> grade"
            )
        a, b, qrels = item
        checked.append((as_ranking(a, f"queries[{i}] a"), as_ranking(b, f"queries[{i}] b"), qrels))
    if not checked:
        raise ValueError("queries is empty: give at least one (a, b, qrels) triple")
    return checked


def _click_model(click_model: Any, queries: list[tuple[list, list, Mapping]]) -> ClickModel:
    if click_model is not None:
        if not callable(click_model):
            raise TypeError(
                "click_model must be a function (grades, rng) -> clicked positions, such as "
                f"functools.partial(cascade_clicks, max_grade=3), got {type(click_model).__name__}"
            )
        return click_model
    top = max([1.0] + [float(g) for _, _, qrels in queries for g in qrels.values()])

    def cascade(grades: np.ndarray, rng: np.random.Generator) -> list[int]:
        return cascade_clicks(grades, rng, max_grade=top)

    return cascade


def _grades(ranking: list, qrels: Mapping) -> list:
    return [qrels.get(doc, 0) for doc in ranking]


def simulate_ab(
    queries: Sequence[tuple[Sequence[Hashable], Sequence[Hashable], Mapping[Hashable, float]]],
    rng: np.random.Generator,
    n_sessions: int,
    click_model: ClickModel | None = None,
) -> ABSessions:
    """Simulate an A/B test: each session shows ranking a or b (a fair coin) of a random query.

    ``queries`` holds one ``(a, b, qrels)`` triple per query: the two systems' rankings and the
    grades of the documents (absent documents count as non-relevant). Each session draws a
    query uniformly, then an arm, then the user's clicks from ``click_model`` — a function
    ``(grades, rng) -> clicked positions``; by default :func:`cascade_clicks` with ``max_grade``
    the highest grade in the qrels (at least 1).

    >>> queries = [(["d1", "d2"], ["d2", "d1"], {"d1": 1})]  # d1 relevant: a ranks it first
    >>> out = simulate_ab(queries, np.random.default_rng(0), 1000)
    >>> shown_a = out.arm == "a"
    >>> bool(np.all(out.first_click[shown_a & (out.clicks > 0)] == 0))  # a's click: rank 1
    True
    >>> bool(np.all(out.first_click[~shown_a & (out.clicks > 0)] == 1))  # b's click: rank 2
    True
    """
    checked = _queries(queries)
    rng = check_rng(rng)
    n_sessions = check_positive_int(n_sessions, "n_sessions")
    model = _click_model(click_model, checked)
    query = np.empty(n_sessions, dtype=np.int64)
    arm = np.empty(n_sessions, dtype="<U1")
    clicks = np.zeros(n_sessions, dtype=np.int64)
    first = np.full(n_sessions, -1, dtype=np.int64)
    for s in range(n_sessions):
        q = int(rng.integers(len(checked)))
        a, b, qrels = checked[q]
        side = "a" if rng.random() < 0.5 else "b"
        ranking = a if side == "a" else b
        positions = as_clicks(
            model(np.asarray(_grades(ranking, qrels), dtype=float), rng), len(ranking)
        )
        query[s], arm[s], clicks[s] = q, side, len(positions)
        if positions:
            first[s] = positions[0]
    return ABSessions(query, arm, clicks, first)


def simulate_interleaving(
    queries: Sequence[tuple[Sequence[Hashable], Sequence[Hashable], Mapping[Hashable, float]]],
    rng: np.random.Generator,
    n_sessions: int,
    method: str = "team_draft",
    click_model: ClickModel | None = None,
) -> InterleavingSessions:
    """Simulate an interleaving experiment: the winner of each session.

    Each session draws a query of ``queries`` (``(a, b, qrels)`` triples, as in
    :func:`simulate_ab`) uniformly, interleaves its two rankings with ``method``
    (``"team_draft"`` or ``"balanced"``), draws the user's clicks on the interleaved list
    from ``click_model`` (default: the cascade model) and credits them with
    :func:`credit_clicks` or :func:`credit_balanced`.

    >>> qrels = {"d1": 1, "d2": 0, "d3": 0}
    >>> out = simulate_interleaving([(["d1", "d2"], ["d3", "d2", "d1"], qrels)],
    ...                             np.random.default_rng(0), 200)
    >>> int((out.winner == "a").sum()) > int((out.winner == "b").sum())
    True
    """
    checked = _queries(queries)
    rng = check_rng(rng)
    n_sessions = check_positive_int(n_sessions, "n_sessions")
    method = check_choice(method, "method", ("team_draft", "balanced"))
    model = _click_model(click_model, checked)
    query = np.empty(n_sessions, dtype=np.int64)
    winner = np.empty(n_sessions, dtype="<U3")
    for s in range(n_sessions):
        q = int(rng.integers(len(checked)))
        a, b, qrels = checked[q]
        if method == "team_draft":
            shown, teams = team_draft_interleave(a, b, rng)
            clicked = model(np.asarray(_grades(shown, qrels), dtype=float), rng)
            winner[s] = credit_clicks(clicked, teams)
        else:
            shown = balanced_interleave(a, b, rng)
            clicked = model(np.asarray(_grades(shown, qrels), dtype=float), rng)
            winner[s] = credit_balanced(clicked, shown, a, b)
        query[s] = q
    return InterleavingSessions(query, winner)
