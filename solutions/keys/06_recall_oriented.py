"""Answer key of exercises/06_recall_oriented.ipynb (expected values computed by coursekit).

One query with 7 relevant documents in a collection of 200; two systems' first 20 answers.
Hidden inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.exercises import Choice, Function, Value

N_RELEVANT, N_MAX, N_DOCS = 7, 20, 200
A = [1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
B = [0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]
PRES = [ck.pres(r, N_RELEVANT, N_MAX) for r in (A, B)]
AP = [ck.average_precision(r, N_RELEVANT) for r in (A, B)]

QUESTIONS = [
    Value("q1", [ck.recall_at(r, N_MAX, N_RELEVANT) for r in (A, B)], low=0, high=1,
          hint="relevant documents in the first 20, divided by 7"),
    Value("q2", AP, low=0, high=1, hint="AP with n_relevant = 7"),
    Value("q3", PRES, low=0, high=1,
          hint="the i-th relevant document, if missing from the first N_max, gets N_max + i"),
    Value("q4", [ck.mor(r, N_RELEVANT, N_MAX) for r in (A, B)], low=0, high=1,
          hint="see the chapter: h, w and AP combined"),
    Value("q5", ck.rnorm(A, N_RELEVANT, N_DOCS), low=0, high=1,
          hint="the missing relevant documents go to the worst ranks of the 200"),
    Choice("q6", "a" if AP[0] > AP[1] else "b", options="ab",
           hint="compare the values of q2"),
    Choice("q7", "a" if PRES[0] > PRES[1] else "b", options="ab",
           hint="compare the values of q3"),
    Choice("q8", "b", options="abc", hint="what rank does PRES give a missing document?"),
    Function(
        "q9", name="pres", reference="coursekit.recall:pres", points=2,
        cases=[("all found first", [[1, 1, 0, 0], 2, 4]),
               ("one found, one missing", [[0, 1, 0, 0], 2, 4]),
               ("found late", [[0, 0, 0, 1], 1, 4]),
               ("edge case: nothing found", [[0, 0, 0, 0], 3, 4]),
               ("edge case: empty ranking", [[], 2, 5])],
        hidden=[("the course's example size", [[1, 0, 1, 0, 0, 1] + [0] * 14, 5, 20]),
                ("more relevant than N_max", [[1, 1, 0], 5, 3])],
        hint="found documents keep their rank; the i-th relevant document, if missing, gets "
             "N_max + i (i counted over all n, found ones first)"),
]
