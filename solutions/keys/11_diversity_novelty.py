"""Answer key of exercises/11_diversity_novelty.ipynb (expected values computed by coursekit).

One ambiguous query (rainwater tanks) with 3 to 5 subtopics, named by words (cost, filter,
law, size, upkeep); 10 judged documents d01-d10, each with its grade for some subtopics (1:
relevant, 0: judged not relevant; a document may be relevant to none); a system's ranking of 8
documents, which may hold the unjudged d11 (relevant to nothing); a cut-off k; α = 0.5 (in the
data cell, for q2 to q4); each subtopic's intent probability P(s | q) (q5). S-recall, the
novelty gains, the greedy ideal, alpha-nDCG and nDCG-IA are taken from coursekit (each
checked here against a computation by hand); every common mistake's value is computed here
from the same data.

``generate(None)`` gives the public exercise's data cell and questions (``QUESTIONS``);
``generate(rng)`` a student's own data for graded coursework, redrawn until every statement of
the text holds: every subtopic has a relevant document, the greedy ideal has a tie among its
first k picks (so the text's tie rule, the id that comes last, matters), novelty changes the
ideal (at some pick a document covering fewer subtopics wins), a redundant document (a gain
below its number of subtopics) lies in the ranking's top k, and the ranking is not ideal. q6
to q8 are about the text, not the data: they differ between students by the order of their
options. Hidden inputs (``hidden=``) are used by the grader only.

Variant space: 3 to 5 of the 5 subtopics, each document's subtopics (0 to 3) and 0-grades, the
8 ranked documents, k in 4 ... 6, the intent probabilities (multiples of 0.05): every value
question varies (200 students of tests/test_variant_space.py: 200 distinct answer sets; the
most shared value answer, q1's, by 4.5 % of them). No option must stay in place (no
``FIXED_OPTIONS``).
"""

import math

import numpy as np

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes
from coursekit.grading.variants import redraw

# ---------------------------------------------------------------------------------------------
# The public data (the notebook's data cell is data_source(PUBLIC); a test compares them)

PUBLIC = {
    "judgments": {
        "d01": {"upkeep": 1},
        "d02": {"cost": 1, "size": 1, "upkeep": 1},
        "d03": {"filter": 1, "upkeep": 1},
        "d04": {"cost": 1, "filter": 1, "size": 0, "upkeep": 1},
        "d05": {"law": 1},
        "d06": {},
        "d07": {"cost": 0, "filter": 1, "law": 1, "size": 1},
        "d08": {"filter": 1},
        "d09": {"law": 0},
        "d10": {"size": 1},
    },
    "ranking": ["d10", "d11", "d08", "d02", "d09", "d05", "d03", "d04"],
    "k": 5,
    "intent": {"cost": 0.3, "filter": 0.2, "law": 0.2, "size": 0.15, "upkeep": 0.15},
}
SUBTOPICS = ("cost", "filter", "law", "size", "upkeep")
JUDGED_IDS = [f"d{i:02d}" for i in range(1, 11)]
UNJUDGED_ID = "d11"
DEPTH = 8  # documents in the ranking
ALPHA = 0.5
CUTOFFS = (4, 6)  # k is drawn in 4 ... 6
#: how many subtopics a drawn document is relevant to, and how likely each count is
COVER_COUNTS, COVER_WEIGHTS = (0, 1, 2, 3), (0.15, 0.4, 0.3, 0.15)


def data_source(data: dict) -> str:
    """The data cell of the notebook (ruff's layout)."""

    def grades(doc: str) -> str:
        return "{" + ", ".join(f'"{s}": {g}' for s, g in data["judgments"][doc].items()) + "}"

    intent = ", ".join(f'"{s}": {p}' for s, p in data["intent"].items())
    return "\n".join(
        [
            "# each judged document's grade for some subtopics: 1 relevant, 0 not relevant",
            "judgments = {",
            *(f'    "{doc}": {grades(doc)},' for doc in data["judgments"]),
            "}",
            "ranking = [" + ", ".join(f'"{d}"' for d in data["ranking"]) + "]  # top first",
            f"k = {data['k']}  # the cut-off of q1 to q5",
            f"alpha = {ALPHA}  # α of q2 to q4",
            "# q5: the probability P(s | q) of each intent (subtopic)",
            f"intent = {{{intent}}}",
        ]
    )


# ---------------------------------------------------------------------------------------------
# The measures by hand (each checked against coursekit in facts)


class Unsuitable(ValueError):
    """Drawn data on which a statement of the exercise's text does not hold."""


def require(condition: bool, why: str) -> None:
    if not condition:
        raise Unsuitable(why)


def relevant_to(judgments: dict, doc: str, zero_counts: bool = False) -> list[str]:
    """The subtopics ``doc`` is relevant to (grade >= 1; with ``zero_counts``, every subtopic it
    was judged for: a slip)."""
    return [s for s, g in judgments.get(doc, {}).items() if zero_counts or g >= 1]


def gains_of(ranking, judgments, alpha=ALPHA, shift=0, zero_counts=False) -> list[float]:
    """G_r = Σ (1 - α)^(c(r, s) + shift) over the subtopics of the document at rank r (shift 1:
    the document counted among those seen before it, a slip)."""
    seen: dict[str, int] = {}
    gains = []
    for doc in ranking:
        subtopics = relevant_to(judgments, doc, zero_counts)
        gains.append(float(sum((1 - alpha) ** (seen.get(s, 0) + shift) for s in subtopics)))
        for s in subtopics:
            seen[s] = seen.get(s, 0) + 1
    return gains


def dcg(gains, k, jarvelin=False) -> float:
    """Σ_{r <= k} G_r / log2(r + 1) (Järvelin and Kekäläinen's: log2 r from rank 2 on)."""
    return sum(
        g / (max(1.0, math.log2(r)) if jarvelin else math.log2(r + 1))
        for r, g in enumerate(gains[:k], start=1)
    )


def greedy(judgments, k, alpha=ALPHA, among=None, last=True) -> tuple[list[str], bool, bool]:
    """(the first k picks of the greedy ideal, whether a pick tied, whether some pick covers
    fewer subtopics than a document left): a tie goes to the id that sorts last (ndeval's
    rule; ``last=False``, to the first: a slip); ``among`` restricts the picks (a slip)."""
    left = sorted(d for d in judgments if among is None or d in among)
    seen: dict[str, int] = {}
    picks, tie, novelty = [], False, False
    while left and len(picks) < k:
        gain = {
            d: sum((1 - alpha) ** seen.get(s, 0) for s in relevant_to(judgments, d)) for d in left
        }
        best = max(gain.values())
        tied = [d for d in left if math.isclose(gain[d], best)]
        tie = tie or len(tied) > 1
        doc = tied[-1] if last else tied[0]
        novelty = novelty or any(
            len(relevant_to(judgments, d)) > len(relevant_to(judgments, doc)) for d in left
        )
        picks.append(doc)
        left.remove(doc)
        for s in relevant_to(judgments, doc):
            seen[s] = seen.get(s, 0) + 1
    return picks, tie, novelty


def by_count(judgments, k) -> list[str]:
    """The documents sorted by how many subtopics they are relevant to (a slip: no novelty),
    a tie to the id that sorts last."""
    return sorted(judgments, key=lambda d: (len(relevant_to(judgments, d)), d), reverse=True)[:k]


def ndcg_s(ranking, judgments, subtopic, k, own_ideal=False) -> float:
    """Binary nDCG@k of one subtopic (trec_eval's discount), the ideal from every document
    judged relevant to it (``own_ideal``: from the ranked ones only, a slip)."""
    gains = [1 if subtopic in relevant_to(judgments, d) else 0 for d in ranking]
    pool = ranking if own_ideal else list(judgments)
    n_ideal = sum(1 for d in pool if subtopic in relevant_to(judgments, d))
    best = dcg([1.0] * n_ideal, k)
    return dcg(gains, k) / best if best else 0.0


def facts(data: dict) -> dict:
    """Every value the questions need; raises :class:`Unsuitable` when a statement of the text
    does not hold on ``data``."""
    judgments, ranking, k, intent = data["judgments"], data["ranking"], data["k"], data["intent"]
    f: dict = {}
    subtopics = sorted({s for d in judgments for s in relevant_to(judgments, d)})
    require(subtopics == sorted(intent), "every subtopic of intent has a relevant document")
    require(math.isclose(sum(intent.values()), 1.0), "the intent probabilities sum to 1")

    # q1: S-recall at every cut-off, and its slips
    def curve(zero_counts=False, over=None):
        seen, out = set(), []
        for doc in ranking:
            seen |= set(relevant_to(judgments, doc, zero_counts))
            out.append(len(seen & set(subtopics)) / len(over or subtopics))
        return out

    f["s_recall"] = [ck.subtopic_recall(ranking, judgments, r) for r in range(1, DEPTH + 1)]
    assert np.allclose(f["s_recall"], curve())
    f["s_recall_zero"] = curve(zero_counts=True)
    covered = {s for d in ranking for s in relevant_to(judgments, d)}
    f["s_recall_covered"] = curve(over=sorted(covered))
    f["s_recall_docs"] = [
        sum(1 for d in ranking[:r] if relevant_to(judgments, d)) / r for r in range(1, DEPTH + 1)
    ]

    # q2: the novelty gains of the top k
    f["gains"] = [float(g) for g in ck.novelty_gains(ranking[:k], judgments, ALPHA)]
    assert np.allclose(f["gains"], gains_of(ranking[:k], judgments))
    f["gains_counts"] = gains_of(ranking[:k], judgments, alpha=0.0)
    f["gains_shift"] = gains_of(ranking[:k], judgments, shift=1)
    f["gains_new"] = gains_of(ranking[:k], judgments, alpha=1.0)
    f["gains_zero"] = gains_of(ranking[:k], judgments, zero_counts=True)
    require(f["gains"] != f["gains_counts"], "a redundant document in the top k")

    # q3: the greedy ideal's first k documents
    picks, tie, novelty = greedy(judgments, k)
    require(tie, "a tie among the ideal's first k picks: the tie rule matters")
    require(novelty, "novelty changes the ideal: a pick covers fewer subtopics than one left")
    f["ideal"] = ck.ideal_diversity_ranking(judgments, ALPHA, depth=k)
    assert f["ideal"] == picks
    f["ideal_count"] = by_count(judgments, k)
    f["ideal_ranked"] = greedy(judgments, k, among=ranking)[0]
    f["ideal_first"] = greedy(judgments, k, last=False)[0]
    ideal_gains = gains_of(f["ideal"], judgments)

    # q4: alpha-DCG@k, the ideal's, alpha-nDCG@k
    run, best = dcg(f["gains"], k), dcg(ideal_gains, k)
    f["alpha_ndcg"] = [run, best, run / best]
    assert math.isclose(run, ck.alpha_dcg(ranking, judgments, k, ALPHA))
    assert math.isclose(run / best, ck.alpha_ndcg(ranking, judgments, k, ALPHA))
    require(run / best < 0.98, "the ranking is not ideal")
    own = dcg(sorted(f["gains"], reverse=True), k)
    f["alpha_own"] = [run, own, run / own]
    counts = sorted((len(relevant_to(judgments, d)) for d in judgments), reverse=True)
    plain = dcg(counts, k)
    f["alpha_plain"] = [run, plain, run / plain]
    jr, jb = dcg(f["gains"], k, jarvelin=True), dcg(ideal_gains, k, jarvelin=True)
    f["alpha_jarvelin"] = [jr, jb, jr / jb]

    # q5: nDCG-IA@k with the intent probabilities
    each = {
        s: ck.ndcg(ck.judge(ranking, _one(judgments, s)), k, ideal=_ideal(judgments, s))
        for s in subtopics
    }
    assert all(math.isclose(each[s], ndcg_s(ranking, judgments, s, k)) for s in subtopics)
    f["ndcg_ia"] = sum(intent[s] * each[s] for s in subtopics)
    f["ndcg_ia_uniform"] = ck.ndcg_ia(ranking, judgments, k)
    f["ndcg_ia_own"] = sum(intent[s] * ndcg_s(ranking, judgments, s, k, True) for s in subtopics)
    dcgs = {
        s: dcg([1.0 if s in relevant_to(judgments, d) else 0.0 for d in ranking], k)
        for s in subtopics
    }
    ideals = {
        s: dcg([1.0] * sum(s in relevant_to(judgments, d) for d in judgments), k) for s in subtopics
    }
    f["ndcg_ia_ratio"] = sum(intent[s] * dcgs[s] for s in subtopics) / sum(
        intent[s] * ideals[s] for s in subtopics
    )
    f["ndcg_ia_sum"] = sum(each.values())
    return f


def _one(judgments: dict, subtopic: str) -> dict:
    """The binary judgments of one subtopic, {doc: 0 or 1}."""
    return {d: int(subtopic in relevant_to(judgments, d)) for d in judgments}


def _ideal(judgments: dict, subtopic: str) -> list[int]:
    return list(_one(judgments, subtopic).values())


# ---------------------------------------------------------------------------------------------
# A student's own data


def _draw(rng) -> dict:
    """Data of the text's shape (redrawn by :func:`generate` until every statement holds)."""
    m = int(rng.integers(3, len(SUBTOPICS) + 1))
    names = sorted(str(s) for s in rng.choice(SUBTOPICS, size=m, replace=False))
    judgments = {}
    for doc in JUDGED_IDS:
        count = min(m, int(rng.choice(COVER_COUNTS, p=COVER_WEIGHTS)))
        chosen = {str(s) for s in rng.choice(names, size=count, replace=False)}
        others = [s for s in names if s not in chosen]
        zero = {str(rng.choice(others))} if others and rng.random() < 0.25 else set()
        judgments[doc] = {s: int(s in chosen) for s in names if s in chosen | zero}
    pool = JUDGED_IDS + ([UNJUDGED_ID] if rng.random() < 0.5 else [])
    ranking = [str(d) for d in rng.choice(pool, size=DEPTH, replace=False)]
    k = int(rng.integers(CUTOFFS[0], CUTOFFS[1] + 1))
    shares = 1 + rng.multinomial(20 - m, [1 / m] * m)  # units of 0.05, each at least one
    intent = {s: round(int(n) / 20, 2) for s, n in zip(names, shares, strict=True)}
    return {"judgments": judgments, "ranking": ranking, "k": k, "intent": intent}


# ---------------------------------------------------------------------------------------------
# The questions

ZERO = "a grade of 0 means judged not relevant to that subtopic: it covers nothing"
GAIN = "each subtopic of the document gains (1 - α)^c, c counting the documents above it"


def questions(f: dict) -> list:
    """The questions of the exercise on the data whose :func:`facts` are ``f``."""
    return [
        Value(
            "q1",
            f["s_recall"],
            low=0,
            high=1,
            hint="at each cut-off: the subtopics covered so far over all the query's subtopics",
            mistakes=[
                Mistake(f["s_recall_zero"], ZERO),
                Mistake(
                    f["s_recall_covered"],
                    "divide by every subtopic of the query, including those the ranking never "
                    "covers",
                ),
                Mistake(
                    f["s_recall_docs"],
                    "S-recall counts subtopics covered, not documents relevant to some subtopic",
                ),
            ],
        ),
        Value(
            "q2",
            f["gains"],
            low=0,
            hint=GAIN,
            mistakes=[
                Mistake(
                    f["gains_counts"],
                    "a subtopic seen above gains less each time: that is α = 0, no novelty",
                ),
                Mistake(
                    f["gains_shift"],
                    "c counts the documents above rank r only: the first document of a subtopic "
                    "gains 1 for it",
                ),
                Mistake(
                    f["gains_new"],
                    "a subtopic already seen still gains, only less: (1 - α) per document "
                    "above (α = 1 would give 0)",
                ),
                Mistake(f["gains_zero"], ZERO),
            ],
        ),
        Value(
            "q3",
            f["ideal"],
            hint="at each rank, the judged document with the highest novelty gain given the "
            "documents picked above it",
            mistakes=[
                Mistake(
                    f["ideal_count"],
                    "the gain of a candidate depends on the documents already picked: "
                    "recompute every candidate's novelty gain after each pick",
                ),
                Mistake(
                    f["ideal_first"],
                    "on a tie, take the document whose id comes last (as ndeval does)",
                ),
                Mistake(
                    f["ideal_ranked"],
                    "the ideal is built from every judged document, not only those ranked",
                ),
            ],
        ),
        Value(
            "q4",
            f["alpha_ndcg"],
            low=0,
            hint="α-DCG@k of the ranking, α-DCG@k of the greedy ideal of q3 (its own novelty "
            "gains), then their ratio",
            mistakes=[
                Mistake(
                    f["alpha_own"],
                    "the ideal is the greedy ranking of q3 with its own novelty gains, not "
                    "your ranking's gains sorted",
                ),
                Mistake(
                    f["alpha_plain"],
                    "the ideal's gains are novelty gains too: a subtopic it repeats gains less",
                ),
                Mistake(
                    f["alpha_jarvelin"],
                    "the discount is log2(r + 1): rank 2 is already discounted",
                ),
            ],
        ),
        Value(
            "q5",
            f["ndcg_ia"],
            low=0,
            high=1,
            hint="each subtopic's nDCG@k with its own ideal, weighted by its probability in "
            "intent, then summed",
            mistakes=[
                Mistake(
                    f["ndcg_ia_uniform"],
                    "weigh each subtopic by its intent probability, not 1 / number of subtopics",
                ),
                Mistake(
                    f["ndcg_ia_own"],
                    "each subtopic's ideal holds every document judged relevant to it, ranked "
                    "or not",
                ),
                Mistake(
                    f["ndcg_ia_ratio"],
                    "average the subtopics' nDCG values: a ratio of weighted DCG sums is "
                    "another measure",
                ),
            ],
        ),
        Choice(
            "q6",
            "b",
            options="abcd",
            hint="compute both rankings' novelty gains and α-DCG@3, and the subtopics each "
            "covers in its top 3",
        ),
        Choice(
            "q7",
            "a",
            options="abcd",
            hint="set α = 0 in the gain: what is (1 - 0)^c? Then compare how each option "
            "normalises",
        ),
        Choice(
            "q8",
            "c",
            options="abcd",
            hint="chapter 11: how the ideal ranking is found, and how large alpha-nDCG can be",
        ),
        Function(
            "q9",
            name="novelty_gains",
            reference="coursekit:novelty_gains",
            points=2,
            cases=[
                (
                    "two subtopics",
                    [["d2", "d1", "d4", "d3"], CHAPTER_EXAMPLE, 0.5],
                ),
                ("α = 0: no penalty for a repeat", [["d1", "d2", "d3"], CHAPTER_EXAMPLE, 0.0]),
                ("α = 1: a subtopic counts once", [["d2", "d1", "d3"], CHAPTER_EXAMPLE, 1.0]),
                (
                    "edge case: a grade of 0, and a document nobody judged",
                    [["d4", "d9", "d2"], CHAPTER_EXAMPLE, 0.5],
                ),
                (
                    "edge case: a grade of 2 counts as relevant, gains like 1",
                    [["x", "y"], {"x": {"a": 2}, "y": {"a": 1, "b": 2}}, 0.5],
                ),
                ("edge case: empty ranking", [[], CHAPTER_EXAMPLE, 0.5]),
            ],
            hidden=[
                (
                    "three repeats of one subtopic",
                    [["a1", "a2", "a3", "b1"], THREE_REPEATS, 0.25],
                ),
                ("the public exercise's data", [PUBLIC["ranking"], PUBLIC["judgments"], 0.5]),
                ("α = 0.8", [["d1", "d3", "d2"], CHAPTER_EXAMPLE, 0.8]),
                ("edge case: only unjudged documents", [["u1", "u2"], CHAPTER_EXAMPLE, 0.5]),
                ("edge case: judged for nothing", [["e"], {"e": {}, "f": {"a": 1}}, 0.5]),
            ],
            hint="keep, for each subtopic, how many documents above covered it; a document "
            "adds (1 - α)^that count for each subtopic it is relevant to (grade >= 1)",
            mistakes=[
                Mistake(
                    lambda r, j, a: gains_of(r, j, alpha=0.0),
                    "a subtopic seen above gains less each time, by (1 - α) per document",
                ),
                Mistake(
                    lambda r, j, a: gains_of(r, j, alpha=a, shift=1),
                    "the first document of a subtopic gains 1 for it: c counts the documents "
                    "above only",
                ),
                Mistake(lambda r, j, a: gains_of(r, j, alpha=a, zero_counts=True), ZERO),
            ],
        ),
    ]


#: the chapter's small example (coursekit's docstrings): two subtopics a and b
CHAPTER_EXAMPLE = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
THREE_REPEATS = {"a1": {"a": 1}, "a2": {"a": 1}, "a3": {"a": 1, "b": 0}, "b1": {"b": 1}}


def generate(rng):
    """(source of the data cell, questions): the public exercise when ``rng`` is None, else a
    student's own data drawn from the numpy Generator ``rng``."""
    if rng is None:
        data, f = PUBLIC, facts(PUBLIC)  # the public data must satisfy the text: no redraw
    else:
        data, f = redraw(rng, _draw, facts, Unsuitable)
    return data_source(data), without_harmless_mistakes(questions(f))


FACTS = facts(PUBLIC)  # the public exercise's values (for the tests)
QUESTIONS = generate(None)[1]
