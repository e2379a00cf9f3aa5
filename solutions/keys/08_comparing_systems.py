"""Answer key of exercises/08_comparing_systems.ipynb (expected values computed by coursekit).

On the course's own collection (coursekit.course.load_collection()): systems ``tfidf`` (A)
and ``bm25_b0_stem`` (B), every topic of the qrels evaluated (a topic a run does not answer
counts 0). Hidden inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit import course
from coursekit.grading import Choice, Function, Value

COLLECTION = course.load_collection()
SYSTEMS = sorted(COLLECTION.runs)


def _evaluate(system, measures=("AP", "P@5")):
    return ck.evaluate(
        COLLECTION.runs[system], COLLECTION.qrels, list(measures), missing_as_zero=True
    )


A, B = _evaluate("tfidf"), _evaluate("bm25_b0_stem")
AP_A, AP_B = A.table()["AP"], B.table()["AP"]
MEANS = {s: _evaluate(s, ("AP", "nDCG@10")).mean for s in SYSTEMS}
BY_MAP = sorted(SYSTEMS, key=lambda s: -MEANS[s]["AP"])
BY_NDCG = sorted(SYSTEMS, key=lambda s: -MEANS[s]["nDCG@10"])

QUESTIONS = [
    Value(
        "q1",
        [float(A.mean["AP"]), float(B.mean["AP"])],
        low=0,
        high=1,
        hint="evaluate each run with missing_as_zero=True, then the mean of AP",
    ),
    Value(
        "q2",
        ck.gain_percent(float(B.mean["AP"]), float(A.mean["AP"])),
        low=-100,
        hint="100 * (B - A) / A, with A the baseline",
    ),
    Value(
        "q3",
        int((AP_B > AP_A).sum()),
        low=0,
        high=len(AP_A),
        hint="compare the two AP values topic by topic",
    ),
    Value(
        "q4",
        ck.paired_t_test(AP_B, AP_A).pvalue,
        low=0,
        high=1,
        hint="a paired test: the same topics, in the same order",
    ),
    Value(
        "q5",
        ck.wilcoxon_test(AP_B, AP_A).pvalue,
        low=0,
        high=1,
        hint="signed ranks of the per-topic differences",
    ),
    Choice("q6", "b", options="abcd", hint="what is assumed when a p-value is computed?"),
    Value(
        "q7",
        ck.kendall_tau(BY_MAP, BY_NDCG),
        low=-1,
        high=1,
        hint="two rankings of the same five systems",
    ),
    Choice("q8", "c", options="abc", hint="who wrote the judged pool, and who did not?"),
    Function(
        "q9",
        name="gain_percent",
        reference="coursekit:gain_percent",
        points=2,
        cases=[
            ("a better system", [0.42, 0.40]),
            ("a worse system", [0.30, 0.40]),
            ("equal scores", [0.5, 0.5]),
            ("edge case: A scores 0", [0.0, 0.25]),
        ],
        hidden=[("a small gain", [0.3333, 0.3125]), ("a large gain", [0.9, 0.1])],
        hint="the gain is relative to the second argument, the baseline",
    ),
]
