"""Answer key of exercises/05_dcg_ndcg.ipynb (expected values computed by coursekit).

One query judged on a 0-3 scale (13 judged documents), two systems A and B returning 10
documents each; unjudged documents count as grade 0. DCG is trec_eval's form (``"trec"``,
grade / log2(rank + 1)) throughout. Hidden inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.grading import Choice, Function, Value

QRELS = {
    "t01": 3,
    "t02": 0,
    "t03": 2,
    "t04": 1,
    "t05": 3,
    "t06": 0,
    "t07": 1,
    "t08": 2,
    "t09": 0,
    "t10": 1,
    "t11": 2,
    "t12": 0,
    "t13": 1,
}
RUN_A = ["t05", "t02", "t03", "t09", "t07", "t12", "t15", "t06", "t04", "t14"]
RUN_B = ["t09", "t11", "t01", "t02", "t08", "t13", "t03", "t10", "t04", "t05"]
JUDGED = list(QRELS.values())  # every judged grade of the query, retrieved or not
GAINS_A, GAINS_B = ck.judge(RUN_A, QRELS), ck.judge(RUN_B, QRELS)
DEPTH = len(RUN_A)
CURVE_A = [ck.ndcg(GAINS_A, k, ideal=JUDGED) for k in range(1, DEPTH + 1)]
CURVE_B = [ck.ndcg(GAINS_B, k, ideal=JUDGED) for k in range(1, DEPTH + 1)]
RELEVANT = {doc for doc, grade in QRELS.items() if grade >= 1}

# q9: which system each reader prefers (nDCG@3 for the first, nDCG@10 for the second)
TOP3 = "A" if CURVE_A[2] > CURVE_B[2] else "B"
TOP10 = "A" if CURVE_A[-1] > CURVE_B[-1] else "B"
LETTER_9 = {("A", "A"): "a", ("B", "B"): "b", ("A", "B"): "c", ("B", "A"): "d"}[TOP3, TOP10]

QUESTIONS = [
    Value(
        "q1",
        GAINS_A,
        low=0,
        high=3,
        hint="look each retrieved document up in qrels; an unjudged document has grade 0",
    ),
    Value(
        "q2",
        [float(v) for v in ck.dcg_curve(GAINS_A)],
        low=0,
        hint="a running sum of grade / log2(rank + 1)",
    ),
    Value(
        "q3",
        sorted(RELEVANT - set(RUN_A)),
        hint="grade at least 1 in qrels, and absent from run_a; sort the ids",
    ),
    Value(
        "q4",
        ck.dcg(ck.ideal_gains(GAINS_A, ideal=JUDGED), DEPTH),
        low=0,
        hint="sort every judged grade from highest to lowest, then take DCG@10 of that list",
    ),
    Value(
        "q5",
        [ck.ndcg(GAINS_A, DEPTH, ideal=JUDGED), ck.ndcg(GAINS_B, DEPTH, ideal=JUDGED)],
        low=0,
        high=1,
        hint="each system's DCG@10 divided by the same ideal DCG@10",
    ),
    Value(
        "q6",
        ck.ndcg(GAINS_A, DEPTH),
        low=0,
        high=1,
        hint="the ideal is now A's own 10 grades sorted from highest to lowest",
    ),
    Value(
        "q7",
        CURVE_B,
        low=0,
        high=1,
        hint="for each k, DCG@k of B divided by DCG@k of the ideal built from all judgments",
    ),
    Value(
        "q8",
        next(k for k, (a, b) in enumerate(zip(CURVE_A, CURVE_B, strict=True), start=1) if b > a),
        low=1,
        high=DEPTH,
        hint="compare the two curves cut-off by cut-off, from k = 1",
    ),
    Choice(
        "q9",
        LETTER_9,
        options="abcd",
        hint="the first reader sees nDCG@3, the second nDCG@10: compare the curves there",
    ),
    Function(
        "q10",
        name="ndcg",
        reference="coursekit:ndcg",
        points=2,
        cases=[
            ("the whole list, its own ideal", [[3, 2, 3, 0, 1, 2], None, None]),
            ("cut-off 3, all judgments", [[2, 0, 1, 3], 3, [3, 3, 2, 1, 1, 0]]),
            ("a relevant document missed", [[0, 1, 2], None, [2, 2, 1, 0]]),
            ("edge case: cut-off beyond the list", [[1, 2], 5, [2, 2, 1]]),
            ("edge case: empty ranking", [[], None, [2, 1]]),
            ("edge case: all gains 0", [[0, 0, 0], 2, [0, 0, 0, 0]]),
            ("edge case: a negative grade counts as 0", [[2, -1, 1], None, [2, 1, -1]]),
            ("edge case: ties, already ideal", [[1, 1, 1], 2, [1, 1, 1]]),
        ],
        hidden=[
            ("one document", [[3], 1, [3, 3]]),
            ("late gain", [[0, 0, 0, 0, 3], None, [3, 0, 0, 0, 0]]),
            ("binary grades", [[1, 0, 1, 0, 1], 4, [1, 1, 1, 1]]),
            ("edge case: no ideal and no gain", [[0, 0], None, None]),
            ("edge case: empty ranking, empty ideal", [[], 3, []]),
        ],
        hint="DCG with grade / log2(rank + 1) for the list and for the sorted ideal, both cut "
        "at k; 0 when the ideal DCG is 0; negative grades gain nothing",
    ),
]
