"""Answer key of exercises/04_top_of_list.ipynb (expected values computed by coursekit).

Two engines S and T answer five queries u1 ... u5; the judgments of their first 10 results
are binary, and each query has its number n of relevant documents in the collection. Every
expected value and every mistaken value (``Mistake``: what a common slip gives, with its hint)
is computed here from the exercise's data. ``generate(None)`` gives the public example's data
cell and questions (``QUESTIONS``); ``generate(rng)`` a student's own numbers n and judgments
for graded coursework, drawn so that every statement of the text holds: the text reads n from
the data cell (``n_relevant``), S finds nothing for u3, its precision and recall on u4 meet
once (at rank n of u4, q3), u5 has fewer than 10 relevant documents (q8), the engines differ
in MRR and in mean P@10 (q7's letter, drawn among the four, follows from the data). q6 and q9
are about a hypothetical query and about u3: they differ by the order of their options.
Hidden inputs (``hidden=``) are used by the grader only.

Variant space: n of u1 ... u5 in the ranges of ``N_RANGES`` (q3 takes 8 values, q8 9), which
ranks hold the relevant documents, q7's letter among 4: every value question varies. q6's
option d ("none of them") stays last (``FIXED_OPTIONS``).
"""

import numpy as np

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

N_RELEVANT = {"u1": 2, "u2": 5, "u3": 1, "u4": 8, "u5": 3}
SYSTEM_S = {
    "u1": [0, 1, 0, 0, 1, 0, 0, 0, 0, 0],
    "u2": [0, 0, 1, 1, 1, 0, 1, 0, 0, 0],
    "u3": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    "u4": [0, 1, 1, 1, 0, 1, 1, 0, 1, 0],
    "u5": [0, 0, 1, 1, 0, 1, 0, 0, 0, 0],
}
SYSTEM_T = {
    "u1": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    "u2": [1, 0, 0, 0, 0, 0, 0, 1, 0, 0],
    "u3": [0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
    "u4": [1, 0, 0, 0, 1, 0, 0, 0, 0, 0],
    "u5": [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
}
QUERIES = list(N_RELEVANT)
PAGE = 10
#: a student's n of each query lies in these ranges (u4: at least 3 for q3's figure; u5: fewer
#: than 10, q8's point)
N_RANGES = {"u1": (1, 6), "u2": (2, 8), "u3": (1, 4), "u4": (3, 10), "u5": (1, 9)}
LETTERS_7 = {(True, True): "a", (True, False): "b", (False, True): "c", (False, False): "d"}
#: the options that keep their place in a student's order: q6's "none of them" stays last
FIXED_OPTIONS = {"q6": "d"}


def best_ranking(n_relevant: int) -> list[int]:
    """q8: the best ranking of a query with ``n_relevant`` relevant documents (all first)."""
    return [1] * n_relevant + [0] * (PAGE - n_relevant)


# --------------------------------------------------------------------------------------------
# Hand computations and the values common mistakes give


def _first(rels: list[int]) -> int | None:
    """The rank (from 1) of the first relevant document, None if there is none."""
    return next((k for k, g in enumerate(rels, start=1) if g), None)


def _meet(rels: list[int], n_relevant: int) -> list[int]:
    """q3: the cut-offs where precision and recall are equal and not both 0."""
    table = ck.pr_table(rels, n_relevant)
    return [
        int(k)
        for k, p, r in zip(table["k"], table["precision"], table["recall"], strict=True)
        if p > 0 and np.isclose(p, r)
    ]


def _mrr(system: dict[str, list[int]]) -> float:
    return ck.mean_reciprocal_rank([system[q] for q in QUERIES])


def _p10(system: dict[str, list[int]]) -> float:
    return float(np.mean([ck.precision_at(system[q], PAGE) for q in QUERIES]))


def letter_7(system_s: dict[str, list[int]], system_t: dict[str, list[int]]) -> str:
    """q7: MRR decides for the navigational user, mean P@10 for the page reader."""
    return LETTERS_7[_mrr(system_s) > _mrr(system_t), _p10(system_s) > _p10(system_t)]


def _fits(n: dict[str, int], system_s: dict[str, list[int]], system_t: dict[str, list[int]]):
    """Whether judgments drawn for a student keep every statement of the text true."""
    return (
        all(len(s[q]) == PAGE and sum(s[q]) <= n[q] for s in (system_s, system_t) for q in QUERIES)
        and sum(system_s["u3"]) == 0  # q9: S finds nothing for u3
        and _meet(system_s["u4"], n["u4"]) == [n["u4"]]  # q3: they meet, once
        and n["u5"] < PAGE  # q8: a query with fewer relevant documents than the page
        and abs(_mrr(system_t) - _mrr(system_s)) > 1e-9  # q7: no tie for either user
        and abs(_p10(system_s) - _p10(system_t)) > 1e-9
    )


def _ranking(rng, found: int) -> list[int]:
    ranks = rng.choice(range(1, PAGE + 1), found, replace=False)
    return [int(k in ranks) for k in range(1, PAGE + 1)]


def _draw(rng) -> tuple[dict[str, int], dict[str, list[int]], dict[str, list[int]]]:
    """A student's n and judgments; q7's letter is drawn first (each of the four for a quarter
    of the students), then judgments until they give it."""
    n = {q: int(rng.integers(low, high + 1)) for q, (low, high) in N_RANGES.items()}
    letter = "abcd"[int(rng.integers(4))]
    while True:
        system_s = {q: _ranking(rng, 0 if q == "u3" else int(rng.integers(1, n[q] + 1))) for q in n}
        system_t = {q: _ranking(rng, int(rng.integers(0, n[q] + 1))) for q in n}
        if _fits(n, system_s, system_t) and letter_7(system_s, system_t) == letter:
            return n, system_s, system_t


def data_cell(
    n: dict[str, int], system_s: dict[str, list[int]], system_t: dict[str, list[int]]
) -> str:
    """The source of the exercise's data cell for these judgments (as ruff formats it)."""

    def block(name: str, system: dict[str, list[int]]) -> str:
        return f"{name} = {{\n" + "".join(f'    "{q}": {system[q]},\n' for q in QUERIES) + "}"

    return "\n".join(
        [
            "n_relevant = {" + ", ".join(f'"{q}": {n[q]}' for q in QUERIES) + "}",
            block("system_s", system_s),
            block("system_t", system_t),
            'queries = ["u1", "u2", "u3", "u4", "u5"]',
        ]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    judgments drawn from the numpy Generator ``rng``."""
    data = (N_RELEVANT, SYSTEM_S, SYSTEM_T) if rng is None else _draw(rng)
    assert _fits(*data), data
    questions = _questions(*data)
    questions = without_harmless_mistakes(questions)
    return data_cell(*data), questions


def _questions(
    n: dict[str, int], system_s: dict[str, list[int]], system_t: dict[str, list[int]]
) -> list:
    s = system_s
    best_u5 = best_ranking(n["u5"])
    p5 = [ck.precision_at(s[q], 5) for q in QUERIES]
    assert all(abs(p - sum(s[q][:5]) / 5) < 1e-12 for p, q in zip(p5, QUERIES, strict=True))
    rprec = [ck.r_precision(s[q], n[q]) for q in QUERIES]
    meet = _meet(s["u4"], n["u4"])[0]
    rr = [ck.reciprocal_rank(s[q]) for q in QUERIES]
    firsts = {"S": [_first(s[q]) for q in QUERIES], "T": [_first(system_t[q]) for q in QUERIES]}
    assert all(abs(x - (1 / f if f else 0.0)) < 1e-12 for x, f in zip(rr, firsts["S"], strict=True))
    mrr = [_mrr(s), _mrr(system_t)]

    from_zero = (  # ranks counted from 0: not when S has a relevant document first (1 / 0)
        [
            Mistake(
                [1 / (f - 1) if f else 0.0 for f in firsts["S"]],
                "ranks start at 1 (the first document), not at 0",
            )
        ]
        if 1 not in firsts["S"]
        else []
    )

    def found_only(name: str) -> float:  # the mean over the queries with a relevant result
        return float(np.mean([1 / f for f in firsts[name] if f]))

    def inverse_mean_rank(name: str) -> float:
        return 1 / float(np.mean([f for f in firsts[name] if f]))

    return [
        Value(
            "q1",
            p5,
            low=0,
            high=1,
            hint="relevant documents among the first 5, divided by 5",
            mistakes=[
                Mistake(
                    [sum(s[q][:5]) / n[q] for q in QUERIES],
                    "you divided by n, the relevant documents of the query (that is recall at "
                    "5): P@5 divides by 5",
                ),
                Mistake(
                    [sum(s[q][:6]) / 5 for q in QUERIES],
                    "the first 5 documents are ranks 1 to 5 (indices 0 to 4): you counted 6",
                ),
            ],
        ),
        Value(
            "q2",
            rprec,
            low=0,
            high=1,
            hint="the precision at rank n, with n the number of relevant documents of the query",
            mistakes=[
                Mistake(
                    [sum(s[q]) / n[q] for q in QUERIES],
                    "R-precision stops at rank n: you counted the relevant documents of the "
                    "whole page",
                ),
                Mistake(
                    [sum(s[q]) / PAGE for q in QUERIES],
                    "R-precision cuts each list at its own n, not at 10",
                ),
                Mistake(
                    [sum(s[q][: n[q] + 1]) / n[q] for q in QUERIES],
                    "the first n documents are ranks 1 to n (indices 0 to n - 1): you counted "
                    "one more",
                ),
            ],
        ),
        Value(
            "q3",
            meet,
            low=1,
            high=PAGE,
            hint="precision divides by k, recall by n: when are the two denominators equal?",
            mistakes=[Mistake(meet - 1, "ranks start at 1 (the first document), not at 0")],
        ),
        Value(
            "q4",
            rr,
            low=0,
            high=1,
            hint="1 / rank of the first relevant document, 0 if there is none",
            mistakes=[
                *from_zero,
                Mistake(
                    [1.0] * len(QUERIES),
                    "RR looks at the first relevant document, not the first document returned",
                ),
                Mistake(
                    [x if f else 1 / (PAGE + 1) for x, f in zip(rr, firsts["S"], strict=True)],
                    "a query without any relevant result counts with 0, not as if one came "
                    "just after the page",
                ),
                Mistake(
                    [f or 0 for f in firsts["S"]],
                    "you gave the rank: RR is 1 divided by it",
                ),
            ],
        ),
        Value(
            "q5",
            mrr,
            low=0,
            high=1,
            hint="the mean of the five reciprocal ranks of an engine",
            mistakes=[
                Mistake(
                    [found_only("S"), found_only("T")],
                    "every query counts in the mean: one without any relevant result counts "
                    "with RR 0",
                ),
                Mistake(
                    [inverse_mean_rank("S"), inverse_mean_rank("T")],
                    "MRR is the mean of the reciprocal ranks, not the reciprocal of the mean rank",
                ),
                Mistake(mrr[::-1], "MRR(S) comes first, then MRR(T)"),
            ],
        ),
        Choice(
            "q7",
            letter_7(system_s, system_t),
            options="abcd",
            hint="which measure follows each user: the first relevant result, or the whole first "
            "page?",
        ),
        Value(
            "q8",
            ck.precision_at(best_u5, PAGE),
            low=0,
            high=1,
            hint="the best ranking puts every relevant document of u5 first",
            mistakes=[
                Mistake(
                    ck.precision(best_u5[: n["u5"]], best_u5[: n["u5"]]),
                    "P@10 divides by 10 even when fewer than 10 documents can be relevant",
                ),
                Mistake(sum(best_u5), "that is a number of documents: P@10 divides it by 10"),
            ],
        ),
        Choice(
            "q9",
            "b",
            options="abcd",
            hint="see what reciprocal_rank returns on a list without any relevant document",
        ),
        Function(
            "q10",
            name="r_precision",
            reference="coursekit:r_precision",
            points=2,
            cases=[
                ("n = 3, two of them in the first 3", [[1, 0, 1, 1, 0], 3]),
                ("n = 4, list of 6", [[0, 1, 1, 0, 1, 1], 4]),
                ("list shorter than n: padded with non-relevant", [[1, 1], 5]),
                ("graded judgments: a grade >= 1 is relevant", [[2, 0, 1, 3], 3]),
                ("edge case: empty ranking", [[], 2]),
                ("edge case: no relevant document", [[0, 0, 0], 0]),
                ("edge case: no relevant document retrieved", [[0, 0, 0, 0], 2]),
            ],
            hidden=[
                ("n = 1, relevant at rank 1", [[1, 0, 0], 1]),
                ("n = 1, relevant at rank 2", [[0, 1], 1]),
                ("relevant only below rank n", [[0, 0, 1, 1], 2]),
                ("n = 10, long list", [[1, 0] * 10, 10]),
                ("edge case: empty ranking, no relevant document", [[], 0]),
                ("engine S on u4 of the example", [s["u4"], n["u4"]]),
            ],
            hint="P@n: divide by n even when the list is shorter than n; 0 when n is 0",
            mistakes=[
                Mistake(
                    _divided_by_retrieved,
                    "when the list is shorter than n, divide by n anyway (the missing ranks "
                    "count as non-relevant), not by the documents retrieved",
                )
            ],
        ),
        Choice(
            "q6",
            "c",
            options="abcd",
            hint="R-precision here is P@4; what happens to P@5, RR and AP?",
        ),
    ]


def _divided_by_retrieved(rels, n_relevant):
    """The slip of q10: R-precision divided by the documents retrieved when fewer than n."""
    if n_relevant == 0:
        return 0.0
    top = rels[:n_relevant]
    return sum(1 for g in top if g >= 1) / len(top) if top else 0.0


QUESTIONS = generate(None)[1]
