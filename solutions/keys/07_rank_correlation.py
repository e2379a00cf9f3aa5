"""Answer key of exercises/07_rank_correlation.ipynb (expected values computed by coursekit).

Six systems evaluated on 8 topics: their AP on each topic (MAP is the mean), their mean nDCG@10
and their mean P@10 (which ties some systems). Every expected value and every mistaken value
(``Mistake``: what a common slip gives, with its hint) is computed here from the exercise's
data. ``generate(None)`` gives the public example's data cell and questions (``QUESTIONS``);
``generate(rng)`` a student's own scores for graded coursework, drawn so that every statement
of the text holds: no ties by MAP or nDCG@10, MAP and nDCG@10 crown different systems, the
correction of q5 swaps only the first two systems by nDCG@10, and P@10 ties some systems so
that the Σ d² formula misses ρ. The three choices are about the text, not the data (τ = 0,
the formula of q3 with ties, q9's printed rows): they differ between students by the order of
their options. Hidden inputs (``hidden=``) are used by the grader only.

Variant space: the 48 APs, 6 nDCG@10 and 6 P@10 scores (every value question varies; q4's
pair counts take 9 values, none for more than 30 % of the students). q9's option c
("neither: both rows are possible") stays last (``FIXED_OPTIONS``).
"""

import math
from itertools import permutations

import numpy as np

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

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
SYSTEMS = list(AP)
N_TOPICS = 8
# q5: the first system by nDCG@10 is corrected to this much below the second
CORRECTION = 0.006
# q9: two printed (rho, tau) pairs for two orderings of 6 systems without ties
PRINTED = {"X": (0.83, 0.73), "Y": (0.77, 0.67)}
#: the options that keep their place in a student's order: q9's "neither" stays last
FIXED_OPTIONS = {"q9": "c"}

K = len(SYSTEMS)
N_PAIRS = K * (K - 1) // 2
STEP_OF_A_PAIR = 1 / N_PAIRS  # one pair's share of tau when nothing is tied
REVERSED = (
    "one of your orderings runs from the lowest score: in both, position 1 goes to the "
    "highest score"
)


def _mean_ap(ap: dict[str, list[float]]) -> dict[str, float]:
    return {s: sum(values) / len(values) for s, values in ap.items()}


def _reversed(scores: dict[str, float]) -> dict[str, float]:
    """The same scores with the lowest first (the slip of sorting in increasing order)."""
    return {s: -v for s, v in scores.items()}


def _counts(a: dict[str, float], b: dict[str, float]) -> tuple[int, int, int]:
    """Concordant, discordant and tied (in either ordering) pairs, from ck.concordant_pairs."""
    verdicts = ck.concordant_pairs(a, b)["verdict"].value_counts()
    c, d = int(verdicts.get("concordant", 0)), int(verdicts.get("discordant", 0))
    return c, d, N_PAIRS - c - d


def corrected(ndcg10: dict[str, float]) -> dict[str, float]:
    """q5: nDCG@10 with the first system's score set CORRECTION below the second's."""
    first, second = sorted(ndcg10, key=ndcg10.get, reverse=True)[:2]
    return {**ndcg10, first: round(ndcg10[second] - CORRECTION, 3)}


def _shortcut(a: dict[str, float], b: dict[str, float]) -> float:
    """1 - 6 Σd² / (K (K² - 1)) on the positions of ck.positions (tied: the mean position)."""
    pa, pb = ck.positions(a), ck.positions(b)
    return 1 - 6 * sum((pa[s] - pb[s]) ** 2 for s in a) / (K * (K * K - 1))


def _fits(ap: dict[str, list[float]], ndcg10: dict[str, float], p10: dict[str, float]) -> bool:
    """Whether scores drawn for a student keep every statement of the text true."""
    map_ = _mean_ap(ap)
    by_ndcg = sorted(ndcg10.values(), reverse=True)
    return (
        len({round(v, 9) for v in map_.values()}) == K  # no ties by MAP
        and len(set(ndcg10.values())) == K  # nor by nDCG@10
        and by_ndcg[1] - by_ndcg[2] > CORRECTION + 0.0015  # q5 swaps only the first two
        and max(map_, key=map_.get) != max(ndcg10, key=ndcg10.get)  # different winners
        and len(set(p10.values())) < K  # P@10 ties some systems
        and abs(_shortcut(map_, p10) - ck.spearman_rho(map_, p10)) > 1e-3  # q8
    )


def _draw(rng) -> tuple[dict[str, list[float]], dict[str, float], dict[str, float]]:
    """A student's scores: AP from a system quality, a topic effect and noise; nDCG@10 and
    P@10 (a multiple of 1/80: 8 topics of 10 documents) close to MAP, P@10 tying 2 pairs."""
    while True:
        quality = rng.uniform(0.33, 0.47, size=K)
        topics = rng.uniform(-0.25, 0.25, size=N_TOPICS)
        ap = {
            s: [round(float(np.clip(q + t + rng.normal(0, 0.07), 0.05, 0.95)), 2) for t in topics]
            for s, q in zip(SYSTEMS, quality, strict=True)
        }
        map_ = _mean_ap(ap)
        ndcg10 = {s: round(map_[s] + 0.09 + float(rng.normal(0, 0.03)), 3) for s in SYSTEMS}
        hits = [int(round(80 * (m + 0.05 + rng.normal(0, 0.03)))) for m in map_.values()]
        i, j, k, m = (int(x) for x in rng.permutation(K)[:4])
        hits[j], hits[m] = hits[i], hits[k]  # two tied pairs, as in the public example
        p10 = {s: h / 80 for s, h in zip(SYSTEMS, hits, strict=True)}
        if _fits(ap, ndcg10, p10):
            return ap, ndcg10, p10


def _dict_line(name: str, values: dict[str, str]) -> str:
    """``name = {...}`` on one line, or one item per line when longer than 100 characters (as
    ruff formats it)."""
    line = f"{name} = {{" + ", ".join(f'"{s}": {v}' for s, v in values.items()) + "}"
    if len(line) <= 100:
        return line
    return f"{name} = {{\n" + "".join(f'    "{s}": {v},\n' for s, v in values.items()) + "}"


def data_cell(ap, ndcg10, p10) -> str:
    """The source of the exercise's data cell for these scores."""
    rows = "".join(f'    "{s}": [{", ".join(f"{x:.2f}" for x in ap[s])}],\n' for s in SYSTEMS)
    return "\n".join(
        [
            "ap = {\n" + rows + "}",
            _dict_line("ndcg10", {s: f"{v:.3f}" for s, v in ndcg10.items()}),
            _dict_line("p10", {s: repr(float(v)) for s, v in p10.items()}),
        ]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    scores drawn from the numpy Generator ``rng``."""
    data = (AP, NDCG10, P10) if rng is None else _draw(rng)
    assert _fits(*data)
    questions = _questions(*data)
    questions = without_harmless_mistakes(questions)
    return data_cell(*data), questions


def _questions(ap, ndcg10, p10) -> list:
    map_ = _mean_ap(ap)
    pos_map, pos_ndcg = ck.positions(map_), ck.positions(ndcg10)
    # q1, q2, q3: the ordering by MAP, the sum of squared differences of positions, rho
    by_map = sorted(map_, key=pos_map.get)
    sum_d2 = int(sum((pos_map[s] - pos_ndcg[s]) ** 2 for s in SYSTEMS))
    pos_reversed = ck.positions(_reversed(ndcg10))
    sum_d2_reversed = int(sum((pos_map[s] - pos_reversed[s]) ** 2 for s in SYSTEMS))
    rho = ck.spearman_rho(map_, ndcg10)
    assert math.isclose(rho, 1 - 6 * sum_d2 / (K * (K * K - 1)))
    # q4, q5: concordant and discordant pairs; tau before and after the correction
    c, d, tied = _counts(map_, ndcg10)
    assert tied == 0 and c + d == N_PAIRS
    after = corrected(ndcg10)
    swapped = [s for s in SYSTEMS if ck.positions(after)[s] != pos_ndcg[s]]
    assert len(swapped) == 2 and abs(pos_ndcg[swapped[0]] - pos_ndcg[swapped[1]]) == 1
    taus = [ck.kendall_tau(map_, ndcg10), ck.kendall_tau(map_, after)]
    step = (taus[1] - taus[0]) / 2  # one pair changes sides: C - D moves by 2
    assert math.isclose(abs(step), STEP_OF_A_PAIR)
    # q7: tau-a and tau-b of MAP against P@10 (which ties some pairs of systems)
    c10, d10, t10 = _counts(map_, p10)
    taus_p10 = [ck.kendall_tau(map_, p10, variant="a"), ck.kendall_tau(map_, p10, variant="b")]
    tied_in = [  # pairs of systems tied by each measure
        sum(m[x] == m[y] for i, x in enumerate(SYSTEMS) for y in SYSTEMS[i + 1 :])
        for m in (map_, p10)
    ]
    # tau-b's denominator as the arithmetic mean of the untied pairs, not their geometric mean
    arithmetic_b = (c10 - d10) / ((N_PAIRS - tied_in[0] + N_PAIRS - tied_in[1]) / 2)
    ties_as = {  # a tied pair counted as concordant, or as discordant: no pair left out
        "concordant": [(c10 + t10 - d10) / N_PAIRS] * 2,
        "discordant": [(c10 - d10 - t10) / N_PAIRS] * 2,
    }
    # q8: with ties the shortcut on average positions is not rho, the Pearson correlation of
    # the positions
    pos_p10 = ck.positions(p10)
    pearson = float(np.corrcoef([pos_map[s] for s in SYSTEMS], [pos_p10[s] for s in SYSTEMS])[0, 1])
    assert math.isclose(pearson, ck.spearman_rho(map_, p10))
    assert not math.isclose(_shortcut(map_, p10), pearson, abs_tol=1e-4)
    return [
        Value(
            "q1",
            by_map,
            hint="MAP is the mean of each system's 8 AP values; the highest MAP comes first",
            mistakes=[Mistake(by_map[::-1], "your list starts with the lowest MAP: best first")],
        ),
        Value(
            "q2",
            sum_d2,
            low=0,
            hint="each system's position (1 = first) by MAP minus its position by nDCG@10, "
            "squared, summed over the 6 systems",
            mistakes=[
                Mistake(sum_d2_reversed, REVERSED),
                Mistake(
                    0,
                    "square each difference before summing: plain differences of positions always "
                    "add up to 0",
                ),
            ],
        ),
        Value(
            "q3",
            rho,
            low=-1,
            high=1,
            hint="1 - 6 * (sum of squared differences) / (K (K^2 - 1))",
            mistakes=[
                Mistake(1 - 6 * sum_d2_reversed / (K * (K * K - 1)), REVERSED),
                Mistake(
                    1 - sum_d2 / (K * (K * K - 1) / 3),
                    "sum d^2 divided by its maximum K(K^2 - 1)/3 is a share in [0, 1]; rho is "
                    "1 - 2 x that share",
                ),
            ],
        ),
        Value(
            "q4",
            [c, d],
            low=0,
            high=N_PAIRS,
            hint="6 systems make 15 pairs; a pair is concordant if both "
            "measures put its two systems in the same order",
            mistakes=[
                Mistake(
                    [d, c],
                    "C and D are the wrong way round (or one ordering is reversed): a pair is "
                    "concordant when both measures put its two systems in the same order",
                ),
                Mistake(
                    [2 * c, 2 * d],
                    "each pair counts once: (bm25, ql) and (ql, bm25) are the same pair, and 6 "
                    "systems make 15 pairs",
                ),
            ],
        ),
        Value(
            "q5",
            taus,
            low=-1,
            high=1,
            hint="(C - D) / number of pairs; the change moves one pair from one side to the other",
            mistakes=[
                Mistake(
                    [taus[0], taus[0] - 2 * step],
                    "tau moves the other way: look at whether "
                    f"the pair ({swapped[0]}, {swapped[1]}) is concordant or discordant now",
                ),
                Mistake(
                    [taus[0], taus[0] + step],
                    "the pair that changes sides leaves one count and joins the other, so C - D "
                    "moves by 2, not 1",
                ),
                Mistake([taus[0], taus[0]], "the change swaps two systems in the nDCG@10 ordering"),
                Mistake([-t for t in taus], REVERSED),
            ],
        ),
        Choice("q6", "b", options="abcd", hint="tau is a difference of two shares of pairs"),
        Value(
            "q7",
            taus_p10,
            low=-1,
            high=1,
            hint="a pair tied by P@10 is neither concordant nor discordant; tau-a keeps all 15 "
            "pairs in the denominator, tau-b leaves the tied ones out",
            mistakes=[
                Mistake(
                    ties_as["concordant"],
                    "you counted the pairs P@10 ties as concordant: a tied pair is in neither C "
                    "nor D",
                ),
                Mistake(
                    ties_as["discordant"],
                    "you counted the pairs P@10 ties as discordant: a tied pair is in neither C "
                    "nor D",
                ),
                Mistake(taus_p10[::-1], "tau-a comes first, then tau-b"),
                Mistake(
                    [taus_p10[0], arithmetic_b],
                    "tau-b divides by the geometric mean of the two orderings' untied pairs, "
                    "sqrt((n0 - n1)(n0 - n2)), not by their arithmetic mean",
                ),
            ],
        ),
        Choice(
            "q8",
            "a",
            options="abcd",
            hint="the chapter derives the shortcut from positions 1, 2, ..., K: what do ties "
            "change?",
        ),
        Choice(
            "q9",
            IMPOSSIBLE,
            options="abc",
            hint="without ties C + D = 15, so which values can (C - D) / 15 take?",
        ),
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
                ("MAP and nDCG@10 of the example", [map_, ndcg10]),
                ("MAP and P@10 of the example", [map_, p10]),
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


# q9: every (rho, tau) pair, rounded to 2 decimals, of two orderings of K items without ties
POSSIBLE_PAIRS = {
    (round(ck.spearman_rho(SYSTEMS, list(p)), 2), round(ck.kendall_tau(SYSTEMS, list(p)), 2))
    for p in permutations(SYSTEMS)
}
IMPOSSIBLE = {(True, False): "b", (False, True): "a", (True, True): "c"}.get(
    (PRINTED["X"] in POSSIBLE_PAIRS, PRINTED["Y"] in POSSIBLE_PAIRS), "?"
)
assert IMPOSSIBLE == "b", IMPOSSIBLE

QUESTIONS = generate(None)[1]
