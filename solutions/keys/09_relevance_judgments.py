"""Answer key of exercises/09_relevance_judgments.ipynb (expected values computed by coursekit).

A 2 × 2 agreement table of two assessors (200 documents), a Fleiss table of three assessors,
and a ranking with unjudged documents. Hidden inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.grading import Choice, Function, Value

# the 2 x 2 table: (assessor 1, assessor 2) -> count
COUNTS = {("yes", "yes"): 120, ("no", "no"): 50, ("yes", "no"): 20, ("no", "yes"): 10}
JUDGE1 = [a for (a, _), n in COUNTS.items() for _ in range(n)]
JUDGE2 = [b for (_, b), n in COUNTS.items() for _ in range(n)]
N = len(JUDGE1)
P_A = sum(a == b for a, b in zip(JUDGE1, JUDGE2, strict=True)) / N
YES1, YES2 = JUDGE1.count("yes") / N, JUDGE2.count("yes") / N
P_E = YES1 * YES2 + (1 - YES1) * (1 - YES2)
FLEISS = [[3, 0], [2, 1], [0, 3], [1, 2]]
RANKING = [1, None, 0, 1, None, 0, 0, 1]

QUESTIONS = [
    Value(
        "q1",
        [P_A, P_E, ck.cohen_kappa(JUDGE1, JUDGE2)],
        low=-1,
        high=1,
        hint="P(A) = agreements / 200; P(E) = P1(yes) P2(yes) + P1(no) P2(no)",
    ),
    Value(
        "q2",
        ck.cohen_kappa(JUDGE1, JUDGE2, pooled=True),
        low=-1,
        high=1,
        hint="pool the 400 labels: P(yes) = (140 + 130) / 400",
    ),
    Value(
        "q3",
        ck.fleiss_kappa(FLEISS),
        low=-1,
        high=1,
        hint="P_i = (sum of squares - 3) / 6 per document; p_j over all 12 labels",
    ),
    Value(
        "q4",
        ck.bpref(RANKING, 4, 5),
        low=0,
        high=1,
        hint="skip unjudged documents; count judged non-relevant ones above each relevant one",
    ),
    Value(
        "q5",
        [
            ck.average_precision([0 if g is None else g for g in RANKING], 4),
            ck.average_precision([g for g in RANKING if g is not None], 4),
        ],
        low=0,
        high=1,
        hint="AP′: remove the unjudged documents first, keep R = 4",
    ),
    Choice("q6", "b", options="abcd", hint="the same assessor judges every system"),
    Choice("q7", "b", options="abcd", hint="who judged the new system's documents?"),
    Choice("q8", "b", options="abcd", hint="compute P(E) for two assessors at 95 % relevant"),
    Function(
        "q9",
        name="cohen_kappa",
        reference="coursekit:cohen_kappa",
        points=2,
        cases=[
            ("perfect agreement", [["y", "n", "y"], ["y", "n", "y"]]),
            ("the book's style of table", [["y", "y", "n", "n", "y"], ["y", "n", "n", "y", "y"]]),
            ("numbers as labels", [[0, 1, 2, 2, 1], [0, 2, 2, 1, 1]]),
            ("edge case: one label each", [["y", "y"], ["n", "n"]]),
        ],
        hidden=[
            ("the exercise's table", [JUDGE1, JUDGE2]),
            ("edge case: all the same", [["y", "y", "y"], ["y", "y", "y"]]),
        ],
        hint="P(A) from the matching pairs, P(E) from each list's own label shares",
    ),
]
