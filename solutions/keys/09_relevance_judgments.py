"""Answer key of exercises/09_relevance_judgments.ipynb (expected values computed by coursekit).

A 2 × 2 agreement table of two assessors (200 documents), a Fleiss table of three assessors on
four documents, and a ranking with unjudged documents. Every expected value and every mistaken
value (``Mistake``: what a common slip gives, with its hint) is computed here from the
exercise's data. ``generate(None)`` gives the public example's data cell and questions
(``QUESTIONS``); ``generate(rng)`` a student's own data for graded coursework, drawn so that
every statement of the text holds: 200 documents, the two assessors' shares of "relevant"
differ (so pooling changes kappa), the three assessors split on two documents at least, the ranking
has 8 ranks with 3 relevant, 3 non-relevant and 2 unjudged documents, an unjudged one above a
relevant one, and the topic has more judged relevant documents than the ranking retrieves;
of the two unjudged documents one was in the judging pool (not sampled), above a relevant one,
and the other outside the pool (q10, infAP).
The three choices are about the text, not the data (a lenient assessor, a new system after
pooling, kappa of skewed labels): they differ between students by the order of their options.
Hidden inputs (``hidden=``) are used by the grader only.

Variant space: the four counts of the 2 x 2 table, the Fleiss table, the ranking and R, N:
every value question varies (q3, of a four-document Fleiss table, takes 12 values or more;
q10 also draws which unjudged document was pooled).
"""

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

# the public data: the 2 x 2 table (assessor 1 / assessor 2), the Fleiss table, the ranking
COUNTS = (120, 50, 20, 10)  # both yes, both no, yes / no, no / yes
FLEISS = [[3, 0], [2, 1], [0, 3], [1, 2]]
RANKING = [1, None, 0, 1, None, 0, 0, 1]
N_RELEVANT, N_NONRELEVANT = 4, 5
POOLED = [False, True, False, False, False, False, False, False]  # in the pool, not sampled
N_DOCS, N_ASSESSORS = 200, 3


def judges(counts: tuple[int, int, int, int]) -> tuple[list[str], list[str]]:
    """The two assessors' labels, one per document, from the four counts of the table."""
    both_yes, both_no, yes_no, no_yes = counts
    pairs = [("yes", "yes")] * both_yes + [("no", "no")] * both_no
    pairs += [("yes", "no")] * yes_no + [("no", "yes")] * no_yes
    return [a for a, _ in pairs], [b for _, b in pairs]


def _kappa(p_a: float, p_e: float) -> float:
    return (p_a - p_e) / (1 - p_e)


def _chance(yes1: float, yes2: float) -> float:
    return yes1 * yes2 + (1 - yes1) * (1 - yes2)


def fleiss_by_hand(table: list[list[int]], self_pairs: bool = False) -> list[float]:
    """[mean P_i, P_e, kappa] of Fleiss; ``self_pairs``: the slip P_i = Σ n_ij² / n²."""
    n = sum(table[0])
    if self_pairs:
        p_i = [sum(x * x for x in row) / n**2 for row in table]
    else:
        p_i = [(sum(x * x for x in row) - n) / (n * (n - 1)) for row in table]
    p_bar = sum(p_i) / len(table)
    shares = [sum(row[j] for row in table) / (n * len(table)) for j in range(len(table[0]))]
    p_e = sum(s * s for s in shares)
    return [p_bar, p_e, _kappa(p_bar, p_e)]


def bpref_by_hand(
    ranking: list, n_rel: int, n_nonrel: int, unjudged_as_nonrel=False, denominator=None
) -> list[float]:
    """Each retrieved relevant document's term 1 - min(above, R) / min(N, R) (``denominator``
    in place of min(N, R) for a slip), ``above`` counting judged non-relevant documents above
    it (and unjudged ones too with ``unjudged_as_nonrel``)."""
    bottom = min(n_nonrel, n_rel) if denominator is None else denominator
    terms, above = [], 0
    for g in ranking:
        if g is None:
            above += unjudged_as_nonrel
        elif g >= 1:
            terms.append(1 - min(above, n_rel) / bottom if above else 1.0)
        else:
            above += 1
    return terms


def kappa_one_list(a: list, b: list) -> float:
    """The slip of q9: P(E) from the first list's label shares only."""
    n = len(a)
    p_a = sum(x == y for x, y in zip(a, b, strict=True)) / n
    p_e = sum((list(a).count(c) / n) ** 2 for c in set(a))
    return float("nan") if p_e >= 1 else _kappa(p_a, p_e)


def scott_pi(a: list, b: list) -> float:
    """The other slip of q9: P(E) from the two lists' labels pooled (Scott's pi, the chapter's
    Manning et al. example), not from each list's own shares."""
    n = len(a)
    p_a = sum(x == y for x, y in zip(a, b, strict=True)) / n
    both = list(a) + list(b)
    p_e = sum((both.count(c) / (2 * n)) ** 2 for c in set(both))
    return float("nan") if p_e >= 1 else _kappa(p_a, p_e)


def infap_by_hand(ranking: list, pooled: list, n_rel: int, own_document=True) -> float:
    """infAP term by term: E[P@k] = 1/k + ((k - 1)/k) (|pool above| / (k - 1)) (rel + eps) /
    (rel + nonrel + 2 eps) at each retrieved relevant rank k (E[P@1] = 1), summed, over R;
    without ``own_document`` (a slip) the 1/k of the relevant document itself is left out:
    E[P@k] = (|pool above| / (k - 1)) (rel + eps) / (rel + nonrel + 2 eps)."""
    eps = ck.measures.incomplete.INFAP_EPSILON
    total, rel, nonrel, in_pool = 0.0, 0, 0, 0
    for k, (g, p) in enumerate(zip(ranking, pooled, strict=True), start=1):
        if g is not None and g >= 1:
            share = (rel + eps) / (rel + nonrel + 2 * eps)
            if k == 1:
                total += 1.0
            elif own_document:
                total += 1 / k + (k - 1) / k * in_pool / (k - 1) * share
            else:
                total += in_pool / (k - 1) * share
        rel += g is not None and g >= 1
        nonrel += g is not None and g < 1
        in_pool += g is not None or p
    return total / n_rel


def _fits(counts, fleiss, ranking, n_rel, n_nonrel, pooled) -> bool:
    """Whether data drawn for a student keep every statement of the text true."""
    both_yes, both_no, yes_no, no_yes = counts
    judged = [g for g in ranking if g is not None]
    first_rel = next(i for i, g in enumerate(ranking) if g == 1)
    last_rel = max(i for i, g in enumerate(ranking) if g == 1)
    return (
        sum(counts) == N_DOCS
        and min(counts) >= 5
        and abs(yes_no - no_yes) >= 5  # the assessors' shares differ: pooling changes kappa
        and 0.1 < ck.cohen_kappa(*judges(counts)) < 0.9
        and all(sum(row) == N_ASSESSORS for row in fleiss)
        and sum(min(row) > 0 for row in fleiss) >= 2  # at least two split documents
        and 0 < sum(row[0] for row in fleiss) < N_ASSESSORS * len(fleiss)
        and len(ranking) == 8
        and ranking.count(None) == 2
        and judged.count(1) == 3
        and any(g is None for g in ranking[first_rel:last_rel])  # unjudged above a relevant
        and ranking[0] is not None
        and n_rel > 3
        and n_nonrel >= 3
        and n_rel != n_nonrel
        and len(pooled) == len(ranking)
        and sum(pooled) == 1
        and ranking[pooled.index(True)] is None  # the pooled one is unjudged
        and 1 in ranking[pooled.index(True) :]  # and above a relevant document
    )


def _draw(rng):
    """A student's data: the four counts, the Fleiss table, the ranking and R, N."""
    while True:
        yes_no, no_yes = (int(x) for x in rng.integers(5, 31, size=2))
        both_no = int(rng.integers(30, 71))
        counts = (N_DOCS - both_no - yes_no - no_yes, both_no, yes_no, no_yes)
        fleiss = [[k, N_ASSESSORS - k] for k in (int(x) for x in rng.integers(0, 4, size=4))]
        ranking = [[1, 1, 1, 0, 0, 0, None, None][int(i)] for i in rng.permutation(8)]
        n_rel, n_nonrel = int(rng.integers(4, 7)), int(rng.integers(3, 9))
        unjudged = [i for i, g in enumerate(ranking) if g is None]
        chosen = unjudged[int(rng.integers(len(unjudged)))] if unjudged else None
        pooled = [i == chosen for i in range(len(ranking))]
        if _fits(counts, fleiss, ranking, n_rel, n_nonrel, pooled):
            return counts, fleiss, ranking, n_rel, n_nonrel, pooled


def data_cell(counts, fleiss, ranking, n_rel, n_nonrel, pooled) -> str:
    """The source of the exercise's data cell for these data."""
    rows = ", ".join(f"[{a}, {b}]" for a, b in fleiss)
    grades = ", ".join("None" if g is None else str(g) for g in ranking)
    return "\n".join(
        [
            "# q1, q2: how many of the 200 documents each pair of labels got (assessor 1 / 2)",
            "both_yes, both_no, yes_no, no_yes = " + ", ".join(str(c) for c in counts),
            "# q3: per document, how many of three assessors said [relevant, not relevant]",
            f"table = [{rows}]",
            "# q4, q5: a ranking's judgments, best first (None: unjudged), and the topic's",
            "# numbers of judged relevant (R) and judged non-relevant (N) documents",
            f"ranking = [{grades}]",
            f"n_relevant, n_nonrelevant = {n_rel}, {n_nonrel}",
            "# q10: True where an unjudged document was in the pool but not sampled for judging",
            f"pooled = [{', '.join(str(p) for p in pooled)}]",
        ]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    data drawn from the numpy Generator ``rng``."""
    public = (COUNTS, FLEISS, RANKING, N_RELEVANT, N_NONRELEVANT, POOLED)
    data = public if rng is None else _draw(rng)
    assert _fits(*data)
    return data_cell(*data), without_harmless_mistakes(_questions(*data))


def _one_assessor(which: int) -> str:
    return (
        f"P(E) from assessor {which}'s label shares only: Cohen's chance agreement multiplies "
        "assessor 1's share of a label by assessor 2's share of it"
    )


def _questions(counts, fleiss, ranking, n_rel, n_nonrel, in_pool) -> list:
    judge1, judge2 = judges(counts)
    n = len(judge1)
    # q1: P(A), P(E) and kappa by hand, checked against coursekit
    p_a = sum(a == b for a, b in zip(judge1, judge2, strict=True)) / n
    yes1, yes2 = judge1.count("yes") / n, judge2.count("yes") / n
    p_e = _chance(yes1, yes2)
    kappa = ck.cohen_kappa(judge1, judge2)
    assert abs(kappa - _kappa(p_a, p_e)) < 1e-12
    # q2: the pooled chance agreement of Manning et al.
    pooled = (yes1 + yes2) / 2
    kappa_pooled = ck.cohen_kappa(judge1, judge2, pooled=True)
    assert abs(kappa_pooled - _kappa(p_a, _chance(pooled, pooled))) < 1e-12
    # q3: Fleiss by hand, checked against coursekit
    fleiss_right = fleiss_by_hand(fleiss)
    assert abs(fleiss_right[2] - ck.fleiss_kappa(fleiss)) < 1e-12
    fleiss_self = fleiss_by_hand(fleiss, self_pairs=True)
    # q4: bpref, checked against coursekit, and its slips
    bpref = ck.bpref(ranking, n_rel, n_nonrel)
    assert abs(bpref - sum(bpref_by_hand(ranking, n_rel, n_nonrel)) / n_rel) < 1e-12
    as_nonrel = sum(bpref_by_hand(ranking, n_rel, n_nonrel, unjudged_as_nonrel=True)) / n_rel
    over_n = sum(bpref_by_hand(ranking, n_rel, n_nonrel, denominator=n_nonrel)) / n_rel
    retrieved = sum(1 for g in ranking if g == 1)
    over_retrieved = bpref * n_rel / retrieved
    # q5: AP with the unjudged documents as non-relevant, AP' on the condensed list
    aps = [
        ck.average_precision([0 if g is None else g for g in ranking], n_rel),
        ck.average_precision([g for g in ranking if g is not None], n_rel),
    ]
    # q10: infAP by hand, checked against coursekit, and its slips
    infap = ck.infap(ranking, n_rel, in_pool)
    assert abs(infap - infap_by_hand(ranking, in_pool, n_rel)) < 1e-12
    every_unjudged_pooled = [g is None for g in ranking]
    return [
        Value(
            "q1",
            [p_a, p_e, kappa],
            low=-1,
            high=1,
            hint="P(A) = agreements / 200; P(E) = P1(yes) P2(yes) + P1(no) P2(no)",
            mistakes=[
                Mistake(
                    [p_a, _chance(yes1, yes1), _kappa(p_a, _chance(yes1, yes1))], _one_assessor(1)
                ),
                Mistake(
                    [p_a, _chance(yes2, yes2), _kappa(p_a, _chance(yes2, yes2))], _one_assessor(2)
                ),
                Mistake(
                    [p_a, yes1 * yes2, _kappa(p_a, yes1 * yes2)],
                    "P(E) adds the chance that both say 'no' to the chance that both say 'yes'",
                ),
                Mistake(
                    [p_a, p_e, p_a],
                    "kappa corrects P(A) for chance: (P(A) - P(E)) / (1 - P(E))",
                ),
                Mistake([p_a, p_e, p_a - p_e], "kappa divides P(A) - P(E) by 1 - P(E)"),
                Mistake(
                    [p_a, _chance(pooled, pooled), kappa_pooled],
                    "that is the pooled chance agreement (q2): Cohen's uses each assessor's own "
                    "label shares",
                ),
            ],
        ),
        Value(
            "q2",
            kappa_pooled,
            low=-1,
            high=1,
            hint="pool the 400 labels: P(yes) = (assessor 1's yes + assessor 2's yes) / 400",
            mistakes=[
                Mistake(
                    kappa,
                    "that is Cohen's kappa of q1: here P(E) comes from the 400 labels pooled",
                ),
                Mistake(
                    _kappa(p_a, _chance(yes1, yes1)),
                    "pool both assessors' labels, not only assessor 1's",
                ),
            ],
        ),
        Value(
            "q3",
            fleiss_right,
            low=-1,
            high=1,
            hint="P_i = (sum of squares - 3) / 6 per document; p_j over all 12 labels; "
            "P_e = sum of p_j^2",
            mistakes=[
                Mistake(
                    fleiss_self,
                    "P_i counts the pairs of different assessors that agree: "
                    "(sum of n_ij^2 - r) / (r (r - 1)) for r assessors, not sum of n_ij^2 / r^2",
                ),
                Mistake(
                    [*fleiss_right[:2], fleiss_right[0] - fleiss_right[1]],
                    "kappa divides mean P_i - P_e by 1 - P_e",
                ),
            ],
        ),
        Value(
            "q4",
            bpref,
            low=0,
            high=1,
            hint="skip unjudged documents; count judged non-relevant ones above each relevant one",
            mistakes=[
                Mistake(
                    as_nonrel,
                    "bpref skips unjudged documents: only judged non-relevant ones above a "
                    "relevant one count",
                ),
                Mistake(over_n, "divide each count by min(R, N), not by N"),
                Mistake(
                    over_retrieved,
                    "divide the sum by R, every judged relevant document, not by those retrieved",
                ),
            ],
        ),
        Value(
            "q5",
            aps,
            low=0,
            high=1,
            hint="AP′: remove the unjudged documents first, keep R",
            mistakes=[
                Mistake(
                    [ap * n_rel / retrieved for ap in aps],
                    "AP divides by R, every judged relevant document of the topic, not by the "
                    "relevant documents retrieved",
                ),
                Mistake(aps[::-1], "AP (unjudged as not relevant) comes first, then AP′"),
            ],
        ),
        Value(
            "q10",
            infap,
            low=0,
            high=1,
            hint="at each relevant rank k: 1/k + ((k - 1)/k) (pooled above / (k - 1)) "
            "(rel + eps) / (rel + nonrel + 2 eps), with the judged documents above; sum, then / R",
            mistakes=[
                Mistake(
                    ck.infap(ranking, n_rel),
                    "that is AP with every unjudged document not relevant: the document in the "
                    "pool counts in |pool above k|, as relevant in the proportion of the judged "
                    "ones",
                ),
                Mistake(
                    ck.infap(ranking, n_rel, every_unjudged_pooled),
                    "only the document marked in `pooled` was in the pool: a document outside "
                    "the pool does not count in |pool above k| (it is taken as not relevant)",
                ),
                Mistake(
                    infap * n_rel / retrieved,
                    "divide the sum by R, every judged relevant document, not by those retrieved",
                ),
                Mistake(
                    infap_by_hand(ranking, in_pool, n_rel, own_document=False),
                    "E[P@k] counts the relevant document at rank k itself: 1/k + ((k - 1)/k) ...",
                ),
            ],
        ),
        Choice("q6", "b", options="abcd", hint="the same assessor judges every system"),
        Choice("q7", "b", options="abcd", hint="who judged the new system's documents?"),
        Choice("q8", "b", options="abcd", hint="compute P(E) for two assessors at 95 % relevant"),
        Function(
            "q9",
            name="cohen_kappa",
            reference="coursekit:cohen_kappa",
            points=2,
            cases=[
                ("perfect agreement", [["y", "n", "y"], ["y", "n", "y"]]),
                (
                    "the book's style of table",
                    [["y", "y", "n", "n", "y"], ["y", "n", "n", "y", "y"]],
                ),
                ("numbers as labels", [[0, 1, 2, 2, 1], [0, 2, 2, 1, 1]]),
                ("one says yes more often", [["y", "y", "y", "n", "y"], ["y", "n", "n", "n", "y"]]),
                ("edge case: one label each", [["y", "y"], ["n", "n"]]),
                ("edge case: all the same", [["y", "y", "y"], ["y", "y", "y"]]),
            ],
            hidden=[
                ("the exercise's table", [judge1, judge2]),
                ("unequal shares, three labels", [[0, 0, 1, 2, 0, 1], [0, 1, 1, 1, 1, 2]]),
            ],
            hint="P(A) from the matching pairs, P(E) from each list's own label shares; nan "
            "when P(E) is 1",
            mistakes=[
                Mistake(kappa_one_list, _one_assessor(1)),
                Mistake(
                    scott_pi,
                    "P(E) from the two lists' labels pooled (Scott's pi, as in the chapter's "
                    "Manning et al. example): Cohen's kappa uses each list's own label shares",
                ),
            ],
        ),
    ]


QUESTIONS = generate(None)[1]
