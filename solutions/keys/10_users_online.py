"""Answer key of exercises/10_users_online.ipynb (expected values computed by coursekit).

RBP with its residual, ERR step by step, a team-draft interleaved list built by hand, a
team-draft credit and an A/B sample size. Every expected value and every mistaken value
(``Mistake``: what a common slip gives, with its hint) is computed here from the exercise's
data. ``generate(None)`` gives the public example's data cell and questions (``QUESTIONS``);
``generate(rng)`` a student's own data for graded coursework, drawn so that every statement of
the text holds: 5 judged ranks with some relevant and some not, 3 graded ranks, two rankings of
6 documents with different top documents that share 2 to 4 documents, one of which a team must
skip in q4's 3 rounds (its coins drawn too), an interleaved list of 3 team-draft rounds whose
clicks give another winner when the positions are misread 1-based than read 0-based, and a B
arm with a higher CTR than A. q5's winner (A, B or a tie) is drawn first, a third of the
students each; q7 to q9 are about the text, not the data: they differ between students by the
order of their options. Hidden inputs (``hidden=``) are used by the grader only.

Variant space: the judgments, p, the unjudged rank, the grades and g_max, the two rankings of
q4 (6 of 12 document ids each) and its 3 coins, the teams and 2 to 4 clicks, the two CTRs:
every value question varies.
"""

import math

import numpy as np
from scipy import stats

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

# the public data
RELS = [1, 0, 1, 1, 0]
P = 0.8
UNJUDGED_RANK = 2
GRADES, G_MAX = [2, 0, 1], 2
TEAMS = ["a", "b", "b", "a", "a", "b"]
CLICKS = [1, 2, 4]
CTR_A, CTR_B = 0.40, 0.42
RANKING_A = ["d2", "d5", "d1", "d7", "d3", "d8"]
RANKING_B = ["d5", "d4", "d2", "d6", "d1", "d9"]
COINS = ["a", "b", "a"]
ALPHA, POWER = 0.05, 0.8


def rbp_slip(grades, p, factor=True, shift=0, tail=True):
    """[value, residual] of RBP, or of a slip: no (1 - p) factor, p^(i - 1 + shift), no p^d
    below the list."""
    weight = (lambda i: (1 - p) * p ** (i + shift)) if factor else (lambda i: p ** (i + shift))
    value = sum(weight(i) for i, g in enumerate(grades) if g is not None and g >= 1)
    residual = sum(weight(i) for i, g in enumerate(grades) if g is None)
    return [value, residual + (p ** len(grades) if tail else 0.0)]


def err_steps(grades, g_max, mapping="exp", utility=True) -> list[float]:
    """[R_1, ..., R_k, ERR]: each rank's probability of satisfying the user, then ERR; slips:
    ``mapping`` "linear" (g / g_max) or "exp-1" ((2^g - 1) / (2^g_max - 1)), no 1/r."""
    top = {"exp": 2**g_max, "exp-1": 2**g_max - 1}.get(mapping)
    r = [(2**g - 1) / top if top else g / g_max for g in grades]
    total, still = 0.0, 1.0
    for rank, ri in enumerate(r, start=1):
        total += still * ri / (rank if utility else 1)
        still *= 1 - ri
    return [*r, total]


def sessions(ctr_a, ctr_b, alpha=ALPHA, power=POWER, sided=2) -> float:
    """The normal-approximation sessions per arm, before rounding up."""
    z = stats.norm.ppf(1 - alpha / sided) + (stats.norm.ppf(power) if power else 0.0)
    return z**2 * (ctr_a * (1 - ctr_a) + ctr_b * (1 - ctr_b)) / (ctr_a - ctr_b) ** 2


def _winner(clicks, teams, one_based=False) -> str:
    shown = [c - 1 for c in clicks] if one_based else list(clicks)
    return ck.measures.credit_clicks(shown, teams)


class Coins(np.random.Generator):
    """A generator whose draws are the given coins: ``random()`` is below 0.5 for ``"a"`` (team
    a picks first, as :func:`coursekit.measures.team_draft_interleave` reads it), above for
    ``"b"``."""

    def __init__(self, coins):
        super().__init__(np.random.PCG64(0))
        self.coins = list(coins)

    def random(self, *args, **kwargs):
        return 0.25 if self.coins.pop(0) == "a" else 0.75


def team_draft(a, b, coins) -> list[str]:
    """q4: the team-draft list of 3 rounds, as coursekit builds it (the published algorithm:
    no common prefix set aside), with each round's coin."""
    shown, _ = ck.measures.team_draft_interleave(
        a, b, Coins(coins), length=2 * len(coins), neutral_prefix=False
    )
    return shown


def team_draft_slip(a, b, coins, skip=True, every_coin=True) -> list[str]:
    """Slips of q4: a team's k-th pick is its rank-k document even when already shown (no
    skip); the first coin decides every round (``every_coin=False``)."""
    rankings, picks, shown = {"a": a, "b": b}, {"a": 0, "b": 0}, []
    for coin in coins if every_coin else [coins[0]] * len(coins):
        for team in (coin, "b" if coin == "a" else "a"):
            if skip:
                shown.append(next(d for d in rankings[team] if d not in shown))
            else:
                shown.append(rankings[team][picks[team]])
            picks[team] += 1
    return shown


def balanced_slip(a, b, coins) -> list[str]:
    """q4's slip into balanced interleaving (ranks taken in turn), the first coin choosing who
    starts."""
    return ck.measures.balanced_interleave(a, b, Coins(coins[:1]), length=2 * len(coins))


def _fits_q4(a, b, coins) -> bool:
    """q4's data: two rankings of 6 with different top documents, sharing 2 to 4 documents,
    3 coins, and a document that a team must skip (else the slip of not skipping is harmless)."""
    return (
        len(a) == len(b) == 6
        and a[0] != b[0]
        and 2 <= len(set(a) & set(b)) <= 4
        and len(coins) == 3
        and set(coins) <= {"a", "b"}
        and team_draft_slip(a, b, coins, skip=False) != team_draft(a, b, coins)
    )


def _fits(rels, p, unjudged, grades, g_max, a, b, coins, teams, clicks, ctr_a, ctr_b) -> bool:
    """Whether data drawn for a student keep every statement of the text true."""
    rounds = [sorted(teams[i : i + 2]) for i in range(0, len(teams), 2)]
    return (
        _fits_q4(a, b, coins)
        and len(rels) == 5
        and 2 <= sum(rels) <= 4
        and 2 <= unjudged <= 4
        and len(grades) == 3
        and any(g > 0 for g in grades)
        and len(teams) == 6
        and all(r == ["a", "b"] for r in rounds)  # team draft: one pick each per round
        and 2 <= len(set(clicks)) == len(clicks) <= 4
        and min(clicks) >= 1  # (so that misread 1-based, every click is still a position)
        and max(clicks) < len(teams)
        and _winner(clicks, teams) != _winner(clicks, teams, one_based=True)  # q5's slip
        and 0 < ctr_a < ctr_b < 1
    )


def _draw_q4(rng):
    """q4's rankings (6 of the ids d1 to d12 each, 2 to 4 of them shared) and 3 coins."""
    while True:
        pool = [f"d{i}" for i in rng.permutation(12) + 1]
        shared = int(rng.integers(2, 5))
        a = pool[:6]
        b = [a[i] for i in rng.choice(6, size=shared, replace=False)] + pool[6 : 12 - shared]
        b = [b[i] for i in rng.permutation(6)]
        coins = [str(c) for c in rng.choice(["a", "b"], size=3)]
        if _fits_q4(a, b, coins):
            return a, b, coins


def _draw(rng):
    """A student's data: q5's winner drawn first, then data that give it."""
    winner = str(rng.choice(["a", "b", "tie"]))
    while True:
        rels = [int(x) for x in rng.integers(0, 2, size=5)]
        p = float(rng.choice([0.5, 0.6, 0.7, 0.8, 0.9]))
        unjudged = int(rng.integers(2, 5))
        g_max = int(rng.integers(2, 4))
        grades = [int(x) for x in rng.integers(0, g_max + 1, size=3)]
        teams = [t for _ in range(3) for t in (["a", "b"] if rng.random() < 0.5 else ["b", "a"])]
        size = int(rng.integers(2, 5))  # 2 to 4 clicks: an even number can tie
        clicks = sorted(int(x) for x in rng.choice(np.arange(1, 6), size=size, replace=False))
        ctr_a = int(rng.integers(10, 50)) / 100
        ctr_b = round(ctr_a + int(rng.integers(2, 6)) / 100, 2)
        data = (rels, p, unjudged, grades, g_max, RANKING_A, RANKING_B, COINS)
        data = (*data, teams, clicks, ctr_a, ctr_b)
        if _fits(*data) and _winner(clicks, teams) == winner:
            return (*data[:5], *_draw_q4(rng), *data[8:])


def _strings(items) -> str:
    return "[" + ", ".join(f'"{x}"' for x in items) + "]"


def data_cell(rels, p, unjudged, grades, g_max, a, b, coins, teams, clicks, ctr_a, ctr_b) -> str:
    """The source of the exercise's data cell for these data."""
    listed = ", ".join(f'"{t}"' for t in teams)
    return "\n".join(
        [
            f"rels = {rels}  # q1: binary judgments, top first",
            f"p = {p}  # q1, q2: the persistence of RBP's user",
            f"unjudged_rank = {unjudged}  # q2: this rank (1 = top) is unjudged",
            f"grades, g_max = {grades}, {g_max}  # q3: grades, top first, on a 0 to g_max scale",
            f"ranking_a = {_strings(a)}  # q4: system A's ranking, top first",
            f"ranking_b = {_strings(b)}  # q4: system B's ranking, top first",
            f"coins = {_strings(coins)}  # q4: each round's coin, the team that picks first",
            f"teams = [{listed}]  # q5: the team of each shown document",
            f"clicks = {clicks}  # q5: the positions clicked, 0-based",
            f"ctr_a, ctr_b = {ctr_a:.2f}, {ctr_b:.2f}  # q6, q7: the CTRs of the two arms",
        ]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    data drawn from the numpy Generator ``rng``."""
    public = (RELS, P, UNJUDGED_RANK, GRADES, G_MAX, RANKING_A, RANKING_B, COINS)
    public = (*public, TEAMS, CLICKS, CTR_A, CTR_B)
    data = public if rng is None else _draw(rng)
    assert _fits(*data)
    return data_cell(*data), without_harmless_mistakes(_questions(*data))


WEIGHT = "the document at rank i weighs (1 - p) p^(i-1): rank 1 weighs 1 - p"


def _questions(rels, p, unjudged, grades, g_max, a, b, coins, teams, clicks, ctr_a, ctr_b) -> list:
    # q1: RBP and its residual, checked against coursekit
    q1 = list(ck.rbp(rels, p=p))
    assert all(abs(x - y) < 1e-12 for x, y in zip(q1, rbp_slip(rels, p), strict=True))
    # q2: the same list with one rank unjudged: only the residual
    holed = [None if i == unjudged - 1 else g for i, g in enumerate(rels)]
    q2 = ck.rbp(holed, p=p).residual
    hole = (1 - p) * p ** (unjudged - 1)
    # q3: ERR step by step, checked against coursekit
    q3 = err_steps(grades, g_max)
    assert abs(q3[-1] - ck.err(grades, max_grade=g_max)) < 1e-12
    # q6: the A/B sample size per arm
    n = sessions(ctr_a, ctr_b)
    # q4: the team-draft list, checked against the slip-free hand version
    q4 = team_draft(a, b, coins)
    assert q4 == team_draft_slip(a, b, coins)
    return [
        Value(
            "q1",
            q1,
            low=0,
            high=1,
            hint="value: (1 - p) * sum of p^(i-1) over the relevant ranks i; residual: p^5",
            mistakes=[
                Mistake(rbp_slip(rels, p, factor=False), "RBP's weights carry the factor 1 - p"),
                Mistake(rbp_slip(rels, p, shift=1), WEIGHT),
                Mistake(
                    [q1[0], 1 - q1[0]],
                    "the residual is not 1 - value: it is the weight of the ranks the list does "
                    "not show, p^5",
                ),
            ],
        ),
        Value(
            "q2",
            q2,
            low=0,
            high=1,
            hint="the weight of the unjudged rank plus what lies below rank 5",
            mistakes=[
                Mistake(
                    p ** len(rels),
                    "an unjudged rank inside the list adds its own weight to the residual",
                ),
                Mistake(hole, "the ranks below the list (p^5 of weight) are unknown too"),
                Mistake((1 - p) * p**unjudged + p ** len(rels), WEIGHT),
                Mistake(
                    p ** (unjudged - 1) + p ** len(rels), "RBP's weights carry the factor 1 - p"
                ),
            ],
        ),
        Value(
            "q3",
            q3,
            low=0,
            high=1,
            hint="R_i = (2^g_i - 1) / 2^g_max; the user stops at rank r with probability "
            "R_r times the product of (1 - R_i) above it, and gains 1/r",
            mistakes=[
                Mistake(
                    err_steps(grades, g_max, mapping="linear"),
                    "a grade is not a probability: map it with (2^g - 1) / 2^g_max",
                ),
                Mistake(
                    err_steps(grades, g_max, mapping="exp-1"),
                    "R_i divides 2^g - 1 by 2^g_max, so that even the best grade leaves a chance "
                    "to go on",
                ),
                Mistake(
                    err_steps(grades, g_max, utility=False),
                    "stopping at rank r is worth 1/r: you gave the probability of stopping at all",
                ),
            ],
        ),
        Value(
            "q4",
            q4,
            hint="round by round: the coin's team picks, then the other; each picks its "
            "highest-ranked document not yet in the list",
            mistakes=[
                Mistake(
                    team_draft_slip(a, b, coins, skip=False),
                    "a team adds its highest-ranked document not yet in the list: skip those "
                    "already placed, by either team",
                ),
                Mistake(
                    team_draft_slip(a, b, coins, every_coin=False),
                    "each round has its own coin: read coins[k] for round k + 1",
                ),
                Mistake(
                    balanced_slip(a, b, coins),
                    "that is balanced interleaving (the rankings' ranks in turn); in team draft "
                    "the team that picks takes its best document not yet shown",
                ),
            ],
        ),
        Choice(
            "q5",
            {"a": "a", "b": "b", "tie": "c"}[_winner(clicks, teams)],
            options="abc",
            hint="count the clicks of each team; positions start at 0 (chapter §3, team draft)",
        ),
        Value(
            "q6",
            math.ceil(n),
            low=1,
            hint="(z_0.975 + z_0.8)^2 (p_A(1 - p_A) + p_B(1 - p_B)) / (p_A - p_B)^2, rounded up",
            mistakes=[
                Mistake(math.floor(n), "round up: a fraction of a session is one more session"),
                Mistake(
                    math.ceil(sessions(ctr_a, ctr_b, sided=1)),
                    "the test is two-sided: z_0.975, not z_0.95",
                ),
                Mistake(
                    math.ceil(sessions(ctr_a, ctr_b, power=None)),
                    "the power enters through z_0.8: add it to z_0.975 before squaring",
                ),
                Mistake(2 * math.ceil(n), "the formula gives the sessions of each arm, not both"),
            ],
        ),
        Choice(
            "q7",
            "b",
            options="abcd",
            hint="compute q6's formula again with the difference halved and divide the two",
        ),
        Choice(
            "q8",
            "b",
            options="abc",
            hint="chapter §1: what the residual bounds; compute the lowest and highest value "
            "each run's RBP can take",
        ),
        Choice(
            "q9",
            "b",
            options="abc",
            hint="chapter §4: compute how likely a split at least this uneven is under a fair "
            "50/50 coin, and what that says about the test",
        ),
        Function(
            "q10",
            name="rbp",
            reference="coursekit:rbp",
            points=2,
            cases=[
                ("all relevant", [[1, 1, 1], 0.5]),
                ("the public exercise's list", [RELS, P]),
                ("an unjudged rank", [[1, None, 1], 0.5]),
                ("edge case: empty list", [[], 0.8]),
            ],
            hidden=[
                ("persistent user", [[0, 1, None, 0, 1, 1], 0.95]),
                ("the exercise's list", [list(rels), p]),
                ("edge case: p = 0", [[1, 0, 1], 0.0]),
            ],
            hint="weights (1 - p) p^(i-1); residual adds p^depth",
            mistakes=[
                Mistake(lambda g, p: rbp_slip(g, p, factor=False), "the weights carry 1 - p"),
                Mistake(lambda g, p: rbp_slip(g, p, shift=1), WEIGHT),
                Mistake(
                    lambda g, p: rbp_slip(g, p, tail=False),
                    "the residual also holds p^depth, the weight of every rank below the list",
                ),
            ],
        ),
    ]


QUESTIONS = generate(None)[1]
