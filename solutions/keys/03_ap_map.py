"""Answer key of exercises/03_ap_map.ipynb (expected values computed by coursekit).

Three queries of one system, binary judgments. Hidden inputs (``hidden=``) are used by the
grader only.
"""

import coursekit as ck
from coursekit.exercises import Choice, Function, Value

QUERIES = {
    "q1": ([1, 0, 0, 1, 1, 0, 0, 0, 1, 0], 4),
    "q2": ([0, 0, 1, 0, 1, 0, 0, 0, 0, 0], 5),
    "q3": ([0, 1, 0, 0, 0, 0, 0, 0, 0, 0], 1),
}
APS = [ck.average_precision(rels, n) for rels, n in QUERIES.values()]
SWAPPED = [0, 1, 0, 1, 1, 0, 0, 0, 1, 0]  # query q1 with ranks 1 and 2 exchanged

QUESTIONS = [
    Value("q1", APS[0], low=0, high=1,
          hint="average the precision at the rank of each relevant document"),
    Value("q2", APS[1], low=0, high=1,
          hint="a relevant document that is never retrieved adds a precision of 0"),
    Value("q3", APS, low=0, high=1, hint="the AP of each query, in the order q1, q2, q3"),
    Value("q4", ck.mean_average_precision(list(QUERIES.values())), low=0, high=1,
          hint="the arithmetic mean of the three APs"),
    Value("q5", ck.geometric_mean_average_precision(list(QUERIES.values())), low=0, high=1,
          hint="the geometric mean of the three APs (see the chapter for the small epsilon)"),
    Value("q6", ck.average_precision(SWAPPED, 4) - APS[0], low=-1, high=1,
          hint="recompute the AP of query q1 after the swap, then subtract"),
    Choice("q7", "b", options="abc", hint="which mean is pulled down hardest by one small value?"),
    Function(
        "q8", name="average_precision", reference="coursekit.ranked:average_precision",
        points=2,
        cases=[("two relevant found", [[1, 0, 1], 2]),
               ("one relevant missed", [[0, 1, 0, 1], 3]),
               ("graded relevance counts as relevant", [[2, 0, 1], 2]),
               ("edge case: empty ranking", [[], 3]),
               ("edge case: no relevant document", [[0, 0, 0], 0])],
        hidden=[("all relevant first", [[1, 1, 1, 0, 0], 3]),
                ("relevant last", [[0, 0, 0, 0, 1], 1]),
                ("nothing relevant retrieved", [[0, 0, 0], 4])],
        hint="divide by n_relevant (not by the relevant documents retrieved); a grade >= 1 "
             "is relevant"),
]
