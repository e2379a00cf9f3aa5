"""Answer key of exercises/05_dcg_ndcg.ipynb (expected values computed by coursekit).

One query judged on a 0-3 scale; a system's first 8 answers. Hidden inputs (``hidden=``) are
used by the grader only.
"""

import coursekit as ck
from coursekit.exercises import Choice, Function, Value

GAINS = [2, 3, 0, 1, 0, 3, 0, 2]
JUDGED = [3, 3, 3, 2, 2, 1, 1, 0, 0]  # every judged grade of the query
NDCG_AT = [ck.ndcg(GAINS, k, ideal=JUDGED) for k in range(1, len(GAINS) + 1)]

QUESTIONS = [
    Value("q1", [float(v) for v in ck.cumulative_gain(GAINS)], low=0,
          hint="the running sum of the grades"),
    Value("q2", [float(v) for v in ck.discounted_gains(GAINS)], low=0,
          hint="grade / log2(rank + 1)"),
    Value("q3", ck.dcg(GAINS, 5), low=0, hint="the sum of the first 5 discounted gains"),
    Value("q4", ck.dcg(ck.ideal_gains(GAINS, ideal=JUDGED), 5), low=0,
          hint="the ideal ranking sorts every judged grade, retrieved or not"),
    Value("q5", ck.ndcg(GAINS, 5, ideal=JUDGED), low=0, high=1, hint="q3 / q4"),
    Value("q6", ck.ndcg(GAINS, 5), low=0, high=1,
          hint="this time the ideal reorders only the 8 retrieved grades"),
    Value("q7", next(k for k, v in enumerate(NDCG_AT, start=1) if v >= 0.6), low=1,
          high=len(GAINS), hint="compute nDCG@k for k = 1, 2, ... with the full ideal"),
    Choice("q8", "a", options="abc",
           hint="which ideal has the larger DCG, and where does it sit in the fraction?"),
    Function(
        "q9", name="dcg", reference="coursekit.graded:dcg", points=2,
        cases=[("the whole list", [[3, 2, 3, 0, 1, 2], None]),
               ("cut-off 3", [[3, 2, 3, 0, 1, 2], 3]),
               ("binary grades", [[0, 1, 1], None]),
               ("edge case: cut-off beyond the list", [[1, 2], 10]),
               ("edge case: empty ranking", [[], None]),
               ("edge case: all gains 0", [[0, 0, 0], 2])],
        hidden=[("one document", [[3], 1]), ("late gain", [[0, 0, 0, 0, 3], None])],
        hint="rank i is discounted by log2(i + 1); k=None means the whole list"),
]
