"""Answer key of exercises/08_comparing_systems.ipynb (expected values computed by coursekit).

On the course's own collection (coursekit.course.load_collection()): as in the lecture slides,
A is the new system, ``bm25_b0_stem``, and B the reference, ``tfidf``; every topic of the qrels
evaluated (a topic a run does not answer counts 0). Hidden inputs (``hidden=``) are used by the
grader only.
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


A, B = _evaluate("bm25_b0_stem"), _evaluate("tfidf")
AP_A, AP_B = A.table()["AP"], B.table()["AP"]
MEANS = {s: _evaluate(s, ("AP", "nDCG@10")).mean for s in SYSTEMS}
BY_MAP = sorted(SYSTEMS, key=lambda s: -MEANS[s]["AP"])
BY_NDCG = sorted(SYSTEMS, key=lambda s: -MEANS[s]["nDCG@10"])

# q5: Holm and Bonferroni at 0.05 on four p-values, counted by hand in the solution
HOLM_P = [0.011, 0.020, 0.004, 0.041]
HOLM_COUNTS = [int((ck.holm(HOLM_P) <= 0.05).sum()), sum(4 * p <= 0.05 for p in HOLM_P)]
assert HOLM_COUNTS == [4, 2], HOLM_COUNTS

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
        ck.gain_percent(float(A.mean["AP"]), float(B.mean["AP"])),
        low=-100,
        hint="100 * (A - B) / B, with B the reference",
    ),
    Value(
        "q3",
        int((AP_A > AP_B).sum()),
        low=0,
        high=len(AP_A),
        hint="compare the two AP values topic by topic",
    ),
    Value(
        "q4",
        ck.paired_t_test(AP_A, AP_B).pvalue,
        low=0,
        high=1,
        hint="a paired test: the same topics, in the same order",
    ),
    Choice("q6", "b", options="abcd", hint="what is assumed when a p-value is computed?"),
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
    Value("q5", HOLM_COUNTS, hint="Holm: sorted p-values times 4, 3, 2, 1; Bonferroni: times 4"),
    Choice("q10", "b", options="abc", hint="t = d_z * sqrt(n_Q): compute it for 50 topics"),
    Value(
        "q7",
        ck.topic_set_size(0.3, power=0.8, alpha=0.05),
        low=2,
        hint="the smallest n with power_paired_t(0.3, n, 0.05) >= 0.8",
    ),
]
