"""Answer key of exercises/07_rank_correlation.ipynb (expected values computed by coursekit).

Six systems evaluated on 8 topics: their AP on each topic (MAP is the mean), their mean nDCG@10
and their mean P@10 (which ties some systems). Hidden inputs (``hidden=``) are used by the
grader only.
"""

import coursekit as ck
from coursekit.grading import Choice, Function, Value

AP = {
    "bm25": [0.56, 0.46, 0.49, 0.39, 0.33, 0.12, 0.64, 0.45],
    "ql": [0.63, 0.38, 0.24, 0.23, 0.40, 0.11, 0.65, 0.15],
    "dfr": [0.61, 0.35, 0.33, 0.29, 0.56, 0.12, 0.69, 0.35],
    "rm3": [0.64, 0.46, 0.37, 0.39, 0.45, 0.14, 0.58, 0.36],
    "bert": [0.65, 0.33, 0.48, 0.41, 0.42, 0.19, 0.48, 0.40],
    "mix": [0.66, 0.34, 0.42, 0.50, 0.55, 0.11, 0.66, 0.46],
}
NDCG10 = {"bm25": 0.497, "ql": 0.445, "dfr": 0.518, "rm3": 0.532, "bert": 0.571, "mix": 0.556}
P10 = {"bm25": 0.4875, "ql": 0.45, "dfr": 0.45, "rm3": 0.4875, "bert": 0.525, "mix": 0.5125}
N_TOPICS = 8
MAP = {s: sum(values) / len(values) for s, values in AP.items()}
POS_MAP, POS_NDCG = ck.positions(MAP), ck.positions(NDCG10)
VERDICTS = ck.concordant_pairs(MAP, NDCG10)["verdict"].value_counts()
TOPICS = range(1, N_TOPICS + 1)
# tau between the ordering by mean AP over the first t topics and the ordering by MAP
STABILITY = [ck.kendall_tau({s: sum(v[:t]) / t for s, v in AP.items()}, MAP) for t in TOPICS]
STABLE_FROM = min(t for t in TOPICS if all(tau >= 0.8 for tau in STABILITY[t - 1 :]))

QUESTIONS = [
    Value(
        "q1",
        sorted(MAP, key=POS_MAP.get),
        hint="MAP is the mean of each system's 8 AP values; the highest MAP comes first",
    ),
    Value(
        "q2",
        int(sum((POS_MAP[s] - POS_NDCG[s]) ** 2 for s in MAP)),
        low=0,
        hint="each system's position (1 = first) by MAP minus its position by nDCG@10, "
        "squared, summed over the 6 systems",
    ),
    Value(
        "q3",
        ck.spearman_rho(MAP, NDCG10),
        low=-1,
        high=1,
        hint="1 - 6 * (sum of squared differences) / (K (K^2 - 1))",
    ),
    Value(
        "q4",
        [int(VERDICTS.get("concordant", 0)), int(VERDICTS.get("discordant", 0))],
        low=0,
        high=15,
        hint="6 systems make 15 pairs; a pair is concordant if both "
        "measures put its two systems in the same order",
    ),
    Value(
        "q5",
        ck.kendall_tau(MAP, NDCG10),
        low=-1,
        high=1,
        hint="(concordant - discordant) / number of pairs",
    ),
    Choice("q6", "b", options="abcd", hint="tau is a difference of two shares of pairs"),
    Value(
        "q7",
        [ck.kendall_tau(MAP, P10, variant="a"), ck.kendall_tau(MAP, P10, variant="b")],
        low=-1,
        high=1,
        hint="a pair tied by P@10 is neither concordant nor discordant; tau-a keeps all 15 "
        "pairs in the denominator, tau-b leaves the tied ones out",
    ),
    Value(
        "q8",
        STABLE_FROM,
        low=1,
        high=N_TOPICS,
        hint="look from the right: the curve must not fall below 0.8 again",
    ),
    Choice("q9", "b", options="abc", hint="what happens to the curve after 4 topics?"),
    Function(
        "q10",
        name="kendall_tau",
        reference="coursekit:kendall_tau",
        points=2,
        cases=[
            ("the same order", [["a", "b", "c"], ["a", "b", "c"]]),
            ("reversed", [["a", "b", "c", "d"], ["d", "c", "b", "a"]]),
            ("one adjacent swap", [["a", "b", "c", "d"], ["b", "a", "c", "d"]]),
            (
                "items listed in another order",
                [["p", "q", "r", "s", "t"], ["q", "p", "s", "r", "t"]],
            ),
            (
                "scores: the higher first",
                [{"x": 0.9, "y": 0.5, "z": 0.7}, {"x": 0.3, "y": 0.1, "z": 0.2}],
            ),
            ("a list and scores", [["x", "z", "y"], {"y": 0.8, "x": 0.6, "z": 0.2}]),
            ("edge case: two items", [["x", "y"], ["y", "x"]]),
            (
                "edge case: ties in one ranking",
                [{"A": 3, "B": 2, "C": 2}, {"A": 3, "B": 2, "C": 1}],
            ),
            (
                "edge case: ties in both rankings",
                [{"p": 1, "q": 1, "r": 0, "s": 2}, {"p": 2, "q": 2, "r": 1, "s": 0}],
            ),
        ],
        hidden=[
            ("MAP and nDCG@10 of the example", [MAP, NDCG10]),
            ("MAP and P@10 of the example", [MAP, P10]),
            ("a far swap", [["a", "b", "c", "d", "e"], ["e", "b", "c", "d", "a"]]),
            (
                "edge case: ties on both sides of a pair",
                [{"a": 1, "b": 1, "c": 2, "d": 2}, {"a": 1, "b": 2, "c": 2, "d": 3}],
            ),
        ],
        hint="turn each ranking into positions (scores: higher first), then look at every "
        "pair once; a pair tied in a ranking counts in neither C nor D",
    ),
]
