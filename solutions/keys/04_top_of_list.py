"""Answer key of exercises/04_top_of_list.ipynb (expected values computed by coursekit).

Two systems on four queries, binary judgments of their first 10 answers. Hidden inputs
(``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.exercises import Choice, Function, Value

N_RELEVANT = {"a": 3, "b": 6, "c": 2, "d": 4}
X = {"a": [0, 1, 1, 0, 0, 0, 1, 0, 0, 0], "b": [1, 1, 0, 1, 0, 1, 0, 0, 1, 0],
     "c": [0, 0, 0, 0, 0, 0, 1, 0, 0, 0], "d": [0, 0, 1, 1, 0, 0, 0, 1, 0, 0]}
Y = {"a": [1, 0, 0, 0, 0, 0, 0, 0, 0, 1], "b": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
     "c": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], "d": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
MRR = {name: ck.mean_reciprocal_rank(list(run.values())) for name, run in (("x", X), ("y", Y))}
P10 = {name: sum(ck.precision_at(r, 10) for r in run.values()) / 4
       for name, run in (("x", X), ("y", Y))}

QUESTIONS = [
    Value("q1", [ck.precision_at(X[q], 5) for q in "abcd"], low=0, high=1,
          hint="relevant among the first 5, divided by 5"),
    Value("q2", [ck.r_precision(X[q], N_RELEVANT[q]) for q in "abcd"], low=0, high=1,
          hint="precision at rank R, with R the number of relevant documents of the query"),
    Value("q3", [ck.reciprocal_rank(X[q]) for q in "abcd"], low=0, high=1,
          hint="1 / rank of the first relevant document"),
    Value("q4", [MRR["x"], MRR["y"]], low=0, high=1, hint="the mean of the four RRs"),
    Value("q5", [P10["x"], P10["y"]], low=0, high=1, hint="mean over the four queries"),
    Choice("q6", "y" if MRR["y"] > MRR["x"] else "x", options="xy",
           hint="the user stops at the first relevant answer"),
    Choice("q7", "x" if P10["x"] > P10["y"] else "y", options="xy",
           hint="the user reads the whole first page"),
    Choice("q8", "c", options="abc", hint="at rank R, how do the two denominators compare?"),
    Function(
        "q9", name="reciprocal_rank", reference="coursekit.ranked:reciprocal_rank", points=2,
        cases=[("first relevant at rank 3", [[0, 0, 1, 1]]),
               ("relevant at rank 1", [[1, 0, 0]]), ("graded judgments", [[0, 2, 1]]),
               ("edge case: empty ranking", [[]]),
               ("edge case: nothing relevant retrieved", [[0, 0, 0]])],
        hidden=[("first relevant at rank 10", [[0] * 9 + [1]]), ("one document", [[1]])],
        hint="0 when no relevant document is retrieved"),
]
