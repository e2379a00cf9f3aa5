"""Answer key of exercises/02_curves_interpolation.ipynb (expected values computed by coursekit).

Two systems A and B answer two topics, t1 (6 relevant documents in the collection) and t2 (4),
with a judged ranking of 12 documents each; a paper prints five (recall, precision) points of
a third topic. Hidden inputs (``hidden=``) are used by the grader only.
"""

import numpy as np

import coursekit as ck
from coursekit.grading import Choice, Function, Value

N_RELEVANT = {"t1": 6, "t2": 4}
SYSTEM_A = {"t1": [1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0], "t2": [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
SYSTEM_B = {"t1": [0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0], "t2": [0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0]}
PRINTED_RECALLS = [0.2, 0.4, 0.6, 0.8, 1.0]
PRINTED_PRECISIONS = [0.5, 0.67, 0.5, 0.44, 0.45]

LEVELS = ck.STANDARD_RECALL_LEVELS
TABLE_A1 = ck.pr_table(SYSTEM_A["t1"], N_RELEVANT["t1"])
PRECISION_A1 = TABLE_A1["precision"].tolist()


def _averaged(system):
    """The interpolated precision of a system at the 11 levels, averaged over the topics."""
    curves = [ck.interpolated_precision(system[t], N_RELEVANT[t]) for t in N_RELEVANT]
    return np.mean(curves, axis=0).tolist()


IAP_A, IAP_B = _averaged(SYSTEM_A), _averaged(SYSTEM_B)
# q8: A better at low recall (level 0.1), B better at full recall (level 1.0) -> "b"
A_FOR_FEW, B_FOR_ALL = IAP_A[1] > IAP_B[1], IAP_B[10] > IAP_A[10]

QUESTIONS = [
    Value(
        "q1", PRECISION_A1, low=0, high=1, hint="relevant documents among the first k, divided by k"
    ),
    Value(
        "q2",
        TABLE_A1["recall"].tolist(),
        low=0,
        high=1,
        hint="relevant documents among the first k, divided by all the relevant documents "
        "of the topic (retrieved or not)",
    ),
    Value(
        "q3",
        [k for k in range(2, len(PRECISION_A1) + 1) if PRECISION_A1[k - 1] > PRECISION_A1[k - 2]],
        low=1,
        high=12,
        hint="precision can only rise at a relevant document; does it always rise there?",
    ),
    Value(
        "q4",
        ck.interpolated_precision(SYSTEM_A["t1"], N_RELEVANT["t1"]).tolist(),
        low=0,
        high=1,
        hint="at level r: the best precision at any rank whose recall is at least r, "
        "and 0 when recall r is never reached",
    ),
    Function(
        "q5",
        name="interpolated_precision",
        reference="coursekit:interpolated_precision",
        points=2,
        cases=[
            ("3 of 5 found", [[0, 1, 1, 0, 1, 0, 0, 0], 5]),
            ("all 3 relevant found", [[0, 1, 0, 1, 1, 0], 3]),
            ("recall 0.3 and 0.7 reached exactly (7 of 10)", [[1] * 7 + [0] * 3, 10]),
            ("levels given: 0.25, 0.5, 0.75, 1.0", [[1, 0, 0, 1, 0, 1], 4, [0.25, 0.5, 0.75, 1.0]]),
            ("graded judgments: a grade >= 1 is relevant", [[2, 0, 1, 0], 3]),
            ("edge case: empty ranking", [[], 3]),
            ("edge case: no relevant document", [[0, 0, 0], 0]),
            ("edge case: no relevant document retrieved", [[0, 0, 0, 0], 2]),
        ],
        hidden=[
            ("all relevant first", [[1, 1, 1, 0, 0], 3]),
            ("3 of 10 at the end", [[0] * 7 + [1] * 3, 10]),
            ("one of one at rank 4", [[0, 0, 0, 1], 1]),
            ("levels given, one never reached", [[0, 1, 0, 1], 3, [0.0, 0.5, 1.0]]),
            ("edge case: empty ranking, no relevant document", [[], 0]),
            ("one document, relevant", [[1], 1]),
        ],
        hint="write the default levels as i / 10, not 0.1 * i (0.1 * 7 is not 0.7), and "
        "return 0 at a level that is never reached",
    ),
    Value(
        "q6",
        IAP_B,
        low=0,
        high=1,
        hint="interpolate each topic at the 11 levels, then average level by level",
    ),
    Value(
        "q7",
        min(level for level, a, b in zip(LEVELS, IAP_A, IAP_B, strict=True) if b > a),
        low=0,
        high=1,
        hint="follow both curves from recall 0 to the right",
    ),
    Choice(
        "q8",
        "b" if A_FOR_FEW and B_FOR_ALL else "?",
        options="abcd",
        hint="compare the curves at low recall, then at high recall",
    ),
    Choice(
        "q10",
        "a",
        options="abcd",
        hint="the value at r is a maximum over a set that shrinks as r grows",
    ),
    Choice("q9", "b", options="abc", hint="what does interpolation do to a curve as recall grows?"),
]
