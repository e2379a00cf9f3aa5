"""Answer key of exercises/01_precision_recall.ipynb (expected values computed by coursekit).

The example: a collection of 40 documents; for one query, 8 are relevant and the system returns
10. Hidden inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.grading import Choice, Function, Value

N_DOCS = 40
RELEVANT = ["d02", "d05", "d07", "d11", "d13", "d17", "d19", "d23"]
RETRIEVED = ["d01", "d02", "d03", "d05", "d07", "d08", "d13", "d21", "d23", "d30"]
P = ck.precision(RETRIEVED, RELEVANT)
R = ck.recall(RETRIEVED, RELEVANT)

QUESTIONS = [
    Value(
        "q1",
        list(ck.confusion(RETRIEVED, RELEVANT, N_DOCS)),
        low=0,
        high=N_DOCS,
        hint="TP = retrieved and relevant; TN = neither; the cells add up to the collection",
    ),
    Value("q2", P, low=0, high=1, hint="relevant retrieved / retrieved"),
    Value("q3", R, low=0, high=1, hint="relevant retrieved / relevant"),
    Value(
        "q4",
        ck.accuracy(RETRIEVED, RELEVANT, N_DOCS),
        low=0,
        high=1,
        hint="(TP + TN) / size of the collection",
    ),
    Value("q5", ck.f_measure(P, R), low=0, high=1, hint="harmonic mean: 2PR / (P + R)"),
    Value(
        "q6",
        ck.f_measure(P, R, beta=2),
        low=0,
        high=1,
        hint="F_beta = (1 + beta^2) P R / (beta^2 P + R), with beta = 2",
    ),
    Value(
        "q7", ck.accuracy([], RELEVANT, N_DOCS), low=0, high=1, hint="an empty answer: TP = FP = 0"
    ),
    Choice(
        "q8",
        "b",
        options="abcd",
        hint="what does returning every document guarantee, and what does it cost?",
    ),
    Choice("q9", "c", options="abc", hint="which user cannot afford to miss a document?"),
    Function(
        "q10",
        name="f_measure",
        reference="coursekit:f_measure",
        points=2,
        cases=[
            ("P = 0.5, R = 0.5", [0.5, 0.5]),
            ("P = 0.6, R = 0.3", [0.6, 0.3]),
            ("beta = 2", [0.4, 0.8, 2.0]),
            ("beta = 0.5", [0.4, 0.8, 0.5]),
            ("edge case: P = R = 0", [0.0, 0.0]),
            ("edge case: R = 0", [0.7, 0.0]),
        ],
        hidden=[
            ("P = 1, R = 1", [1.0, 1.0]),
            ("beta = 3", [0.25, 0.9, 3.0]),
            ("edge case: P = 0, beta = 2", [0.0, 0.6, 2.0]),
            ("tiny values", [1e-3, 2e-3, 1.0]),
        ],
        hint="F_beta is 0 when precision or recall is 0",
    ),
]
