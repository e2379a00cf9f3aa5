"""Answer key of exercises/02_curves_interpolation.ipynb (expected values computed by coursekit).

Two systems A and B answer two topics, t1 (n = 6 relevant documents in the collection) and t2
(n = 4), with a judged ranking of 12 documents each. Every expected value and every mistaken
value (``Mistake``: what a common slip gives, with its hint) is computed here from the
exercise's data. ``generate(None)`` gives the public example's data cell and questions
(``QUESTIONS``); ``generate(rng)`` a student's own rankings for graded coursework, drawn so
that every statement of the text holds: the counts n of the text, A finds 2 to 5 of t1's 6
relevant documents and 1 or 3 of t2's 4 (so its interpolated precision is 0 at level 1.0), B
finds them all; one curve is at least the other from level 0 to 0.3 and above it at 0.1 (the
student of q8, who wants two or three documents, has one answer), no tie at level 1.0 (the
lawyer's); precision rises at some rank of A on t1 (q3). q8's letter follows from the data
(b or d: B always suits the lawyer). Hidden inputs (``hidden=``) are used by the grader only.

Variant space: which of the 12 ranks hold A's 2 to 5 and 1 or 3 relevant documents (within
the first 3 to 8) and B's 6 and 4: every value question varies; q7 takes 7 levels (0, 0.1 when
B leads from the start, else 0.4 to 0.9: none for more than 30 % of the students).
q9's option c ("both can") stays last (``FIXED_OPTIONS``).
"""

import numpy as np

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

N_RELEVANT = {"t1": 6, "t2": 4}
TOPICS = list(N_RELEVANT)
N_RANKS = 12
SYSTEM_A = {"t1": [1, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0], "t2": [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
SYSTEM_B = {"t1": [0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0], "t2": [0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0]}
# the relevant documents each system finds in its 12: A some (a student's: in these ranges), B all
FOUND = {"A": {"t1": (2, 5), "t2": (1, 3)}, "B": {"t1": (6, 6), "t2": (4, 4)}}
# a student's A: how many it finds (drawn from these, so that q7's level varies) ...
A_FINDS = {"t1": (2, 3, 4, 4, 5), "t2": (1, 1, 3)}
B_FOR_THE_STUDENT = 0.3  # ... and the share of students for whom B suits the student of q8
LEVELS = [float(x) for x in ck.STANDARD_RECALL_LEVELS]
#: q8: the levels a student who wants two or three documents reads, and the lawyer's
STUDENT_LEVELS, LAWYER_LEVEL = range(4), 10
#: the options that keep their place in a student's order: q9's "both can" stays last
FIXED_OPTIONS = {"q9": "c"}


# --------------------------------------------------------------------------------------------
# Hand computations and the values common mistakes give


def _counts(rels: list[int]) -> list[int]:
    """TP(k): the relevant documents among the first k, k = 1 ... N."""
    return np.cumsum(np.asarray(rels) > 0).tolist()


def _first_reaching(rels: list[int], n_relevant: int) -> list[float]:
    """The slip: at each level, the precision at the first rank whose recall reaches it
    (no maximum over the ranks further down); 0 when it is never reached."""
    table = ck.pr_table(rels, n_relevant)
    values = []
    for level in LEVELS:
        reached = [
            p for p, r in zip(table["precision"], table["recall"], strict=True) if r >= level
        ]
        values.append(float(reached[0]) if reached else 0.0)
    return values


def _carried(rels: list[int], n_relevant: int) -> list[float]:
    """The slip: a level never reached takes the value of the level before (not 0)."""
    values = ck.interpolated_precision(rels, n_relevant).tolist()
    reached = n_relevant and sum(1 for g in rels if g > 0) / n_relevant
    for i, level in enumerate(LEVELS):
        if i and level > reached + 1e-12:
            values[i] = values[i - 1]
    return values


def _averaged(system: dict[str, list[int]], curve=None) -> list[float]:
    """A curve of the system (default: interpolated precision) averaged over the topics."""
    curve = curve or (lambda rels, n: ck.interpolated_precision(rels, n).tolist())
    return np.mean([curve(system[t], N_RELEVANT[t]) for t in TOPICS], axis=0).tolist()


def _summed(system: dict[str, list[int]]) -> list[float]:
    return np.sum([ck.interpolated_precision(system[t], N_RELEVANT[t]) for t in TOPICS], axis=0)


def _rises(precision: list[float]) -> list[int]:
    return [k for k in range(2, len(precision) + 1) if precision[k - 1] > precision[k - 2]]


def _better(first: list[float], second: list[float]) -> bool:
    """Whether the student of q8 prefers the first curve: at least the second's from level 0
    to 0.3, above it at 0.1."""
    return all(first[i] >= second[i] for i in STUDENT_LEVELS) and first[1] > second[1]


def letter_8(iap_a: list[float], iap_b: list[float]) -> str:
    """q8: which engine suits the student (levels 0 to 0.3) and which the lawyer (level 1)."""
    student = "A" if _better(iap_a, iap_b) else "B"
    lawyer = "A" if iap_a[LAWYER_LEVEL] > iap_b[LAWYER_LEVEL] else "B"
    return {("A", "A"): "a", ("A", "B"): "b", ("B", "A"): "c", ("B", "B"): "d"}[student, lawyer]


def _fits(system_a: dict[str, list[int]], system_b: dict[str, list[int]]) -> bool:
    """Whether rankings drawn for a student keep every statement of the text true."""
    for name, system in (("A", system_a), ("B", system_b)):
        if any(
            not FOUND[name][t][0] <= sum(system[t]) <= FOUND[name][t][1]
            or len(system[t]) != N_RANKS
            for t in TOPICS
        ):
            return False
    iap_a, iap_b = _averaged(system_a), _averaged(system_b)
    precision_a1 = ck.pr_table(system_a["t1"], N_RELEVANT["t1"])["precision"].tolist()
    return (
        (_better(iap_a, iap_b) or _better(iap_b, iap_a))  # the student has one answer
        and abs(iap_a[LAWYER_LEVEL] - iap_b[LAWYER_LEVEL]) > 1e-9  # and so has the lawyer
        and len(_rises(precision_a1)) > 0
    )


def _ranking(rng, found: int, first: int) -> list[int]:
    """12 judgments with ``found`` relevant documents among ranks 1 ... ``first``."""
    ranks = rng.choice(range(1, first + 1), found, replace=False)
    return [int(k in ranks) for k in range(1, N_RANKS + 1)]


def _draw(rng) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """A student's rankings: A's relevant documents within its first 3 to 8 ranks, B's anywhere
    in the 12. Whom the student of q8 prefers is drawn first (B for 30 % of the students), so
    that q7's level (0 when B leads from the start) is no one's answer in most variants."""
    student = "B" if rng.random() < B_FOR_THE_STUDENT else "A"
    while True:
        found = {t: int(rng.choice(counts)) for t, counts in A_FINDS.items()}
        system_a = {
            t: _ranking(rng, found[t], int(rng.integers(max(3, found[t]), 9))) for t in TOPICS
        }
        system_b = {"t1": _ranking(rng, 6, N_RANKS), "t2": _ranking(rng, 4, N_RANKS)}
        if _fits(system_a, system_b) and _better(*_curves(system_a, system_b, student)):
            return system_a, system_b


def _curves(system_a, system_b, first: str) -> tuple[list[float], list[float]]:
    """The two averaged curves, ``first``'s first."""
    curves = [_averaged(system_a), _averaged(system_b)]
    return (curves[0], curves[1]) if first == "A" else (curves[1], curves[0])


def data_cell(system_a: dict[str, list[int]], system_b: dict[str, list[int]]) -> str:
    """The source of the exercise's data cell for these rankings (one line each, as ruff
    formats them: 99 characters)."""

    def line(name: str, system: dict[str, list[int]]) -> str:
        return f"{name} = {{" + ", ".join(f'"{t}": {system[t]}' for t in TOPICS) + "}"

    return "\n".join(
        [
            'n_relevant = {"t1": 6, "t2": 4}',
            line("system_a", system_a),
            line("system_b", system_b),
            "levels = ck.STANDARD_RECALL_LEVELS  # 0.0, 0.1, ..., 1.0",
        ]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    rankings drawn from the numpy Generator ``rng``."""
    data = (SYSTEM_A, SYSTEM_B) if rng is None else _draw(rng)
    assert _fits(*data), data
    questions = _questions(*data)
    questions = without_harmless_mistakes(questions)
    return data_cell(*data), questions


def _questions(system_a: dict[str, list[int]], system_b: dict[str, list[int]]) -> list:
    a1, n1 = system_a["t1"], N_RELEVANT["t1"]
    table = ck.pr_table(a1, n1)
    precision, recall = table["precision"].tolist(), table["recall"].tolist()
    counts = _counts(a1)
    pairs = enumerate(zip(precision, counts, strict=True), start=1)
    assert all(abs(p - c / k) < 1e-12 for k, (p, c) in pairs)
    rises = _rises(precision)
    relevant_ranks = [k for k in range(2, N_RANKS + 1) if a1[k - 1]]
    interpolated = ck.interpolated_precision(a1, n1).tolist()
    iap_a, iap_b = _averaged(system_a), _averaged(system_b)
    first_b = min(level for level, a, b in zip(LEVELS, iap_a, iap_b, strict=True) if b > a)
    first_tie = min(level for level, a, b in zip(LEVELS, iap_a, iap_b, strict=True) if b >= a)
    return [
        Value(
            "q1",
            precision,
            low=0,
            high=1,
            hint="relevant documents among the first k, divided by k",
            mistakes=[
                Mistake(
                    recall,
                    "you divided by the relevant documents of the topic: that is recall; "
                    "precision divides by k",
                ),
                Mistake(
                    counts,
                    "you gave the number of relevant documents among the first k: divide it by k",
                ),
            ],
        ),
        Value(
            "q2",
            recall,
            low=0,
            high=1,
            hint="relevant documents among the first k, divided by all the relevant documents "
            "of the topic (retrieved or not)",
            mistakes=[
                Mistake(precision, "you divided by k: that is precision; recall divides by n = 6"),
                Mistake(
                    [c / sum(a1) for c in counts],
                    "you divided by the relevant documents A retrieved: recall divides by all 6 "
                    "relevant documents of the topic, retrieved or not",
                ),
            ],
        ),
        Value(
            "q3",
            rises,
            low=1,
            high=N_RANKS,
            hint="precision can only rise at a relevant document; does it always rise there?",
            mistakes=[
                Mistake(
                    relevant_ranks,
                    "precision does not rise at every relevant document: after an unbroken run "
                    "of relevant ones it stays at 1",
                ),
                Mistake([k - 1 for k in rises], "ranks start at 1 (the first document), not at 0"),
            ],
        ),
        Value(
            "q4",
            interpolated,
            low=0,
            high=1,
            hint="at level r: the best precision at any rank whose recall is at least r, "
            "and 0 when recall r is never reached",
            mistakes=[
                Mistake(_first_reaching(a1, n1), NO_MAX),
                Mistake(_carried(a1, n1), CARRIED),
                Mistake(
                    [max(precision[i:]) for i in range(len(LEVELS))],
                    "the levels are recall values, not ranks: level 0.3 is where 30% of the "
                    "relevant documents have been found, not rank 3",
                ),
            ],
        ),
        Function(
            "q5",
            name="interpolated_precision",
            reference="coursekit:interpolated_precision",
            points=2,
            cases=[
                ("3 of 5 found", [[0, 1, 1, 0, 1, 0, 0, 0], 5]),
                ("all 3 relevant found", [[0, 1, 0, 1, 1, 0], 3]),
                ("recall 0.3 and 0.7 reached exactly (7 of 10)", [[1] * 7 + [0] * 3, 10]),
                (
                    "levels given: 0.25, 0.5, 0.75, 1.0",
                    [[1, 0, 0, 1, 0, 1], 4, [0.25, 0.5, 0.75, 1.0]],
                ),
                ("graded judgments: a grade >= 1 is relevant", [[2, 0, 1, 0], 3]),
                ("edge case: empty ranking", [[], 3]),
                ("edge case: no relevant document", [[0, 0, 0], 0]),
                ("edge case: no relevant document retrieved", [[0, 0, 0, 0], 2]),
            ],
            hidden=[
                ("all relevant first", [[1, 1, 1, 0, 0], 3]),
                ("3 of 10 at the end", [[0] * 7 + [1] * 3, 10]),
                ("one of one at rank 4", [[0, 0, 0, 1], 1]),
                ("levels given, one never reached", [[0, 1, 0, 1], 3, [0.0, 0.5, 1.0]]),
                ("edge case: empty ranking, no relevant document", [[], 0]),
                ("one document, relevant", [[1], 1]),
                ("system B on t1 of the example", [system_b["t1"], N_RELEVANT["t1"]]),
            ],
            hint="write the default levels as i / 10, not 0.1 * i (0.1 * 7 is not 0.7), and "
            "return 0 at a level that is never reached",
            mistakes=[
                Mistake(
                    _levels_times_tenth,
                    "0.1 * 7 is 0.7000000000000001, above a recall of exactly 0.7: write the "
                    "levels as i / 10",
                ),
                Mistake(_no_max, NO_MAX),
            ],
        ),
        Value(
            "q6",
            iap_b,
            low=0,
            high=1,
            hint="interpolate each topic at the 11 levels, then average level by level",
            mistakes=[
                Mistake(iap_a, "that is system A's curve: q6 asks for system B"),
                Mistake(
                    _summed(system_b).tolist(),
                    "you summed the two topics: the average divides the sum by 2",
                ),
                Mistake(_averaged(system_b, _first_reaching), NO_MAX),
            ],
        ),
        Value(
            "q7",
            first_b,
            low=0,
            high=1,
            hint="follow both curves from recall 0 to the right",
            mistakes=[
                Mistake(
                    round(first_b * 10),
                    "give the recall level itself (between 0 and 1), not its position in the "
                    "list of levels",
                ),
                Mistake(
                    first_tie,
                    "where the two curves are equal B is not higher: look for B strictly above A",
                ),
            ],
        ),
        Choice(
            "q8",
            letter_8(iap_a, iap_b),
            options="abcd",
            hint="compare the curves at low recall, then at high recall",
        ),
        Choice(
            "q10",
            "a",
            options="abcd",
            hint="the value at r is a maximum over a set that shrinks as r grows",
        ),
        Choice(
            "q9", "b", options="abc", hint="what does interpolation do to a curve as recall grows?"
        ),
    ]


NO_MAX = (
    "interpolation takes the best precision at any rank whose recall is at least the level, "
    "not the precision at the rank where the level is first reached"
)
CARRIED = "a level that no rank reaches gets 0, not the value of the level before it"


def _points(rels: list[float]) -> list[tuple[int, float]]:
    """(relevant found so far, precision) at each rank."""
    found, points = 0, []
    for rank, grade in enumerate(rels, start=1):
        found += grade >= 1
        points.append((found, found / rank))
    return points


def _levels_times_tenth(rels, n_relevant, levels=None):
    """The slip of q5: default levels written 0.1 * i and recall compared as a float."""
    levels = [0.1 * i for i in range(11)] if levels is None else levels
    points = _points(rels)
    return [
        max((p for f, p in points if n_relevant > 0 and f / n_relevant >= level), default=0.0)
        for level in levels
    ]


def _no_max(rels, n_relevant, levels=None):
    """The slip of q5: the precision at the first rank reaching each level."""
    levels = [i / 10 for i in range(11)] if levels is None else levels
    points = _points(rels)
    return [
        next((p for f, p in points if n_relevant > 0 and f >= level * n_relevant - 1e-9), 0.0)
        for level in levels
    ]


QUESTIONS = generate(None)[1]
