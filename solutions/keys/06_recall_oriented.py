"""Answer key of exercises/06_recall_oriented.ipynb (expected values computed by coursekit).

A systematic review: one query with 6 relevant studies; three systems A, B, C return 25
documents each, given by the ranks of the relevant ones; the reviewers read N_max = 25.
Hidden inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.grading import Choice, Function, Value

N_RELEVANT, N_MAX = 6, 25
FOUND_AT = {"A": [1, 2, 4], "B": [3, 7, 11, 16, 22], "C": [2, 19, 21, 23, 24, 25]}
SYSTEMS = list(FOUND_AT)
RELS = {s: ck.rels_from_ranks(r, N_MAX) for s, r in FOUND_AT.items()}
PARTS_B = ck.mor_parts(RELS["B"], N_RELEVANT, N_MAX)
COLLECTIONS = (400, 40)  # two collection sizes for Rnorm
CUTS = range(1, 41)  # the N_max of the curve
PRES_CURVE = {s: [ck.pres(RELS[s], N_RELEVANT, m) for m in CUTS] for s in SYSTEMS}

# q7: the measure (among AP, PRES@25, MOR@25, Rnorm with N = 400) that puts C last
SCORES = {
    "a": {s: ck.average_precision(RELS[s], N_RELEVANT) for s in SYSTEMS},
    "b": {s: ck.pres(RELS[s], N_RELEVANT, N_MAX) for s in SYSTEMS},
    "c": {s: ck.mor(RELS[s], N_RELEVANT, N_MAX) for s in SYSTEMS},
    "d": {s: ck.rnorm(RELS[s], N_RELEVANT, COLLECTIONS[0]) for s in SYSTEMS},
}
C_LAST = [letter for letter, by in SCORES.items() if min(by, key=by.get) == "C"]
assert len(C_LAST) == 1, C_LAST

QUESTIONS = [
    Value(
        "q1",
        [ck.recall_at(RELS[s], N_MAX, N_RELEVANT) for s in SYSTEMS],
        low=0,
        high=1,
        hint="relevant documents in the first 25, divided by all 6",
    ),
    Value(
        "q2",
        [SCORES["a"][s] for s in SYSTEMS],
        low=0,
        high=1,
        hint="precision at each relevant rank, summed, divided by 6 (missing ones add 0)",
    ),
    Value(
        "q3",
        [SCORES["b"][s] for s in SYSTEMS],
        low=0,
        high=1,
        hint="a missing relevant document goes just after N_max, in the worst order",
    ),
    Value(
        "q4",
        [PARTS_B.h, PARTS_B.w],
        low=0,
        high=N_MAX,
        hint="h counts relevant documents in the first N_max; w is a rank",
    ),
    Value(
        "q5",
        [SCORES["c"][s] for s in SYSTEMS],
        low=0,
        high=1,
        hint="ck.mor, or build it from h, w and AP as in the chapter",
    ),
    Value(
        "q6",
        [ck.rnorm(RELS[s], N_RELEVANT, size) for size in COLLECTIONS for s in ("B", "C")],
        low=0,
        high=1,
        hint="the missing relevant documents take the last ranks of the whole collection",
    ),
    Choice(
        "q7", C_LAST[0], options="abcd", hint="compare the three systems' values under each measure"
    ),
    Value(
        "q8",
        next(m for m, a, b in zip(CUTS, PRES_CURVE["A"], PRES_CURVE["B"], strict=True) if b > a),
        low=1,
        high=max(CUTS),
        hint="compare the two curves N_max by N_max, from the left",
    ),
    Choice(
        "q9",
        "b",
        options="abc",
        hint="which of MOR's three ingredients decides first, once h is the same?",
    ),
    Function(
        "q10",
        name="pres",
        reference="coursekit:pres",
        points=2,
        cases=[
            ("all relevant first", [[1, 1, 0, 0], 2, 4]),
            ("one found, one missing", [[0, 1, 0, 0], 2, 4]),
            ("found at the last rank read", [[0, 0, 0, 1], 1, 4]),
            ("a relevant document after N_max counts as missing", [[1, 0, 0, 1], 2, 3]),
            ("graded judgments: grade 2 is relevant too", [[2, 0, 1, 0, 0], 3, 5]),
            ("edge case: nothing found", [[0, 0, 0, 0], 3, 4]),
            ("edge case: empty ranking", [[], 2, 5]),
            ("edge case: no relevant document", [[0, 0, 0], 0, 3]),
        ],
        hidden=[
            ("system B of the example", [RELS["B"], N_RELEVANT, N_MAX]),
            ("more relevant documents than N_max", [[1, 1, 0], 5, 3]),
            ("ranking shorter than N_max", [[0, 1], 3, 10]),
            ("edge case: one relevant, found first", [[1], 1, 1]),
        ],
        hint="found documents keep their rank; if h are found, the missing ones get ranks "
        "N_max + h + 1, ..., N_max + n; 0 when n_relevant is 0",
    ),
]
