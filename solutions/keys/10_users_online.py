"""Answer key of exercises/10_users_online.ipynb (expected values computed by coursekit).

RBP with its residual, ERR, a team-draft credit and an A/B sample size. Hidden inputs
(``hidden=``) are used by the grader only.
"""

import math

from scipy import stats

import coursekit as ck
from coursekit.grading import Choice, Function, Value

RELS = [1, 0, 1, 1, 0]
TEAMS = ["a", "b", "b", "a", "a", "b"]
Z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)

QUESTIONS = [
    Value(
        "q1",
        list(ck.rbp(RELS, p=0.8)),
        low=0,
        high=1,
        hint="value: 0.2 * sum of 0.8^(i-1) over relevant ranks; residual: 0.8^5",
    ),
    Value(
        "q2",
        ck.rbp([1, None, 1, 1, 0], p=0.8).residual,
        low=0,
        high=1,
        hint="the weight of the unjudged rank plus what lies below rank 5",
    ),
    Value("q3", ck.err([2, 0, 1], max_grade=2), low=0, high=1, hint="R = (2^g - 1) / 4"),
    Value("q4", 1 / (1 - 0.9), low=1, hint="a geometric number of documents"),
    Choice(
        "q5",
        {"a": "a", "b": "b", "tie": "c"}[ck.measures.credit_clicks([1, 2, 4], TEAMS)],
        options="abc",
        hint="count clicks per team",
    ),
    Value(
        "q6",
        math.ceil(Z**2 * (0.40 * 0.60 + 0.42 * 0.58) / 0.02**2),
        low=1,
        hint="(z_0.975 + z_0.8)^2 (p_A(1 - p_A) + p_B(1 - p_B)) / (p_A - p_B)^2",
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
            ("the exercise's list", [[1, 0, 1, 1, 0], 0.8]),
            ("an unjudged rank", [[1, None, 1], 0.5]),
            ("edge case: empty list", [[], 0.8]),
        ],
        hidden=[
            ("persistent user", [[0, 1, None, 0, 1, 1], 0.95]),
            ("edge case: p = 0", [[1, 0, 1], 0.0]),
        ],
        hint="weights (1 - p) p^(i-1); residual adds p^depth",
    ),
]
