"""Answer key of exercises/03_ap_map.ipynb (expected values computed by coursekit).

Three topics k1 (5 relevant documents), k2 (2) and k3 (4). System X is a run (a score per
retrieved document) judged against the qrels; system Y is given as judged rankings. Hidden
inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.grading import Choice, Function, Value
from coursekit.trec import as_run_frame, sort_run

QRELS = {
    "k1": {"d03": 1, "d07": 1, "d12": 1, "d20": 1, "d25": 1},
    "k2": {"d02": 1, "d09": 1},
    "k3": {"d05": 1, "d11": 1, "d14": 1, "d18": 1},
}
RUN_X = {
    "k1": {
        "d01": 8.4,
        "d03": 6.8,
        "d04": 7.2,
        "d07": 9.1,
        "d09": 6.1,
        "d12": 7.9,
        "d13": 4.9,
        "d15": 4.0,
        "d20": 5.5,
        "d22": 3.3,
    },
    "k2": {
        "d02": 11.5,
        "d05": 12.0,
        "d06": 4.4,
        "d08": 7.5,
        "d09": 9.0,
        "d11": 8.7,
        "d17": 10.2,
        "d21": 6.0,
        "d27": 5.2,
        "d30": 9.8,
    },
    "k3": {
        "d01": 0.42,
        "d02": 0.88,
        "d06": 0.55,
        "d08": 0.77,
        "d13": 0.64,
        "d14": 0.61,
        "d16": 0.91,
        "d21": 0.95,
        "d27": 0.70,
        "d30": 0.80,
    },
}
SYSTEM_Y = {
    "k1": [1, 0, 0, 1, 0, 1, 0, 0, 0, 0],
    "k2": [0, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    "k3": [0, 1, 0, 1, 0, 0, 0, 0, 0, 0],
}

TOPICS = sorted(QRELS)
ORDERED = sort_run(as_run_frame(RUN_X))  # trec_eval's order: score descending
RANKING = {q: ORDERED.loc[ORDERED["query_id"] == q, "doc_id"].astype(str).tolist() for q in TOPICS}
RELS_X = {q: ck.judge(RANKING[q], QRELS[q]) for q in TOPICS}
N_RELEVANT = {q: sum(grade >= 1 for grade in QRELS[q].values()) for q in TOPICS}
AP_X = ck.evaluate(RUN_X, QRELS, ["AP"]).table()["AP"].loc[TOPICS].tolist()
PAIRS_X = [(RELS_X[q], N_RELEVANT[q]) for q in TOPICS]
PAIRS_Y = [(SYSTEM_Y[q], N_RELEVANT[q]) for q in TOPICS]
MAP = [ck.mean_average_precision(PAIRS_X), ck.mean_average_precision(PAIRS_Y)]
GMAP = [ck.geometric_mean_average_precision(PAIRS_X), ck.geometric_mean_average_precision(PAIRS_Y)]
AP_Y = [ck.average_precision(rels, n) for rels, n in PAIRS_Y]
# q7: the topics on which Y's AP is higher than X's (read on the chart); exactly one
Y_WINS = [q for q, x, y in zip(TOPICS, AP_X, AP_Y, strict=True) if y > x]
assert len(Y_WINS) == 1, Y_WINS

# q8: MAP prefers X and GMAP prefers Y -> "b" (the reason: X nearly fails on one topic)
DISAGREE = MAP[0] > MAP[1] and GMAP[1] > GMAP[0]

# q9: three changes to X's ranking of k1; the letter of the one that raises AP most
K1 = RELS_X["k1"]
CHANGES = {
    "a": K1[:5] + [K1[6], K1[5]] + K1[7:],  # ranks 6 and 7 swapped
    "b": K1 + [1],  # the missing relevant document added at rank 11
    "c": K1[:1] + K1[2:],  # the document at rank 2 removed
}
GAIN = {letter: ck.average_precision(rels, N_RELEVANT["k1"]) for letter, rels in CHANGES.items()}

QUESTIONS = [
    Value("q1", RANKING["k1"], hint="sort the documents by score, highest first"),
    Value(
        "q2",
        ck.average_precision(RELS_X["k1"], N_RELEVANT["k1"]),
        low=0,
        high=1,
        hint="the precision at each relevant rank, summed, divided by all the relevant "
        "documents of the topic",
    ),
    Value(
        "q3",
        ck.average_precision(RELS_X["k1"], sum(RELS_X["k1"])),
        low=0,
        high=1,
        # the divisor of the slides' MAP example (the relevant documents found), a slip of that
        # example: every source's definition, Labatut's m_j included, divides by all of them
        hint="the same sum as in q2, divided by the relevant documents X retrieved",
    ),
    Value(
        "q4", AP_X, low=0, high=1, hint="a relevant document never retrieved adds a precision of 0"
    ),
    Value("q5", MAP, low=0, high=1, hint="the arithmetic mean of a system's three APs"),
    Value(
        "q6",
        GMAP,
        low=0,
        high=1,
        hint="the cube root of the product of a system's three APs (none of them is 0)",
    ),
    Value("q7", Y_WINS[0], hint="look for the bar above the zero line"),
    Choice(
        "q8",
        "b" if DISAGREE else "?",
        options="abcd",
        hint="which mean is pulled down hardest by one small value?",
    ),
    Choice(
        "q9",
        max(GAIN, key=GAIN.get),
        options="abc",
        hint="recompute the AP of k1 after each change",
    ),
    Function(
        "q10",
        name="average_precision",
        reference="coursekit:average_precision",
        points=2,
        cases=[
            ("3 of 3 found", [[1, 0, 1, 0, 0, 1], 3]),
            ("2 of 4 found", [[0, 1, 0, 0, 1], 4]),
            ("graded judgments: a grade >= 1 is relevant", [[0, 2, 1, 0], 2]),
            ("edge case: empty ranking", [[], 3]),
            ("edge case: no relevant document", [[0, 0, 0], 0]),
            ("edge case: no relevant document retrieved", [[0, 0, 0, 0], 2]),
        ],
        hidden=[
            ("all relevant first", [[1, 1, 1, 0, 0], 3]),
            ("relevant last", [[0, 0, 0, 0, 1], 1]),
            ("one of five, at rank 1", [[1, 0, 0, 0], 5]),
            ("edge case: empty ranking, no relevant document", [[], 0]),
            ("a long list", [[1, 0] * 20, 25]),
        ],
        hint="divide by n_relevant, not by the relevant documents retrieved; return 0 when "
        "n_relevant is 0",
    ),
]
