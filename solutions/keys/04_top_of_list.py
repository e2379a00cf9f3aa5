"""Answer key of exercises/04_top_of_list.ipynb (expected values computed by coursekit).

Two engines S and T answer five queries u1 ... u5; the judgments of their first 10 results
are binary, and each query has its number of relevant documents in the collection. Hidden
inputs (``hidden=``) are used by the grader only.
"""

import numpy as np

import coursekit as ck
from coursekit.grading import Choice, Function, Value

N_RELEVANT = {"u1": 2, "u2": 5, "u3": 1, "u4": 8, "u5": 3}
SYSTEM_S = {
    "u1": [0, 1, 0, 0, 1, 0, 0, 0, 0, 0],
    "u2": [0, 0, 1, 1, 1, 0, 1, 0, 0, 0],
    "u3": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    "u4": [0, 1, 1, 1, 0, 1, 1, 0, 1, 0],
    "u5": [0, 0, 1, 1, 0, 1, 0, 0, 0, 0],
}
SYSTEM_T = {
    "u1": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    "u2": [1, 0, 0, 0, 0, 0, 0, 1, 0, 0],
    "u3": [0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
    "u4": [1, 0, 0, 0, 1, 0, 0, 0, 0, 0],
    "u5": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
}
QUERIES = list(N_RELEVANT)

# q3: the cut-offs where precision and recall of S on u4 meet, leaving out those where both
# are 0 (read on the chart); exactly one, k = R
TABLE_U4 = ck.pr_table(SYSTEM_S["u4"], N_RELEVANT["u4"])
MEET = [
    int(k)
    for k, p, r in zip(TABLE_U4["k"], TABLE_U4["precision"], TABLE_U4["recall"], strict=True)
    if p > 0 and np.isclose(p, r)
]
assert len(MEET) == 1, MEET

MRR = [ck.mean_reciprocal_rank([s[q] for q in QUERIES]) for s in (SYSTEM_S, SYSTEM_T)]
P10 = [float(np.mean([ck.precision_at(s[q], 10) for q in QUERIES])) for s in (SYSTEM_S, SYSTEM_T)]
# q7: T for the navigational user (higher MRR), S for the page reader (higher P@10) -> "c"
LETTER7 = {(True, True): "c", (False, False): "b"}.get((MRR[1] > MRR[0], P10[0] > P10[1]), "?")
# q8: the best P@10 on u5 over all rankings: every relevant document in the first ranks
BEST_U5 = [1] * N_RELEVANT["u5"] + [0] * (10 - N_RELEVANT["u5"])

QUESTIONS = [
    Value(
        "q1",
        [ck.precision_at(SYSTEM_S[q], 5) for q in QUERIES],
        low=0,
        high=1,
        hint="relevant documents among the first 5, divided by 5",
    ),
    Value(
        "q2",
        [ck.r_precision(SYSTEM_S[q], N_RELEVANT[q]) for q in QUERIES],
        low=0,
        high=1,
        hint="the precision at rank R, with R the number of relevant documents of the query",
    ),
    Value(
        "q3",
        MEET[0],
        low=1,
        high=10,
        hint="precision divides by k, recall by R: when are the two denominators equal?",
    ),
    Value(
        "q4",
        [ck.reciprocal_rank(SYSTEM_S[q]) for q in QUERIES],
        low=0,
        high=1,
        hint="1 / rank of the first relevant document, 0 if there is none",
    ),
    Value("q5", MRR, low=0, high=1, hint="the mean of the five reciprocal ranks of an engine"),
    Choice(
        "q7",
        LETTER7,
        options="abcd",
        hint="which measure follows each user: the first relevant result, or the whole first page?",
    ),
    Value(
        "q8",
        ck.precision_at(BEST_U5, 10),
        low=0,
        high=1,
        hint="the best ranking puts every relevant document of u5 first",
    ),
    Choice(
        "q9",
        "b",
        options="abcd",
        hint="see what reciprocal_rank returns on a list without any relevant document",
    ),
    Function(
        "q10",
        name="r_precision",
        reference="coursekit:r_precision",
        points=2,
        cases=[
            ("R = 3, two of them in the first 3", [[1, 0, 1, 1, 0], 3]),
            ("R = 4, list of 6", [[0, 1, 1, 0, 1, 1], 4]),
            ("list shorter than R: padded with non-relevant", [[1, 1], 5]),
            ("graded judgments: a grade >= 1 is relevant", [[2, 0, 1, 3], 3]),
            ("edge case: empty ranking", [[], 2]),
            ("edge case: no relevant document", [[0, 0, 0], 0]),
            ("edge case: no relevant document retrieved", [[0, 0, 0, 0], 2]),
        ],
        hidden=[
            ("R = 1, relevant at rank 1", [[1, 0, 0], 1]),
            ("R = 1, relevant at rank 2", [[0, 1], 1]),
            ("relevant only below rank R", [[0, 0, 1, 1], 2]),
            ("R = 10, long list", [[1, 0] * 10, 10]),
            ("edge case: empty ranking, no relevant document", [[], 0]),
        ],
        hint="P@R: divide by R even when the list is shorter than R; 0 when R is 0",
    ),
    Choice(
        "q6", "c", options="abcd", hint="R-precision here is P@4; what happens to P@5, RR and AP?"
    ),
]
