"""Answer key of exercises/10_users_online.ipynb (expected values computed by coursekit).

RBP with its residual, ERR step by step, the expected depth of RBP's user, a team-draft
credit and an A/B sample size. Every expected value and every mistaken value (``Mistake``:
what a common slip gives, with its hint) is computed here from the exercise's data.
``generate(None)`` gives the public example's data cell and questions (``QUESTIONS``);
``generate(rng)`` a student's own data for graded coursework, drawn so that every statement of
the text holds: 5 judged ranks with some relevant and some not, 3 graded ranks, an interleaved
list of 3 team-draft rounds whose clicks give another winner when the positions are misread
1-based than read 0-based, and a B arm with a higher CTR than A. q5's winner (A, B or a tie)
is drawn first, a third of the students each; q7 to q9 are about the text, not the data: they
differ between students by the order of their options. Hidden inputs (``hidden=``) are used
by the grader only.

Variant space: the judgments, p, the unjudged rank, the grades and g_max, the patience, the
teams and 2 to 4 clicks, the two CTRs: every value question varies (q4, 1 / (1 - p), takes 5
values).
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
P_PATIENT = 0.9
TEAMS = ["a", "b", "b", "a", "a", "b"]
CLICKS = [1, 2, 4]
CTR_A, CTR_B = 0.40, 0.42
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


def _fits(rels, p, unjudged, grades, g_max, p_patient, teams, clicks, ctr_a, ctr_b) -> bool:
    """Whether data drawn for a student keep every statement of the text true."""
    rounds = [sorted(teams[i : i + 2]) for i in range(0, len(teams), 2)]
    return (
        len(rels) == 5
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


def _draw(rng):
    """A student's data: q5's winner drawn first, then data that give it."""
    winner = str(rng.choice(["a", "b", "tie"]))
    while True:
        rels = [int(x) for x in rng.integers(0, 2, size=5)]
        p = float(rng.choice([0.5, 0.6, 0.7, 0.8, 0.9]))
        unjudged = int(rng.integers(2, 5))
        g_max = int(rng.integers(2, 4))
        grades = [int(x) for x in rng.integers(0, g_max + 1, size=3)]
        p_patient = float(rng.choice([0.5, 0.6, 0.75, 0.9, 0.95]))
        teams = [t for _ in range(3) for t in (["a", "b"] if rng.random() < 0.5 else ["b", "a"])]
        size = int(rng.integers(2, 5))  # 2 to 4 clicks: an even number can tie
        clicks = sorted(int(x) for x in rng.choice(np.arange(1, 6), size=size, replace=False))
        ctr_a = int(rng.integers(10, 50)) / 100
        ctr_b = round(ctr_a + int(rng.integers(2, 6)) / 100, 2)
        data = (rels, p, unjudged, grades, g_max, p_patient, teams, clicks, ctr_a, ctr_b)
        if _fits(*data) and _winner(clicks, teams) == winner:
            return data


def data_cell(rels, p, unjudged, grades, g_max, p_patient, teams, clicks, ctr_a, ctr_b) -> str:
    """The source of the exercise's data cell for these data."""
    listed = ", ".join(f'"{t}"' for t in teams)
    return "\n".join(
        [
            f"rels = {rels}  # q1: binary judgments, top first",
            f"p = {p}  # q1, q2: the persistence of RBP's user",
            f"unjudged_rank = {unjudged}  # q2: this rank (1 = top) is unjudged",
            f"grades, g_max = {grades}, {g_max}  # q3: grades, top first, on a 0 to g_max scale",
            f"p_patient = {p_patient}  # q4",
            f"teams = [{listed}]  # q5: the team of each shown document",
            f"clicks = {clicks}  # q5: the positions clicked, 0-based",
            f"ctr_a, ctr_b = {ctr_a:.2f}, {ctr_b:.2f}  # q6, q7: the CTRs of the two arms",
        ]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    data drawn from the numpy Generator ``rng``."""
    public = (RELS, P, UNJUDGED_RANK, GRADES, G_MAX, P_PATIENT, TEAMS, CLICKS, CTR_A, CTR_B)
    data = public if rng is None else _draw(rng)
    assert _fits(*data)
    return data_cell(*data), without_harmless_mistakes(_questions(*data))


WEIGHT = "the document at rank i weighs (1 - p) p^(i-1): rank 1 weighs 1 - p"


def _questions(rels, p, unjudged, grades, g_max, p_patient, teams, clicks, ctr_a, ctr_b) -> list:
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
            1 / (1 - p_patient),
            low=1,
            hint="a geometric number of documents",
            mistakes=[
                Mistake(
                    p_patient / (1 - p_patient),
                    "the user always reads the first document: count it too",
                ),
                Mistake(1 / p_patient, "the user stops after each document with probability 1 - p"),
            ],
        ),
        Choice(
            "q5",
            {"a": "a", "b": "b", "tie": "c"}[_winner(clicks, teams)],
            options="abc",
            hint="count clicks per team; positions start at 0",
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
        Choice("q7", "b", options="abcd", hint="n grows as 1 / difference^2"),
        Choice("q8", "b", options="abc", hint="RBP lies in [value, value + residual]"),
        Choice("q9", "b", options="abc", hint="a 50/50 split of 20,000 users"),
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
