"""Answer key of exercises/06_recall_oriented.ipynb (expected values computed by coursekit).

A systematic review: one query with n = 6 relevant studies; three systems A, B, C return 25
documents each, given by the ranks of the relevant ones; the reviewers read N_max = 25.
Every expected value and every mistaken value (``Mistake``: what a common slip gives, with its
hint) is computed here from the exercise's data. ``generate(None)`` gives the public example's
data cell and questions (``QUESTIONS``); ``generate(rng)`` a student's own ranks for graded
coursework, drawn so that every statement of the text holds: A finds 3 studies and comes
first by AP, B finds 5 (the last between ranks 13 and 24), C all 6, and one measure of q6
alone puts C last (AP or PRES@25, which gives q6's letter). q8's answer (D: its last study
comes before B's) and q9's rows are the same for everyone: they differ by the order of their
options. Hidden inputs (``hidden=``) are used by the grader only.

Variant space: the ranks of the 3, 5 and 6 studies found (every value question varies; q4's
and q7's answers depend on B's last rank, 13 to 24) and q6's letter among 2. q9's option c
("neither: every row could come from some ranking") stays last (``FIXED_OPTIONS``).
"""

from itertools import combinations

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

N_RELEVANT, N_MAX = 6, 25
FOUND_AT = {"A": [1, 2, 4], "B": [3, 7, 11, 16, 22], "C": [2, 19, 21, 23, 24, 25]}
SYSTEMS = list(FOUND_AT)
COUNTS = {"A": 3, "B": 5, "C": 6}  # the studies each system finds, as the text says
COLLECTIONS = (400, 40)  # two collection sizes D for Rnorm
# q8: a system D that finds 5 of the 6 studies in its first 25, the last of them at rank 12
D_FOUND, D_LAST = 5, 12
# q9: two printed tables of (h, MOR@25) for this query (n = 6, N_max = 25)
TABLES = {"X": [(3, 0.55), (4, 0.62)], "Y": [(5, 0.70), (3, 0.50)]}
#: q8: D's lowest MOR@25 over every placement of its 5 studies, the last at rank 12
D_WORST_MOR = min(
    ck.mor(ck.rels_from_ranks([*first, D_LAST], N_MAX), N_RELEVANT, N_MAX)
    for first in combinations(range(1, D_LAST), D_FOUND - 1)
)
#: the options that keep their place in a student's order: q9's "neither" stays last
FIXED_OPTIONS = {"q9": "c"}


# --------------------------------------------------------------------------------------------
# Hand computations (the steps coursekit hides) and the values common mistakes give


def _ap(found: list[int], divide_by: int) -> float:
    """AP from the ranks of the relevant documents found, divided by ``divide_by``."""
    return sum(i / r for i, r in enumerate(sorted(found), start=1)) / divide_by


def _pres_ranks(found: list[int], first_missing: int) -> list[int]:
    """The n ranks PRES uses: the found ones, then the missing ones from ``first_missing``."""
    return [*found, *range(first_missing, first_missing + N_RELEVANT - len(found))]


def _worst_ranks(found: list[int]) -> list[int]:
    """PRES's ranks: the n - h missing documents at N_max + h + 1, ..., N_max + n."""
    return _pres_ranks(found, N_MAX + len(found) + 1)


def _after_nmax(found: list[int]) -> list[int]:
    """The slip: the missing documents right after N_max (N_max + 1, N_max + 2, ...)."""
    return _pres_ranks(found, N_MAX + 1)


def _pres_of(ranks: list[int]) -> float:
    """Eq. 6 of PRES on the n ranks: 1 - (mean rank - (n + 1) / 2) / N_max."""
    return 1 - (sum(ranks) / N_RELEVANT - (N_RELEVANT + 1) / 2) / N_MAX


def _pres_eq7_as_printed(found: list[int]) -> float:
    """PRES through the paper's eq. 7 as printed: the missing documents counted with nR (the
    number found) instead of n(1 - R) (the number missing), when some are missing."""
    m = len(found) if len(found) < N_RELEVANT else 0
    total = sum(found) + m * (N_MAX + N_RELEVANT) - m * (m - 1) / 2
    return 1 - (total / N_RELEVANT - (N_RELEVANT + 1) / 2) / N_MAX


def _rnorm_of(ranks: list[int], n_docs: int, denominator: float | None = None) -> float:
    """Rnorm on the n ranks in a collection of ``n_docs``: the worst case is n (D - n)."""
    best = N_RELEVANT * (N_RELEVANT + 1) / 2
    return 1 - (sum(ranks) - best) / (denominator or N_RELEVANT * (n_docs - N_RELEVANT))


def _rnorm_ranks(found: list[int], n_docs: int) -> list[int]:
    """Rnorm's ranks: the missing documents at the last ranks of the collection."""
    return [*found, *range(n_docs - N_RELEVANT + len(found) + 1, n_docs + 1)]


def moved_b(found: dict[str, list[int]]) -> dict[str, list[int]]:
    """q7: B's last relevant study one rank down, then out of the 25 documents returned."""
    *others, last = found["B"]
    return {"one rank down": [*others, last + 1], "not returned": others}


def _scores(found: dict[str, list[int]]) -> dict[str, dict[str, float]]:
    """q6: each system's score under each measure of the options."""
    rels = {s: ck.rels_from_ranks(r, N_MAX) for s, r in found.items()}
    return {
        "a": {s: ck.average_precision(rels[s], N_RELEVANT) for s in SYSTEMS},
        "b": {s: ck.pres(rels[s], N_RELEVANT, N_MAX) for s in SYSTEMS},
        "c": {s: ck.mor(rels[s], N_RELEVANT, N_MAX) for s in SYSTEMS},
        "d": {s: ck.rnorm(rels[s], N_RELEVANT, COLLECTIONS[0]) for s in SYSTEMS},
    }


def _c_last(found: dict[str, list[int]]) -> list[str]:
    """The letters of the measures that put C last (strictly below A and B)."""
    return [
        letter for letter, by in _scores(found).items() if by["C"] < min(by["A"], by["B"]) - 1e-9
    ]


def _fits(found: dict[str, list[int]]) -> bool:
    """Whether ranks drawn for a student keep every statement of the text true: the counts,
    B's last study after D's (rank 12) and before rank 25, AP putting A (the precision-first
    system) first, and one measure of q6 alone putting C last (AP or PRES@25: q6's letter)."""
    if any(len(set(found[s])) != COUNTS[s] for s in SYSTEMS):
        return False
    ap = {s: _ap(found[s], N_RELEVANT) for s in SYSTEMS}  # by hand first: cheaper
    return (
        D_LAST < found["B"][-1] < N_MAX
        and ap["A"] > max(ap["B"], ap["C"])
        and len(_c_last(found)) == 1
    )


def _draw(rng) -> dict[str, list[int]]:
    """A student's ranks: A's 3 studies early, B's 5 spread, C's first early and 5 late."""
    while True:
        found = {
            "A": sorted(int(r) for r in rng.choice(range(1, 9), 3, replace=False)),
            "B": sorted(int(r) for r in rng.choice(range(1, N_MAX), 5, replace=False)),
            "C": [
                int(rng.integers(1, 4)),
                *sorted(int(r) for r in rng.choice(range(12, N_MAX + 1), 5, replace=False)),
            ],
        }
        if _fits(found):
            return found


def data_cell(found: dict[str, list[int]]) -> str:
    """The source of the exercise's data cell for these ranks."""
    ranks = ", ".join(f'"{s}": {[int(r) for r in found[s]]}' for s in SYSTEMS)
    return (
        "n_relevant, n_max = 6, 25\n"
        f"found_at = {{{ranks}}}\n"
        "rels = {s: ck.rels_from_ranks(ranks, n_max) for s, ranks in found_at.items()}"
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    ranks drawn from the numpy Generator ``rng``."""
    found = FOUND_AT if rng is None else _draw(rng)
    assert _fits(found), found
    questions = _questions(found)
    questions = without_harmless_mistakes(questions)
    return data_cell(found), questions


def _questions(found: dict[str, list[int]]) -> list:
    rels = {s: ck.rels_from_ranks(r, N_MAX) for s, r in found.items()}
    # q1: AP, and AP divided by the relevant documents found instead of all n
    ap = [ck.average_precision(rels[s], N_RELEVANT) for s in SYSTEMS]
    assert all(abs(a - _ap(found[s], N_RELEVANT)) < 1e-12 for a, s in zip(ap, SYSTEMS, strict=True))
    # q2, q3: the ranks PRES uses for A, and PRES of the three systems
    pres = [ck.pres(rels[s], N_RELEVANT, N_MAX) for s in SYSTEMS]
    assert all(
        abs(p - _pres_of(_worst_ranks(found[s]))) < 1e-12
        for p, s in zip(pres, SYSTEMS, strict=True)
    )
    pres_ranks_a = _worst_ranks(found["A"])
    # q4: best and worst AP for B's height h and width w
    parts_b = ck.mor_parts(rels["B"], N_RELEVANT, N_MAX)
    h_b, w_b = int(parts_b.h), int(parts_b.w)
    bounds_b = list(ck.mor_ap_bounds(h_b, w_b, N_RELEVANT))  # [AP0 (worst), AP1 (best)]
    assert bounds_b[0] < bounds_b[1]
    assert abs(bounds_b[1] - _ap([*range(1, h_b), w_b], N_RELEVANT)) < 1e-12
    assert abs(bounds_b[0] - _ap(list(range(w_b - h_b + 1, w_b + 1)), N_RELEVANT)) < 1e-12
    # q5: Rnorm of B and C for the two collection sizes
    cases = [(d, s) for d in COLLECTIONS for s in ("B", "C")]
    rnorm = [ck.rnorm(rels[s], N_RELEVANT, d) for d, s in cases]
    assert all(
        abs(r - _rnorm_of(_rnorm_ranks(found[s], d), d)) < 1e-12
        for r, (d, s) in zip(rnorm, cases, strict=True)
    )
    # q6: the one measure (among AP, PRES@25, MOR@25, Rnorm with D = 400) that puts C last
    c_last = _c_last(found)
    assert len(c_last) == 1, c_last
    # q7: how much PRES@25 of B drops in each move
    pres_b = ck.pres(rels["B"], N_RELEVANT, N_MAX)
    moved = moved_b(found)
    drops = [
        pres_b - ck.pres(ck.rels_from_ranks(r, N_MAX), N_RELEVANT, N_MAX) for r in moved.values()
    ]
    drops_after_nmax = [
        _pres_of(_after_nmax(found["B"])) - _pres_of(_after_nmax(r)) for r in moved.values()
    ]
    # the slip: the study that leaves the list taken to rank N_max + n, which the study B
    # missed already holds
    drops_to_last = [drops[0], (N_MAX + N_RELEVANT - found["B"][-1]) / (N_RELEVANT * N_MAX)]
    # q8: every placement of D's 5 studies (the last at rank 12) beats B on MOR@25
    d_above_b = D_WORST_MOR > ck.mor(rels["B"], N_RELEVANT, N_MAX)
    return [
        Value(
            "q1",
            ap,
            low=0,
            high=1,
            hint="precision at each relevant rank, summed, divided by 6 (missing ones add 0)",
            mistakes=[
                Mistake(
                    [_ap(found[s], len(found[s])) for s in SYSTEMS],
                    "you divided by the relevant studies each system found: AP divides by all "
                    "n relevant studies of the query, found or not",
                )
            ],
        ),
        Value(
            "q2",
            pres_ranks_a,
            low=1,
            high=N_MAX + N_RELEVANT,
            hint="found studies keep their ranks; h found, so the others go to N_max + h + 1, ...",
            mistakes=[
                Mistake(_after_nmax(found["A"]), AFTER_NMAX),
                Mistake(
                    [r - 1 for r in pres_ranks_a], "ranks start at 1 (the first document), not at 0"
                ),
            ],
        ),
        Value(
            "q3",
            pres,
            low=0,
            high=1,
            hint="the n ranks as in q2, then 1 - (mean rank - (n + 1) / 2) / N_max",
            mistakes=[
                Mistake([_pres_of(_after_nmax(found[s])) for s in SYSTEMS], AFTER_NMAX),
                Mistake(
                    [_pres_eq7_as_printed(found[s]) for s in SYSTEMS],
                    "you counted the missing studies with nR (those found), as the paper's eq. 7 "
                    "misprints it; the missing ones number n(1 - R)",
                ),
            ],
        ),
        Value(
            "q4",
            bounds_b,
            low=0,
            high=1,
            hint="fix h and w; the last found study stays at w, the h - 1 others go as early "
            "(best) or as late (worst) as they can",
            mistakes=[
                Mistake(
                    [x * N_RELEVANT / h_b for x in bounds_b],
                    "you divided by h, the studies found: AP divides by all n relevant studies",
                ),
                Mistake(
                    bounds_b[::-1],
                    "your two values are the wrong way round: AP0 is the worst placement and comes "
                    "first",
                ),
                Mistake(
                    list(ck.mor_ap_bounds(h_b, N_MAX, N_RELEVANT)),
                    "w is the rank of the last relevant study B found, not N_max",
                ),
            ],
        ),
        Value(
            "q5",
            rnorm,
            low=0,
            high=1,
            hint="the missing relevant documents take the last ranks of the whole collection",
            mistakes=[
                Mistake(
                    [_rnorm_of(_after_nmax(found[s]), d) for d in COLLECTIONS for s in "BC"],
                    "Rnorm ranks the whole collection: a study a system misses goes to the last "
                    "ranks of the D documents, not right after the 25 returned",
                ),
                Mistake(
                    [
                        _rnorm_of(_rnorm_ranks(found[s], d), d, N_RELEVANT * d)
                        for d in COLLECTIONS
                        for s in "BC"
                    ],
                    "check the denominator: it is the gap between the worst and the best sum of "
                    "ranks, not n times D",
                ),
            ],
        ),
        Choice(
            "q6",
            c_last[0],
            options="abcd",
            hint="compare the three systems' values under each measure",
        ),
        Value(
            "q7",
            drops,
            low=0,
            high=1,
            hint="PRES moves with the mean of the n ranks, divided by N_max",
            mistakes=[
                Mistake(
                    [d * N_RELEVANT for d in drops],
                    "PRES uses the mean of the n ranks: one rank that moves by k moves the mean "
                    "by k / n",
                ),
                Mistake(
                    drops_to_last,
                    "the study B already missed keeps its place: the one that leaves the list "
                    "takes the last free place before it, not the same rank",
                ),
                Mistake(drops_after_nmax, AFTER_NMAX),
            ],
        ),
        Choice(
            "q8",
            "b" if d_above_b else "?",
            options="abc",
            hint="which of MOR's three ingredients decides first, once h is the same?",
        ),
        Choice(
            "q9",
            IMPOSSIBLE_TABLE,
            options="abc",
            hint=(
                "MOR = (h + g_h(w, AP)) / (n + 1) with g_h between 0 and 1: which values can a "
                "given h give?"
            ),
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
                ("system B of the example", [rels["B"], N_RELEVANT, N_MAX]),
                ("more relevant documents than N_max", [[1, 1, 0], 5, 3]),
                ("ranking shorter than N_max", [[0, 1], 3, 10]),
                ("edge case: one relevant, found first", [[1], 1, 1]),
            ],
            hint="found documents keep their rank; if h are found, the missing ones get ranks "
            "N_max + h + 1, ..., N_max + n; 0 when n_relevant is 0",
        ),
    ]


# q9: which printed row no ranking can give (MOR rounded to 2 decimals)
def _mor_of(ranks: tuple[int, ...]) -> float:
    return round(ck.mor(ck.rels_from_ranks(list(ranks), N_MAX), N_RELEVANT, N_MAX), 2)


def _possible(h: int, printed: float) -> bool:
    """A witness ranking with this h and MOR, or MOR out of its range for h: MOR is smallest
    with the h documents at the last ranks read, largest with them at the first h ranks."""
    low = _mor_of(tuple(range(N_MAX - h + 1, N_MAX + 1)))
    high = _mor_of(tuple(range(1, h + 1)))
    if not low <= printed <= high:
        return False
    return any(_mor_of(r) == printed for r in combinations(range(1, N_MAX + 1), h))


POSSIBLE = {name: all(_possible(h, v) for h, v in rows) for name, rows in TABLES.items()}
IMPOSSIBLE_TABLE = {(True, False): "b", (False, True): "a", (True, True): "c"}.get(
    (POSSIBLE["X"], POSSIBLE["Y"]), "?"
)
assert IMPOSSIBLE_TABLE == "b", POSSIBLE

AFTER_NMAX = (
    "the missing studies do not come right after N_max: they take the last places among "
    "N_max + 1, ..., N_max + n, the worst ranking PRES imagines"
)

QUESTIONS = generate(None)[1]
