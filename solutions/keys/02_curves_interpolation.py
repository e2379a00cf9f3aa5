"""Answer key of exercises/02_curves_interpolation.ipynb (expected values computed by coursekit).

One query, 5 relevant documents, 4 of them in a ranking of 12. Hidden inputs (``hidden=``)
are used by the grader only.
"""

import coursekit as ck
from coursekit.exercises import Choice, Function, Value

RELS = [0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0]
N_RELEVANT = 5
IP = ck.interpolated_precision(RELS, N_RELEVANT)
LEVELS = ck.STANDARD_RECALL_LEVELS

QUESTIONS = [
    Value("q1", [ck.precision_at(RELS, k) for k in range(1, len(RELS) + 1)], low=0, high=1,
          hint="relevant documents among the first k, divided by k"),
    Value("q2", [ck.recall_at(RELS, k, N_RELEVANT) for k in range(1, len(RELS) + 1)],
          low=0, high=1, hint="relevant documents among the first k, divided by all relevant"),
    Value("q3", [float(v) for v in IP], low=0, high=1,
          hint="at level r: the best precision at any rank whose recall is at least r"),
    Value("q4", float(max(level for level, p in zip(LEVELS, IP, strict=True) if p >= 0.5)),
          low=0, high=1, hint="read the interpolated values from the right"),
    Value("q5", float(IP.mean()), low=0, high=1, hint="the mean of the 11 values of q3"),
    Choice("q6", "b", options="abc", hint="how many relevant documents does the ranking hold?"),
    Choice("q7", "a", options="abc", hint="interpolation takes a maximum over later ranks"),
    Function(
        "q8", name="interpolated_precision",
        reference="coursekit.ranked:interpolated_precision", points=2,
        cases=[("two of two found", [[1, 0, 1, 0], 2]),
               ("one relevant never retrieved", [[0, 1, 0, 1, 0], 3]),
               ("recall 0.7 = 7 of 10 reached exactly", [[1] * 7 + [0] * 3, 10]),
               ("edge case: empty ranking", [[], 3]),
               ("edge case: no relevant document", [[0, 0, 0], 0])],
        hidden=[("all relevant first", [[1, 1, 1, 0, 0], 3]),
                ("3 of 10 at the end", [[0] * 7 + [1] * 3, 10]),
                ("one of one at rank 4", [[0, 0, 0, 1], 1])],
        hint="compare recall levels on counts (10 * found >= level * 10 * n_relevant), not "
             "on floats: 0.1 * 7 is not 0.7"),
]
