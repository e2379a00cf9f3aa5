"""Answer key of exercises/03_ap_map.ipynb (expected values computed from the exercise's data).

Three topics k1 (5 relevant documents), k2 (2) and k3 (4). System X is a run (a score per
retrieved document, two of them tied on k1) judged against the qrels; system Y is given as
judged rankings and finds nothing relevant on k2. Every expected value, every common mistake's
value and every letter is computed here from those data (AP by hand, checked against
coursekit); the checks of :func:`facts` say why each multiple-choice question has one
defensible answer.

``generate(None)`` gives the public exercise's data cell and questions (``QUESTIONS``);
``generate(rng)`` a student's own data for graded coursework, drawn with the counts of the
text kept (5, 2 and 4 relevant documents; X finds 4 of k1's, with a tie of a relevant and a
non-relevant document, and misses the fifth; Y finds nothing on k2) and redrawn until every
statement of the text holds (MAP prefers Y and GMAP X, the four slips of q3 give four values,
...). Which slip q3's report makes is drawn (its letter follows), and so is q7's letter (a when
AP(X, k1) < 1/2, b when above; never 1/2). q6's answer is fixed by the text (MAP prefers Y,
GMAP X) and q8's rows are the same for everyone: they differ by the order of their options.
Hidden inputs (``hidden=``) are used by the grader only.

Variant space: the ids, scores and ranks of every topic (every value question varies), q3's
slip among 4, q7's letter among 2. q8's options c ("both can") and d ("neither can") stay last
(``FIXED_OPTIONS``).
"""

import itertools
import math
from types import SimpleNamespace

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value
from coursekit.grading.variants import redraw
from coursekit.trec import as_run_frame, sort_run

# ---------------------------------------------------------------------------------------------
# The public data (the notebook's data cell is data_source(PUBLIC); a test compares them)


def scores(ids: str, values: list[float]) -> dict[str, float]:
    """{doc id: score}, ids given as one string."""
    return dict(zip(ids.split(), values, strict=True))


PUBLIC = {
    "qrels": {
        "k1": {"d03": 1, "d07": 1, "d12": 1, "d20": 1, "d25": 1},
        "k2": {"d02": 1, "d09": 1},
        "k3": {"d05": 1, "d11": 1, "d14": 1, "d18": 1},
    },
    "run_x": {  # X's documents (ids in the data cell's order) and their scores
        "k1": scores(
            "d01 d03 d04 d07 d09 d12 d13 d15 d20 d22",
            [8.4, 6.8, 7.2, 9.1, 6.1, 7.9, 4.9, 4.0, 6.1, 3.3],
        ),
        "k2": scores(
            "d02 d05 d06 d08 d09 d11 d17 d21 d27 d30",
            [11.5, 12.0, 4.4, 7.5, 9.0, 8.7, 10.2, 6.0, 5.2, 9.8],
        ),
        "k3": scores(
            "d01 d02 d05 d06 d11 d13 d16 d21 d27 d30",
            [0.42, 0.88, 0.77, 0.55, 0.61, 0.64, 0.91, 0.95, 0.70, 0.80],
        ),
    },
    "system_y": {
        "k1": [1, 1, 0, 1, 0, 1, 0, 0, 0, 1],
        "k2": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        "k3": [1, 1, 0, 1, 0, 0, 0, 1, 0, 0],
    },
}
TOPICS = ["k1", "k2", "k3"]
N_RELEVANT = {"k1": 5, "k2": 2, "k3": 4}  # the counts of the text, in every variant
DEPTH = 10
FLOOR = 1e-5  # GMAP's floor (trec_eval's)
DECIMALS = {"k1": 1, "k2": 1, "k3": 2}  # how the scores of each topic are written
#: q8: two printed rows (relevant documents n, relevant documents among the 10 returned, AP);
#: the same in every variant (the question is about AP, not about the data)
PRINTED_ROWS = {"a": (5, 4, 0.85), "b": (2, 2, 0.35)}
#: the options that keep their place in a student's order: q8's "both can", "neither can"
FIXED_OPTIONS = {"q8": "cd"}
#: q3: the slip the public report makes (a student's report makes one drawn among a ... d)
PUBLIC_SLIP = "a"


def data_source(data: dict, reported: float) -> str:
    """The data cell of the notebook (ruff's layout), with q3's reported value."""
    lines = ["qrels = {"]
    for q in TOPICS:
        docs = ", ".join(f'"{d}": 1' for d in sorted(data["qrels"][q]))
        lines.append(f'    "{q}": {{{docs}}},')
    lines += ["}", "run_x = {"]
    for q in TOPICS:
        lines.append(f'    "{q}": {{')
        scores = data["run_x"][q]
        lines += [f'        "{d}": {scores[d]:.{DECIMALS[q]}f},' for d in sorted(scores)]
        lines.append("    },")
    lines += ["}", "system_y = {"]
    lines += [f'    "{q}": {data["system_y"][q]},' for q in TOPICS]
    lines += ["}", f"reported_ap_k1 = {reported:.4f}  # q3: the AP of X on k1 that a report prints"]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# By hand, independently of coursekit's measures: AP's terms and the means


class Unsuitable(ValueError):
    """Drawn data on which a statement of the exercise's text does not hold."""


def require(condition: bool, why: str) -> None:
    if not condition:
        raise Unsuitable(why)


def precision_terms(rels):
    """P(k) at the ranks k of the relevant documents."""
    found, terms = 0, []
    for rank, grade in enumerate(rels, start=1):
        if grade >= 1:
            found += 1
            terms.append(found / rank)
    return terms


def ap(rels, divisor):
    """The sum of the precision terms divided by ``divisor`` (0 when it is 0)."""
    return sum(precision_terms(rels)) / divisor if divisor else 0.0


def gmap(aps, floor=FLOOR):
    return math.exp(sum(math.log(max(a, floor)) for a in aps) / len(aps))


def direction(before, after):
    return "up" if after > before + 1e-12 else "down" if after < before - 1e-12 else "same"


def reachable(n_relevant, found, printed):
    """Whether some ranking of 10 documents with ``found`` relevant ones gives AP = printed."""
    for ranks in itertools.combinations(range(1, DEPTH + 1), found):
        rels = [int(rank in ranks) for rank in range(1, DEPTH + 1)]
        if round(ap(rels, n_relevant), 2) == printed:
            return True
    return False


# q8: which printed row no ranking of 10 documents can give (AP <= found / n; the other row is
# reached by some placement of its relevant documents, to the 2 decimals printed)
POSSIBLE = {letter: reachable(*row) for letter, row in PRINTED_ROWS.items()}
assert all(
    POSSIBLE[letter] == (printed <= found / n)
    for letter, (n, found, printed) in PRINTED_ROWS.items()
)
LETTER_8 = {(False, True): "a", (True, False): "b", (True, True): "c"}.get(
    (POSSIBLE["a"], POSSIBLE["b"]), "d"
)


def same(a, b) -> bool:
    """Equal to the 4 decimals the self-check compares (element by element for lists)."""
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, str):
        return a == b
    return f"{a:.4f}" == f"{b:.4f}"


def distinct(expected, *mistakes: Mistake) -> list[Mistake]:
    """The mistakes whose value differs from the expected one (on some data a slip gives the
    right value: then it cannot be recognised, and is left out)."""
    return [m for m in mistakes if not same(m.value, expected)]


def facts(data: dict) -> SimpleNamespace:
    """Every value the questions need, computed from ``data``; raises :class:`Unsuitable`
    when a statement of the text does not hold on them."""
    qrels, run_x, system_y = data["qrels"], data["run_x"], data["system_y"]
    f = SimpleNamespace()
    require({q: len(qrels[q]) for q in TOPICS} == N_RELEVANT, "the counts of relevant documents")
    # q1: trec_eval's order (score descending, ties by doc id descending)
    f.ranking = {
        q: sorted(run_x[q], key=lambda d, q=q: (run_x[q][d], d), reverse=True) for q in TOPICS
    }
    # the mistakes: ties left in the order of the data (Python's stable sort), scores increasing
    f.naive_k1 = sorted(run_x["k1"], key=run_x["k1"].get, reverse=True)
    f.ascending_k1 = list(reversed(f.ranking["k1"]))
    f.rels_x = {q: [int(d in qrels[q]) for d in f.ranking[q]] for q in TOPICS}
    k1, n1 = f.rels_x["k1"], N_RELEVANT["k1"]
    require(f.naive_k1 != f.ranking["k1"], "the tie of k1 matters")
    f.ap_x = [ap(f.rels_x[q], N_RELEVANT[q]) for q in TOPICS]
    f.ap_y = [ap(system_y[q], N_RELEVANT[q]) for q in TOPICS]

    # q2 and q3: AP of X on k1, and the values four slips give (q3's report makes slip a)
    f.ap_k1 = f.ap_x[0]
    f.slips = {
        "a": ap(k1, sum(k1)),  # divided by the relevant documents X retrieved
        "b": ap([int(d in qrels["k1"]) for d in f.naive_k1], n1),  # the tie the other way
        "c": sum(sum(k1[:k]) / k for k in range(1, len(k1) + 1)) / len(k1),  # every rank
        "d": sum(round(p, 2) for p in precision_terms(k1)) / n1,  # each precision rounded
        "length": ap(k1, len(k1)),  # divided by the list's length
        "reversed": ap(k1[::-1], n1),
    }
    f.letter_3 = data.get("slip", PUBLIC_SLIP)
    f.reported = round(f.slips[f.letter_3], 4)
    shown = [f.ap_k1, *(f.slips[x] for x in "abcd")]
    require(len({f"{v:.4f}" for v in shown}) == 5, "q3: the four slips and AP differ")

    # q4 and q5: MAP and GMAP of X and Y, and the mistakes
    pairs = {"X": [(f.rels_x[q], N_RELEVANT[q]) for q in TOPICS]}
    pairs["Y"] = [(system_y[q], N_RELEVANT[q]) for q in TOPICS]
    f.map = [sum(f.ap_x) / len(TOPICS), sum(f.ap_y) / len(TOPICS)]
    f.gmap = [gmap(f.ap_x), gmap(f.ap_y)]
    f.map_retrieved = [sum(ap(r, sum(r)) for r, _ in pairs[s]) / len(TOPICS) for s in "XY"]
    f.map_pooled = [  # one pool of precision terms over all topics / all relevant documents
        sum(sum(precision_terms(r)) for r, _ in pairs[s]) / sum(N_RELEVANT.values()) for s in "XY"
    ]
    nonzero_y = [a for a in f.ap_y if a > 0]
    f.map_skipping = [f.map[0], sum(nonzero_y) / len(nonzero_y)]  # Y's failed topic left out
    f.gmap_no_floor = [math.prod(f.ap_x) ** (1 / 3), math.prod(f.ap_y) ** (1 / 3)]
    f.gmap_skipping = [f.gmap[0], math.prod(nonzero_y) ** (1 / len(nonzero_y))]
    naive_x = [f.slips["b"], *f.ap_x[1:]]  # X's APs with k1's tie broken the other way
    f.map_naive_tie = [sum(naive_x) / len(TOPICS), f.map[1]]
    f.gmap_naive_tie = [gmap(naive_x), f.gmap[1]]

    # q6: MAP prefers Y, GMAP prefers X, because Y finds nothing on one topic (AP 0, floored);
    # the other options are false: GMAP without the failed topic would prefer Y (a), Y finds
    # more relevant documents than X (c), and GMAP averages APs divided by n (d)
    f.found = {s: sum(sum(r) for r, _ in pairs[s]) for s in "XY"}
    require(f.map[1] > f.map[0] and f.gmap[0] > f.gmap[1], "q6: MAP prefers Y, GMAP X")
    require(min(f.ap_y) == 0 and min(f.ap_x) > 0, "q6: Y fails on one topic, X on none")
    require(f.gmap_skipping[1] > f.gmap[0], "q6 a): without k2, GMAP would prefer Y")
    require(f.found["Y"] > f.found["X"], "q6 c): Y finds more relevant documents")
    f.letter_6 = "b"  # the one option left once a), c) and d) are shown false above

    # q7: predict, then verify: (i) the missing relevant document of k1 returned at rank 10
    # instead of the non-relevant one there (n stays 5); (ii) that one re-judged (n becomes 6)
    require(k1[-1] == 0 and sum(k1) == n1 - 1, "q7: X misses one of k1, rank 10 not relevant")
    changed = k1[:-1] + [1]
    moves = (direction(f.ap_k1, ap(changed, n1)), direction(f.ap_k1, ap(changed, n1 + 1)))
    f.letter_7 = {("up", "up"): "a", ("up", "down"): "b", ("down", "up"): "c"}.get(moves, "d")
    require(f.letter_7 in ("a", "b"), "q7: AP(X, k1) is not 1/2, so that (ii) moves")

    f.letter_8 = LETTER_8
    _agrees_with_coursekit(data, f)
    return f


def _agrees_with_coursekit(data: dict, f: SimpleNamespace) -> None:
    """The by-hand values are coursekit's (a check of the key, not a source of answers)."""
    qrels, run_x = data["qrels"], data["run_x"]
    ordered = sort_run(as_run_frame(run_x))
    assert f.ranking == {
        q: ordered.loc[ordered["query_id"] == q, "doc_id"].astype(str).tolist() for q in TOPICS
    }, "coursekit's order is not score then doc id, both descending"
    assert f.rels_x == {q: ck.judge(f.ranking[q], qrels[q]) for q in TOPICS}
    evaluated = ck.evaluate(run_x, qrels, ["AP"]).table()["AP"].loc[TOPICS]
    assert all(abs(a - b) < 1e-12 for a, b in zip(f.ap_x, evaluated, strict=True))
    pairs = {"X": [(f.rels_x[q], N_RELEVANT[q]) for q in TOPICS]}
    pairs["Y"] = [(data["system_y"][q], N_RELEVANT[q]) for q in TOPICS]
    assert all(
        abs(m - ck.mean_average_precision(pairs[s])) < 1e-12
        and abs(g - ck.geometric_mean_average_precision(pairs[s])) < 1e-12
        for s, m, g in zip("XY", f.map, f.gmap, strict=True)
    )


# ---------------------------------------------------------------------------------------------
# A student's own data


def _ids(rng, count: int) -> list[str]:
    return sorted(f"d{i:02d}" for i in rng.choice(range(1, 31), size=count, replace=False))


def _scores(rng, topic: str) -> list[float]:
    """10 distinct scores, decreasing, written with the topic's decimals."""
    if DECIMALS[topic] == 1:
        values = rng.choice(range(30, 130), size=DEPTH, replace=False) / 10
    else:
        values = rng.choice(range(30, 100), size=DEPTH, replace=False) / 100
    return sorted((float(v) for v in values), reverse=True)


def _draw(rng) -> dict:
    """Data with the text's counts (redrawn by :func:`generate` until every statement holds)."""
    qrels, run_x, system_y = {}, {}, {}
    for topic, n in N_RELEVANT.items():
        found = {"k1": n - 1, "k2": int(rng.integers(1, 3)), "k3": int(rng.integers(1, 4))}[topic]
        slots = DEPTH - 1 if topic == "k1" else DEPTH  # k1: rank 10 is not relevant
        ranks = sorted(int(r) for r in rng.choice(slots, size=found, replace=False))
        rels = [int(i in ranks) for i in range(DEPTH)]
        ids = [str(d) for d in rng.permutation(_ids(rng, DEPTH + n - found))]
        ranking, missed = ids[:DEPTH], ids[DEPTH:]
        scores = _scores(rng, topic)
        if topic == "k1":  # a tie of a relevant and a non-relevant document at ranks j, j + 1
            pairs = [j for j in range(DEPTH - 2) if rels[j] != rels[j + 1]]
            j = int(rng.choice(pairs))
            first, second = sorted([ranking[j], ranking[j + 1]], reverse=True)
            ranking[j], ranking[j + 1] = first, second  # the larger id first, as trec_eval
            scores[j + 1] = scores[j]
        qrels[topic] = {d: 1 for d in sorted([*(ranking[i] for i in ranks), *missed])}
        run_x[topic] = {d: s for d, s in sorted(zip(ranking, scores, strict=True))}
        y_found = {"k1": int(rng.integers(3, 6)), "k2": 0, "k3": int(rng.integers(2, 5))}[topic]
        y_ranks = rng.choice(DEPTH, size=y_found, replace=False)
        system_y[topic] = [int(i in y_ranks) for i in range(DEPTH)]
    slip = str(rng.choice(list("abcd")))  # the slip of q3's report
    return {"qrels": qrels, "run_x": run_x, "system_y": system_y, "slip": slip}


# ---------------------------------------------------------------------------------------------
# The questions


def questions(f: SimpleNamespace) -> list:
    """The questions of the exercise on the data whose :func:`facts` are ``f``."""
    return [
        Value(
            "q1",
            f.ranking["k1"],
            hint="sort by score, highest first; on a tie the larger doc id comes first",
            mistakes=[
                Mistake(
                    f.naive_k1,
                    "two documents have the same score: trec_eval puts the one with the larger "
                    "doc id first",
                ),
                Mistake(
                    f.ascending_k1, "a higher score means a better rank: rank 1 has the highest"
                ),
            ],
        ),
        Value(
            "q2",
            f.ap_k1,
            low=0,
            high=1,
            hint="the precision P(k) at each rank k of a relevant document, summed, divided by n",
            mistakes=distinct(
                f.ap_k1,
                Mistake(
                    f.slips["a"],
                    "divide by all the relevant documents of k1 (n), the one X never returns "
                    "included, not by those X retrieved",
                ),
                Mistake(
                    f.slips["b"],
                    "check the tie of q1: the larger doc id comes first, and one of the two is "
                    "relevant",
                ),
                Mistake(
                    f.slips["c"],
                    "AP adds the precision only at the ranks of relevant documents, not at every "
                    "rank",
                ),
                Mistake(
                    f.slips["d"],
                    "do not round the precisions before summing them: keep full precision",
                ),
                Mistake(
                    f.slips["length"],
                    "divide by n, the relevant documents, not by the list's length",
                ),
                Mistake(
                    f.slips["reversed"], "your ranking is reversed: rank 1 has the highest score"
                ),
            ),
        ),
        Choice(
            "q3",
            f.letter_3,
            options="abcd",
            hint="recompute the report's value each way; chapter 03, section 2",
        ),
        Value(
            "q4",
            f.map,
            low=0,
            high=1,
            hint="the arithmetic mean of a system's three APs, each divided by its own n",
            mistakes=distinct(
                f.map,
                Mistake(f.map_skipping, "a topic where Y finds nothing still counts, with AP 0"),
                Mistake(
                    f.map_pooled,
                    "MAP averages the topics' APs (each topic weighs the same); do not pool the "
                    "precisions of all topics",
                ),
                Mistake(
                    f.map_retrieved,
                    "divide each topic's sum by all its relevant documents, not by those retrieved",
                ),
                Mistake(
                    f.map_naive_tie,
                    "check the tie of k1 in X's run: trec_eval puts the larger doc id first",
                ),
            ),
        ),
        Value(
            "q5",
            f.gmap,
            low=0,
            high=1,
            hint="exp of the mean of ln max(AP, 10^-5) over the three topics",
            mistakes=distinct(
                f.gmap,
                Mistake(
                    f.gmap_no_floor,
                    "an AP of 0 would make GMAP 0: trec_eval replaces it by the floor 10^-5",
                ),
                Mistake(
                    f.gmap_skipping,
                    "the topic with AP 0 is not left out: it counts, with the floor 10^-5",
                ),
                Mistake(f.map, "that is the arithmetic mean (MAP); GMAP is the geometric mean"),
                Mistake(
                    f.gmap_naive_tie,
                    "check the tie of k1 in X's run: trec_eval puts the larger doc id first",
                ),
            ),
        ),
        Choice(
            "q6",
            f.letter_6,
            options="abcd",
            hint="chapter 03, section 4: what the floor 10^-5 does to a geometric mean",
        ),
        Choice(
            "q7",
            f.letter_7,
            options="abcd",
            hint="AP divides by n: which change adds a precision term, and which also adds to n?",
        ),
        Choice(
            "q8",
            f.letter_8,
            options="abcd",
            hint="for each row, the best and the worst AP of a ranking with that many relevant "
            "documents found",
        ),
        Function(
            "q9",
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


def generate(rng):
    """(source of the data cell, questions): the public exercise when ``rng`` is None, else a
    student's own data drawn from the numpy Generator ``rng``."""
    if rng is None:
        data, f = PUBLIC, facts(PUBLIC)  # the public data must satisfy the text: no redraw
    else:
        data, f = redraw(rng, _draw, facts, Unsuitable)
    return data_source(data, f.reported), questions(f)


FACTS = facts(PUBLIC)  # the public exercise's values (for the tests)
QUESTIONS = generate(None)[1]
