"""Sessions of an A/B test and of interleaving between two rankings, simulated in bulk.

:class:`SessionSimulator` draws many sessions at once with numpy: every session gets its own
query, its own interleaved list (team draft or balanced, as :func:`team_draft_interleave` and
:func:`balanced_interleave` build it) and its own clicks (as :func:`cascade_clicks` or
:func:`position_based_clicks` draw them), and is credited as :func:`credit_clicks` and
:func:`credit_balanced` do. It is what chapter 10 and its widget use to repeat experiments of
hundreds of sessions many times; ``tests/test_online.py`` compares it with those functions.
Every interleaved list a query can show is built once, so a session is a few array look-ups.

Everything random draws from an explicit ``numpy.random.Generator``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from ..validation import check_bool, check_choice, check_positive_int, check_rng
from .clicks import as_probabilities
from .interleaving import as_ranking, common_prefix

__all__ = ["CLICK_MODELS", "INTERLEAVINGS", "SessionSimulator", "default_attractiveness"]

#: The interleaving methods of :meth:`SessionSimulator.interleave`.
INTERLEAVINGS = ("team draft", "balanced")
#: The click models of :class:`SessionSimulator`.
CLICK_MODELS = ("cascade", "position-based")


def default_attractiveness(max_grade: float) -> tuple[float, ...]:
    """Click probabilities of an examined document of grade 0, 1, …, ``max_grade``: from 0.05
    up to 0.9, evenly spaced.

    >>> default_attractiveness(2)
    (0.05, 0.475, 0.9)
    """
    top = int(np.ceil(max_grade))
    return tuple(round(0.05 + 0.85 * g / top, 12) for g in range(top + 1))


class SessionSimulator:
    """Sessions of an A/B test and of interleaving between two rankings per query, in bulk.

    ``queries``: one ``(a, b, grades)`` triple per query, as for
    :func:`coursekit.measures.simulate_ab`, each ranking cut at ``depth``. ``model``:
    ``"cascade"`` (as :func:`cascade_clicks` with ``max_grade``) or ``"position-based"`` (as
    :func:`position_based_clicks`: examination 1/rank, click probability ``attractiveness``
    by grade, by default :func:`default_attractiveness`). Unjudged and negative grades count
    as 0.

    Each query's interleaved lists are built once, all of them: ``lists[method][q]`` holds
    every list that team draft (one per sequence of coins, one coin per round of two picks)
    or balanced interleaving (who starts) can show for query ``q``, each equally likely, as
    indices into the query's documents ``ids[q]`` (-1 below the list); ``teams[q]`` says who
    contributed each team-draft document (+1: b, -1: a, 0: the common prefix, see
    :func:`team_draft_interleave`; with ``neutral_prefix=False`` the coin gives the common
    prefix to the teams too). ``depth`` is at most 20 (2^10 team-draft lists).

    :meth:`ab` gives, for one session per entry of an array of query indices, the arm shown
    and the rank of the first click; :meth:`interleave` the winner of the session (+1: B,
    -1: A, 0: a tie), crediting its clicks with :meth:`credit`.

    >>> sim = SessionSimulator([(["d1", "d2"], ["d2", "d1"], {"d1": 1})], "cascade", 1)
    >>> winner = sim.interleave("team draft", np.zeros(1000, int), np.random.default_rng(0))
    >>> bool((winner == -1).sum() > (winner == 1).sum())  # a ranks the relevant d1 first
    True
    """

    def __init__(
        self,
        queries: Sequence[tuple[Sequence[Hashable], Sequence[Hashable], Mapping]],
        model: str,
        max_grade: float,
        *,
        attractiveness: Sequence[float] | None = None,
        depth: int = 10,
        neutral_prefix: bool = True,
    ) -> None:
        self.model = check_choice(model, "model", CLICK_MODELS)
        self.depth = depth = check_positive_int(depth, "depth")
        neutral_prefix = check_bool(neutral_prefix, "neutral_prefix")
        if depth > 20:
            raise ValueError(f"depth must be at most 20 (a result page), got {depth}")
        if isinstance(queries, (str, bytes, Mapping)) or not isinstance(queries, Sequence):
            raise TypeError(f"queries must be a list of (a, b, grades), got {type(queries)}")
        if not queries:
            raise ValueError("queries is empty: give at least one (a, b, grades) triple")
        if attractiveness is None:
            alpha = np.asarray(default_attractiveness(max_grade))
        else:
            alpha = as_probabilities(attractiveness, "attractiveness")
            if alpha.size == 0:
                raise ValueError("attractiveness must give at least one probability (grade 0)")
        n_q, width = len(queries), 2 * depth + 1  # documents of a query: at most 2 depth
        # per query: the documents of a and b by rank (index into the query's documents, -1:
        # none), each document's ranks in a and b (depth + 1: absent) and click probability
        self.docs = np.full((n_q, 2, depth), -1, dtype=np.int64)
        self.rank = np.full((n_q, 2, width), depth + 1, dtype=np.int64)
        grades = np.zeros((n_q, width))
        self.length = np.zeros((n_q, 2), dtype=np.int64)
        self.prefix = np.zeros(n_q, dtype=np.int64)
        self.ids: list[list] = []
        for q, item in enumerate(queries):
            if not (isinstance(item, tuple) and len(item) == 3 and isinstance(item[2], Mapping)):
                raise TypeError(f"queries[{q}] must be an (a, b, grades) triple, grades a dict")
            a = as_ranking(item[0], f"queries[{q}] a")[:depth]
            b = as_ranking(item[1], f"queries[{q}] b")[:depth]
            index: dict = {}
            for arm, ranking in enumerate((a, b)):
                for r, doc in enumerate(ranking):
                    i = index.setdefault(doc, len(index))
                    self.docs[q, arm, r], self.rank[q, arm, i] = i, r + 1
                self.length[q, arm] = len(ranking)
            self.prefix[q] = common_prefix(a, b) if neutral_prefix else 0
            self.ids.append(list(index))
            grades[q, : len(index)] = [float(item[2].get(doc, 0) or 0) for doc in index]
        g = np.maximum(np.nan_to_num(grades), 0.0)  # unjudged, negative, no document: 0
        if self.model == "cascade":  # the chance to be satisfied (click and stop)
            self.attract = (np.exp2(g) - 1.0) / np.exp2(float(max_grade))
        else:
            self.attract = alpha[np.minimum(g.astype(int), alpha.size - 1)]
        self.attract[:, -1] = 0.0  # the index -1 (no document) is never clicked
        self._pages = np.stack(
            [self.probabilities(np.arange(n_q), self.docs[:, arm]) for arm in (0, 1)], axis=1
        )
        self._tables: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    @property
    def lists(self) -> dict[str, np.ndarray]:
        """``{method: lists}``: ``lists[q, k]`` is the k-th interleaved list of query ``q``, as
        indices into ``ids[q]`` (-1 below the list), all equally likely."""
        return {method: self._table(method)[0] for method in INTERLEAVINGS}

    @property
    def teams(self) -> np.ndarray:
        """Who contributed each document of ``lists["team draft"]``: +1 b, -1 a, 0 both."""
        return self._table("team draft")[1]

    def _table(self, method: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(lists, teams or ranks, click probabilities)`` of ``method``, built on first use:
        every list a query can show, one per sequence of coins (team draft: one coin per round
        of two picks; balanced: one coin, who starts). For balanced interleaving the middle
        entry holds each shown document's rank in a and in b (depth + 1: absent)."""
        if method not in self._tables:
            n_q, depth = self.docs.shape[0], self.depth
            n_coins = (depth + 1) // 2 if method == "team draft" else 1
            patterns = np.arange(2**n_coins)
            coins = (patterns[:, None] >> np.arange(n_coins)) & 1 == 0  # True: a first
            q = np.repeat(np.arange(n_q), patterns.size)
            shown, teams = self._draft(q, method, np.tile(coins, (n_q, 1)))
            if method == "team draft":
                extra = teams.reshape(n_q, patterns.size, depth)
            else:
                ranks = np.take_along_axis(self.rank[q], shown[:, None, :].repeat(2, 1), axis=-1)
                extra = ranks.reshape(n_q, patterns.size, 2, depth)
            p = self.probabilities(q, shown).reshape(n_q, patterns.size, depth)
            self._tables[method] = (shown.reshape(n_q, patterns.size, depth), extra, p)
        return self._tables[method]

    def probabilities(self, q: np.ndarray, shown: np.ndarray) -> np.ndarray:
        """Per-rank click probabilities of the lists ``shown`` (document indices, -1: none) of
        queries ``q``, one row each: examination 1/rank times attractiveness for the
        position-based model, the chance to be satisfied for the cascade model."""
        p = np.take_along_axis(self.attract[q], shown, axis=-1)
        return p / np.arange(1, self.depth + 1) if self.model == "position-based" else p

    def clicks(self, p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One row of clicks (booleans, one per rank) per row of click probabilities ``p``."""
        hits = rng.random(p.shape) < p
        if self.model == "cascade":  # the user stops at the first satisfying document
            hits &= np.cumsum(hits, axis=-1) == 1
        return hits

    def ab(self, queries: Any, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``(shown_b, first_click)`` for one session per entry of ``queries`` (query indices,
        any shape): was ranking b shown (a fair coin), and the 0-based rank of the first click
        (-1: none)."""
        q, shape = self._indices(queries)
        rng = check_rng(rng)
        shown_b = rng.random(q.shape) < 0.5
        clicked = self.clicks(self._pages[q, shown_b.astype(int)], rng)
        first = np.where(clicked.any(axis=-1), clicked.argmax(axis=-1), -1)
        return shown_b.reshape(shape), first.reshape(shape)

    def interleave(self, method: str, queries: Any, rng: np.random.Generator) -> np.ndarray:
        """The winner of one session per entry of ``queries`` (query indices, any shape)
        interleaved with ``method`` (``"team draft"`` or ``"balanced"``): +1 B, -1 A, 0 tie.
        Each session shows one of the query's :attr:`lists`, drawn uniformly."""
        method = check_choice(method, "method", INTERLEAVINGS)
        q, shape = self._indices(queries)
        rng = check_rng(rng)
        lists, _, p = self._table(method)
        k = rng.integers(lists.shape[1], size=q.size)
        clicked = self.clicks(p[q, k], rng)
        return self.credit(method, q, k, clicked).reshape(shape)

    def credit(self, method: str, queries: Any, k: Any, clicked: np.ndarray) -> np.ndarray:
        """The winners (+1 B, -1 A, 0 tie) of the clicks ``clicked`` (booleans by rank, one row
        per session) on the lists ``lists[method][queries, k]``: as :func:`credit_clicks` for
        team draft, as :func:`credit_balanced` for balanced interleaving."""
        method = check_choice(method, "method", INTERLEAVINGS)
        q, _ = self._indices(queries)
        k = np.asarray(k).reshape(-1)
        clicked = np.asarray(clicked, dtype=bool).reshape(q.size, self.depth)
        lists, extra, _ = self._table(method)
        clicked = clicked & (lists[q, k] >= 0)
        if method == "team draft":
            return np.sign((clicked * extra[q, k].astype(np.int64)).sum(axis=-1))
        ranks = extra[q, k]  # [session, a or b, position]
        last = self.depth - 1 - np.argmax(clicked[:, ::-1], axis=-1)  # the lowest click
        cut = ranks[np.arange(q.size), :, last].min(axis=-1)  # k: its best rank in a or b
        hits = (clicked[:, None, :] & (ranks <= cut[:, None, None])).sum(axis=-1)
        return np.sign(hits[:, 1] - hits[:, 0])  # no click: 0 - 0

    def _draft(self, q: np.ndarray, method: str, coins: np.ndarray) -> tuple:
        """Interleave the rankings of queries ``q`` (one row each) with the given ``coins``
        (booleans: a picks first in each round of team draft, or a starts, for balanced).
        Returns ``(shown, teams)``: document indices (-1 below the list) and, for team draft,
        who contributed each (+1 b, -1 a, 0 the common prefix)."""
        n, depth, rows = q.size, self.depth, np.arange(q.size)
        docs, length = self.docs[q], self.length[q]
        shown = np.full((n, depth), -1, dtype=np.int64)
        teams = np.zeros((n, depth), dtype=np.int8)
        seen = np.zeros((n, 2 * depth + 1), dtype=bool)  # the last column: no document
        filled = np.zeros(n, dtype=np.int64)
        if method == "team draft":
            picks = np.zeros((n, 2), dtype=np.int64)
            prefix = np.minimum(self.prefix[q], depth)
            ptr = np.zeros((n, 2), dtype=np.int64)  # the next rank to look at in a and in b
            both, arms = rows[:, None], np.arange(2)[None, :]
            for t in range(depth):
                while True:  # skip the documents already shown: each ranking's best new one
                    best = docs[both, arms, np.minimum(ptr, depth - 1)]
                    stale = (ptr < length) & seen[both, best]
                    if not stale.any():
                        break
                    ptr += stale
                has = ptr < length
                common = t < prefix  # the common prefix: shown first, nobody's pick
                go = common | (has.all(axis=-1) & (filled == t))
                coin = coins[rows, np.minimum(picks.sum(axis=-1) // 2, coins.shape[1] - 1)]
                pick_a = (picks[:, 0] < picks[:, 1]) | ((picks[:, 0] == picks[:, 1]) & coin)
                side = np.where(common | pick_a, 0, 1)
                doc = best[rows, side]
                shown[go, t] = doc[go]
                teams[go, t] = np.where(common, 0, 2 * side - 1)[go]
                seen[rows[go], doc[go]] = True
                picked = go & ~common
                picks[rows[picked], side[picked]] += 1
                filled += go
            return shown, teams
        k = np.zeros((n, 2), dtype=np.int64)
        for _ in range(2 * depth):
            go = (k < length).all(axis=-1) & (filled < depth)
            if not go.any():
                break
            side = np.where((k[:, 0] < k[:, 1]) | ((k[:, 0] == k[:, 1]) & coins[:, 0]), 0, 1)
            doc = docs[rows, side, np.minimum(k[rows, side], depth - 1)]
            k[rows[go], side[go]] += 1
            add = go & ~seen[rows, doc]
            shown[rows[add], filled[add]] = doc[add]
            seen[rows[add], doc[add]] = True
            filled += add
        return shown, teams

    def _indices(self, queries: Any) -> tuple[np.ndarray, tuple]:
        q = np.asarray(queries)
        if q.dtype.kind not in "iu":
            raise TypeError(f"queries must be an array of query indices, got dtype {q.dtype}")
        if q.size and (q.min() < 0 or q.max() >= self.docs.shape[0]):
            raise ValueError(f"queries must be indices in 0..{self.docs.shape[0] - 1}")
        return q.reshape(-1), q.shape
