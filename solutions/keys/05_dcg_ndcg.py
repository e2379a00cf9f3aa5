"""Answer key of exercises/05_dcg_ndcg.ipynb (expected values computed from the exercise's data).

One query judged on a 0-3 scale (13 judged documents t01-t13; the public exercise has two 3s,
three 2s, four 1s and four 0s), two systems A and B returning 10 documents each; A returns
the two unjudged documents t14 and t15, which count as grade 0. DCG is trec_eval's form (``"trec"``,
grade / log2(rank + 1)) unless a question names another. Every expected value, every common
mistake's value and every letter is computed here from those data (DCG by hand, checked
against coursekit); the checks of :func:`facts` say why each multiple-choice question has one
defensible answer.

``generate(None)`` gives the public exercise's data cell and questions (``QUESTIONS``);
``generate(rng)`` a student's own data for graded coursework: how many documents have each
grade (1 to 3 of grade 3, 1 to 4 of grades 2 and 1), which document has which grade and what
A and B return are drawn, and redrawn until every statement of the text holds (B's second
document has a higher grade than its first, A's own ideal flatters it, no tie for q9's
readers, ...). q9's letter follows from the data (drawn first among the four); q6's and q7's
answers are fixed by the text, and q8 is about a query whose grades the text states: they
differ by the order of their options. Hidden inputs (``hidden=``) are used by the grader only.

Variant space: the counts of each grade (48 sets, so q4 takes 48 values), which document has
which grade and the two runs: every value question varies. q6's option d ("none of them")
and q8's c ("both can") and d ("neither can") stay last (``FIXED_OPTIONS``).
"""

import itertools
import math
from collections import Counter
from types import SimpleNamespace

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value
from coursekit.grading.variants import redraw

# ---------------------------------------------------------------------------------------------
# The public data (the notebook's data cell is data_source(PUBLIC); a test compares them)

PUBLIC = {
    "qrels": {
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
    },
    "run_a": ["t05", "t02", "t03", "t09", "t07", "t12", "t15", "t06", "t04", "t14"],
    "run_b": ["t09", "t11", "t01", "t02", "t08", "t13", "t03", "t10", "t04", "t05"],
}
JUDGED_IDS = [f"t{i:02d}" for i in range(1, 14)]
UNJUDGED_IDS = ["t14", "t15"]  # returned by A, named in the text
GRADES = sorted(PUBLIC["qrels"].values(), reverse=True)  # the public grades (q8's query's)
#: how many judged documents a student's query has of grade 3, 2 and 1 (the others are 0)
GRADE_COUNTS = {3: (1, 3), 2: (1, 4), 1: (1, 4)}
#: the options that keep their place in a student's order: "none of them", "both can" ...
FIXED_OPTIONS = {"q6": "d", "q8": "cd"}
LETTERS_9 = {("A", "A"): "a", ("B", "B"): "b", ("A", "B"): "c", ("B", "A"): "d"}
DEPTH = 10
#: q8: two printed rows at the cut-offs k = 1..5 (trec_eval's formula, ideal of all judgments);
#: the same in every variant (every variant has the same judged grades, so the same ideal)
PRINTED_DCG = [3.00, 4.26, 4.76, 4.76, 4.50]  # row a: DCG@k
PRINTED_NDCG = [1.00, 1.00, 0.83, 0.85, 0.82]  # row b: nDCG@k


def data_source(data: dict) -> str:
    """The data cell of the notebook (ruff's layout)."""
    lines = ["qrels = {", *(f'    "{d}": {g},' for d, g in data["qrels"].items()), "}"]
    for name in ("run_a", "run_b"):
        lines.append(f"{name} = [" + ", ".join(f'"{d}"' for d in data[name]) + "]")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# DCG by hand, in every form a question or a mistake needs


class Unsuitable(ValueError):
    """Drawn data on which a statement of the exercise's text does not hold."""


def require(condition: bool, why: str) -> None:
    if not condition:
        raise Unsuitable(why)


def dcg_curve(gains, log=math.log2, gain=lambda g: g, jarvelin=False, discount=True):
    """DCG[1..N]: gain(grade) / log(rank + 1), or Järvelin's log2(rank) from rank 2 on."""
    total, curve = 0.0, []
    for rank, grade in enumerate(gains, start=1):
        value = gain(max(grade, 0))
        if discount:
            value /= (1.0 if rank == 1 else log(rank)) if jarvelin else log(rank + 1)
        total += value
        curve.append(total)
    return curve


def dcg(gains, k=DEPTH, **form):
    return dcg_curve(list(gains)[:k], **form)[-1] if k and len(gains) else 0.0


def ndcg(gains, ideal, k=DEPTH, **form):
    best = dcg(sorted(ideal, reverse=True), k, **form)
    return dcg(gains, k, **form) / best if best else 0.0


def direction(before, after):
    return "up" if after > before + 1e-12 else "down" if after < before - 1e-12 else "same"


def same(a, b) -> bool:
    """Equal to the 4 decimals the self-check compares (element by element for lists)."""
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return f"{a:.4f}" == f"{b:.4f}"


def distinct(expected, *mistakes: Mistake) -> list[Mistake]:
    """The mistakes whose value differs from the expected one (on some data a slip gives the
    right value: then it cannot be recognised, and is left out)."""
    return [m for m in mistakes if not same(m.value, expected)]


EXPONENTIAL = {"gain": lambda g: 2**g - 1}

# q8: which printed row no ranking of this query gives (a ranking: grades the qrels can supply,
# any number of unjudged documents of grade 0); DCG with grades >= 0 never decreases, nDCG can


def rows_reachable(printed, measure) -> bool:
    """Whether some ranking of 5 documents of this query prints ``printed`` (2 decimals)."""
    supply = Counter(GRADES)
    for grades in itertools.product(range(4), repeat=len(printed)):
        used = Counter(g for g in grades if g > 0)
        if any(used[g] > supply[g] for g in used):
            continue
        if [round(measure(list(grades), k), 2) for k in range(1, len(printed) + 1)] == printed:
            return True
    return False


POSSIBLE_A = rows_reachable(PRINTED_DCG, lambda g, k: dcg(g, k))
POSSIBLE_B = rows_reachable(PRINTED_NDCG, lambda g, k: ndcg(g, GRADES, k))
assert not POSSIBLE_A and any(b < a for a, b in itertools.pairwise(PRINTED_DCG))
assert any(b < a for a, b in itertools.pairwise(PRINTED_NDCG))  # the row b trap: it goes down
LETTER_8 = {(False, True): "a", (True, False): "b", (True, True): "c"}.get(
    (POSSIBLE_A, POSSIBLE_B), "d"
)


def facts(data: dict) -> SimpleNamespace:
    """Every value the questions need, computed from ``data``; raises :class:`Unsuitable`
    when a statement of the text does not hold on them."""
    qrels, run_a, run_b = data["qrels"], data["run_a"], data["run_b"]
    f = SimpleNamespace()
    judged = list(qrels.values())  # every judged grade of the query, retrieved or not
    ideal = sorted(judged, reverse=True)
    require(len(judged) == len(JUDGED_IDS) and max(judged) > 1, "13 judged, some above 1")
    f.gains_a = [qrels.get(doc, 0) for doc in run_a]
    f.gains_b = [qrels.get(doc, 0) for doc in run_b]
    f.missed = sorted(d for d, g in qrels.items() if g >= 1 and d not in run_a)

    # q2: A's DCG curve; q4: the ideal DCG@10; q5: nDCG@10 of A and B
    f.curve_dcg_a = dcg_curve(f.gains_a)
    f.idcg = dcg(ideal)
    f.ndcg = [ndcg(f.gains_a, judged), ndcg(f.gains_b, judged)]
    f.own_ideal = [ndcg(f.gains_a, f.gains_a), ndcg(f.gains_b, f.gains_b)]
    f.jarvelin = [ndcg(g, judged, jarvelin=True) for g in (f.gains_a, f.gains_b)]
    f.burges = [ndcg(g, judged, **EXPONENTIAL) for g in (f.gains_a, f.gains_b)]
    require(f.own_ideal[0] > f.ndcg[0] + 0.1, "in your words: A's own ideal flatters it")

    # q6: which change of the formula leaves nDCG@10 of both systems as it is (only the log
    # base: it scales every discount by the same factor, which cancels in DCG / IDCG)
    changed = {
        "a": [ndcg(g, judged, log=math.log10) for g in (f.gains_a, f.gains_b)],
        "b": f.burges,
        "c": f.jarvelin,
    }
    unchanged = [x for x, values in changed.items() if same(values, f.ndcg)]
    require(unchanged == ["a"], "q6: only the log base leaves nDCG as it is")
    f.letter_6 = unchanged[0]

    # q7: B's ranks 1 and 2 swap places; how nDCG@10 moves with trec_eval's and Järvelin's
    swapped = [f.gains_b[1], f.gains_b[0], *f.gains_b[2:]]
    moves = (
        direction(f.ndcg[1], ndcg(swapped, judged)),
        direction(f.jarvelin[1], ndcg(swapped, judged, jarvelin=True)),
    )
    f.letter_7 = {("up", "up"): "a", ("up", "same"): "b", ("same", "same"): "c"}.get(moves, "d")
    require(f.letter_7 == "b", "q7: B's second document has the higher grade")
    f.letter_8 = LETTER_8

    # q9: which system each reader prefers (nDCG@3 for the first, nDCG@10 for the second)
    top3 = "A" if ndcg(f.gains_a, judged, 3) > ndcg(f.gains_b, judged, 3) else "B"
    top10 = "A" if f.ndcg[0] > f.ndcg[1] else "B"
    f.letter_9 = LETTERS_9[top3, top10]
    require(f.letter_9 == data.get("letter_9", f.letter_9), "q9: the letter drawn")
    require(
        not math.isclose(ndcg(f.gains_a, judged, 3), ndcg(f.gains_b, judged, 3))
        and not math.isclose(*f.ndcg),
        "q9: no tie",
    )
    _agrees_with_coursekit(data, f)
    return f


def _agrees_with_coursekit(data: dict, f: SimpleNamespace) -> None:
    """The by-hand values are coursekit's (a check of the key, not a source of answers)."""
    qrels, judged = data["qrels"], list(data["qrels"].values())
    assert f.gains_a == ck.judge(data["run_a"], qrels) and f.gains_b == ck.judge(
        data["run_b"], qrels
    )
    assert all(
        abs(a - b) < 1e-12 for a, b in zip(f.curve_dcg_a, ck.dcg_curve(f.gains_a), strict=True)
    )
    assert abs(f.idcg - ck.dcg(ck.ideal_gains(f.gains_a, ideal=judged), DEPTH)) < 1e-12
    assert all(
        abs(a - ck.ndcg(g, DEPTH, ideal=judged)) < 1e-12
        for a, g in zip(f.ndcg, (f.gains_a, f.gains_b), strict=True)
    )


# ---------------------------------------------------------------------------------------------
# A student's own data


def _draw(rng) -> dict:
    """Data with the text's counts (redrawn by :func:`generate` until every statement holds)."""
    counts = {g: int(rng.integers(low, high + 1)) for g, (low, high) in GRADE_COUNTS.items()}
    grades = [g for g, count in counts.items() for _ in range(count)]
    grades += [0] * (len(JUDGED_IDS) - len(grades))
    grades = [int(g) for g in rng.permutation(grades)]
    qrels = dict(zip(JUDGED_IDS, grades, strict=True))
    judged_a = [str(d) for d in rng.choice(JUDGED_IDS, size=DEPTH - 2, replace=False)]
    run_a = judged_a + UNJUDGED_IDS
    run_a = [run_a[i] for i in rng.permutation(DEPTH)]
    run_b = [str(d) for d in rng.choice(JUDGED_IDS, size=DEPTH, replace=False)]
    return {"qrels": qrels, "run_a": run_a, "run_b": run_b}


# ---------------------------------------------------------------------------------------------
# The questions

LOG_BASE = "the discount is a logarithm in base 2: math.log2(rank + 1)"


def questions(f: SimpleNamespace, judged: list[int]) -> list:
    """The questions of the exercise on the data whose :func:`facts` are ``f``."""
    return [
        Value(
            "q1",
            f.gains_a,
            low=0,
            high=3,
            hint="look each retrieved document up in qrels; an unjudged document has grade 0",
        ),
        Value(
            "q2",
            f.curve_dcg_a,
            low=0,
            hint="a running sum of grade / log2(rank + 1), ranks counted from 1",
            mistakes=distinct(
                f.curve_dcg_a,
                Mistake(
                    dcg_curve(f.gains_a, jarvelin=True),
                    "that is Järvelin and Kekäläinen's form (or ranks counted from 0): "
                    "trec_eval divides the grade at rank i by log2(i + 1), so rank 2 is already "
                    "discounted",
                ),
                Mistake(dcg_curve(f.gains_a, log=math.log), LOG_BASE),
                Mistake(dcg_curve(f.gains_a, log=math.log10), LOG_BASE),
                Mistake(
                    dcg_curve(f.gains_a, discount=False),
                    "that is the cumulated gain CG: divide each grade by its discount first",
                ),
            ),
        ),
        Value(
            "q3",
            f.missed,
            hint="grade at least 1 in qrels, and absent from run_a; sort the ids",
        ),
        Value(
            "q4",
            f.idcg,
            low=0,
            hint="sort every judged grade from highest to lowest, then take DCG@10 of that list",
            mistakes=distinct(
                f.idcg,
                Mistake(
                    dcg(sorted(f.gains_a, reverse=True)),
                    "the ideal ranking holds every judged document of the query, not only "
                    "those A retrieved",
                ),
                Mistake(dcg(judged), "the ideal ranking sorts the grades, highest first"),
                Mistake(
                    dcg(sorted(judged)), "your ideal is reversed: the highest grades come first"
                ),
                Mistake(dcg(sorted(judged, reverse=True), log=math.log), LOG_BASE),
                Mistake(dcg(sorted(judged, reverse=True), log=math.log10), LOG_BASE),
                Mistake(
                    dcg(sorted(judged, reverse=True), jarvelin=True),
                    "that is Järvelin and Kekäläinen's form: trec_eval divides by log2(i + 1)",
                ),
            ),
        ),
        Value(
            "q5",
            f.ndcg,
            low=0,
            high=1,
            hint="each system's DCG@10 divided by the same ideal DCG@10 of q4",
            mistakes=distinct(
                f.ndcg,
                Mistake(
                    f.own_ideal,
                    "each system was divided by the best reordering of its own list: the ideal "
                    "is the one of q4, built from every judged document",
                ),
                Mistake(f.jarvelin, "that is Järvelin and Kekäläinen's form: use trec_eval's"),
                Mistake(
                    f.burges, "that is the exponential gain 2^grade - 1: the gain is the grade"
                ),
            ),
        ),
        Choice(
            "q6",
            f.letter_6,
            options="abcd",
            hint="write nDCG@10 as DCG@10 / IDCG@10 with each change, and simplify",
        ),
        Choice(
            "q7",
            f.letter_7,
            options="abcd",
            hint="chapter 05, section 2: where each formula starts to discount",
        ),
        Choice(
            "q8",
            f.letter_8,
            options="abcd",
            hint="check each row against what its measure can do from one cut-off to the next",
        ),
        Choice(
            "q9",
            f.letter_9,
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


def generate(rng):
    """(source of the data cell, questions): the public exercise when ``rng`` is None, else a
    student's own data drawn from the numpy Generator ``rng``."""
    if rng is None:
        data, f = PUBLIC, facts(PUBLIC)  # the public data must satisfy the text: no redraw
    else:  # q9's letter first (each for a quarter of the students), then data that give it
        letter = "abcd"[int(rng.integers(4))]
        data, f = redraw(rng, lambda r: {**_draw(r), "letter_9": letter}, facts, Unsuitable)
    return data_source(data), questions(f, list(data["qrels"].values()))


FACTS = facts(PUBLIC)  # the public exercise's values (for the tests)
QUESTIONS = generate(None)[1]
