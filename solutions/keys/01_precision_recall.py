"""Answer key of exercises/01_precision_recall.ipynb (expected values computed by coursekit).

The example: a collection of D documents (d01, d02, ...); for one query, n of them are
relevant and the system returns N (the public example: D = 40, n = 8, N = 10). Every expected
value and every mistaken value (``Mistake``: what a common slip gives, with its hint) is
computed here from the exercise's data. ``generate(None)`` gives the public example's data
cell and questions (``QUESTIONS``); ``generate(rng)`` a student's own example for graded
coursework, so every statement of the text holds: the text names no count (it reads them from
the data cell), the system misses a relevant document for q4 and 9 documents are neither
relevant nor retrieved, and for q6 the single sure document (P = 1, R = 1/n) beats the system
at small beta and loses at large beta (2 <= TP < n, TP < N). q8's rows are about another
query (8 relevant documents), the same for everyone; q8 and q9 differ between students by the
order of their options only (their answers follow from the text, not from the data). Hidden
inputs (``hidden=``) are used by the grader only.

Variant space: D in 30 ... 60, n in 5 ... 12, N in 6 ... 12, TP in 2 ... min(n, N) - 1 and
which documents (about 12,000 count tuples before the ids): every value question varies.
q8's option c ("neither: both rows are possible") stays last (``FIXED_OPTIONS``).
"""

import math

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

N_DOCS = 40  # the public example's D, n and N
N_RELEVANT = 8
N_RETRIEVED = 10
RELEVANT = ["d02", "d05", "d07", "d11", "d13", "d17", "d19", "d23"]
RETRIEVED = ["d01", "d02", "d03", "d05", "d07", "d08", "d13", "d21", "d23", "d30"]
# a student's D, n and N lie in these ranges (n, N <= 12: the data cell's lines fit in 100)
DOCS, RELEVANTS, RETRIEVEDS = (30, 60), (5, 12), (6, 12)
# q4: the system adds to its answer 1 relevant document it missed and 9 non-relevant ones
ADDED_RELEVANT, ADDED_OTHERS = 1, 9
# q8: two printed rows (retrieved, P, R, F1), rounded to 2 decimals, for a query with n = 8
TABLES = {"X": (12, 0.50, 0.75, 0.60), "Y": (6, 0.50, 0.40, 0.44)}
TABLES_N = 8
#: the options that keep their place in a student's order: q8's "neither" stays last
FIXED_OPTIONS = {"q8": "c"}


def ids(n_docs: int) -> list[str]:
    """The ids of a collection of ``n_docs`` documents: d01, d02, ..."""
    return [f"d{i:02d}" for i in range(1, n_docs + 1)]


def _draw(rng) -> tuple[int, list[str], list[str]]:
    """A student's D, relevant and retrieved documents (2 <= TP < n, TP < N, and at least 9
    documents neither relevant nor retrieved)."""
    n_docs = int(rng.integers(DOCS[0], DOCS[1] + 1))
    n = int(rng.integers(RELEVANTS[0], RELEVANTS[1] + 1))
    size = int(rng.integers(RETRIEVEDS[0], RETRIEVEDS[1] + 1))
    hits = int(rng.integers(2, min(n, size)))
    order = [str(d) for d in rng.permutation(ids(n_docs))]
    relevant = order[:n]
    retrieved = relevant[:hits] + order[n : n + size - hits]
    return n_docs, sorted(relevant), sorted(retrieved)


def doubled(retrieved: list[str], relevant: list[str], n_docs: int = N_DOCS) -> list[str]:
    """q4: the answer with the first missed relevant document and the first 9 documents that
    are neither retrieved nor relevant (ids in order) added: N + 10 documents."""
    missed = sorted(set(relevant) - set(retrieved))
    others = sorted(set(ids(n_docs)) - set(relevant) - set(retrieved))
    return retrieved + missed[:ADDED_RELEVANT] + others[:ADDED_OTHERS]


def logged(retrieved: list[str], relevant: list[str]) -> list[str]:
    """q9: the answer as a log writes it, its first relevant document written twice."""
    return retrieved + sorted(set(retrieved) & set(relevant))[:1]


def tie_beta(p: float, r: float, n_relevant: int = N_RELEVANT) -> float:
    """q6: the beta at which F_beta(p, r) equals F_beta of the single sure document.

    1 / F_beta = alpha / P + (1 - alpha) / R with beta^2 = (1 - alpha) / alpha; equal values
    for (p, r) and (1, 1/n) give alpha (1/p - 1) = (1 - alpha) (n - 1/r)."""
    return math.sqrt((1 / p - 1) / (n_relevant - 1 / r))


def _fits(n_docs: int, relevant: list[str], retrieved: list[str]) -> bool:
    """Whether the data keep the text true: a relevant document missed and 9 documents neither
    relevant nor retrieved (q4), the sure document ahead at small beta and behind at large
    beta (q6: P < 1 and R > 1/n), ids of 2 digits."""
    p, r = ck.precision(retrieved, relevant), ck.recall(retrieved, relevant)
    n, tp = len(set(relevant)), len(set(retrieved) & set(relevant))
    neither = set(ids(n_docs)) - set(relevant) - set(retrieved)
    return (
        n_docs < 100
        and set(relevant) | set(retrieved) <= set(ids(n_docs))
        and tp < n
        and len(neither) >= ADDED_OTHERS
        and p < 1
        and r > 1 / n
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    example drawn from the numpy Generator ``rng``."""
    data = (N_DOCS, RELEVANT, RETRIEVED) if rng is None else _draw(rng)
    assert _fits(*data), data
    n_docs, relevant, retrieved = data
    source = f"n_docs = {n_docs}\nrelevant = {relevant!r}\nretrieved = {retrieved!r}".replace(
        "'", '"'
    )
    questions = _questions(n_docs, relevant, retrieved)
    questions = without_harmless_mistakes(questions)
    return source, questions


def _questions(n_docs: int, relevant: list[str], retrieved: list[str]) -> list:
    cells = ck.confusion(retrieved, relevant, n_docs)
    tp, fp, fn, tn = cells
    n, size = len(relevant), len(retrieved)
    p, r = ck.precision(retrieved, relevant), ck.recall(retrieved, relevant)
    # q4: predicted from the counts, checked against coursekit on the N + 10 documents
    bigger = doubled(retrieved, relevant, n_docs)
    after = [
        ck.precision(bigger, relevant),
        ck.recall(bigger, relevant),
        ck.accuracy(bigger, relevant, n_docs),
    ]
    tp2, tn2 = tp + ADDED_RELEVANT, tn - ADDED_OTHERS
    assert len(bigger) == size + ADDED_RELEVANT + ADDED_OTHERS
    assert math.isclose(after[0], tp2 / len(bigger)) and math.isclose(after[1], tp2 / n)
    assert math.isclose(after[2], (tp2 + tn2) / n_docs)
    accuracy_before = ck.accuracy(retrieved, relevant, n_docs)
    # q5, q6: F1, and the beta at which the system ties with the single sure document
    f1 = ck.f_measure(p, r)
    beta = tie_beta(p, r, n)
    assert math.isclose(ck.f_measure(p, r, beta), ck.f_measure(1.0, 1 / n, beta))
    return [
        Value(
            "q1",
            list(cells),
            low=0,
            high=n_docs,
            hint="TP = retrieved and relevant; TN = neither; the cells add up to the collection",
            mistakes=[
                Mistake(
                    [tp, fn, fp, tn],
                    "FP and FN are the wrong way round: a false positive is retrieved but not "
                    "relevant, a false negative relevant but not retrieved",
                ),
                Mistake(
                    [tp, fp, fn, n_docs - size],
                    "TN counts the documents neither retrieved nor relevant: the relevant "
                    "documents the system missed are not true negatives",
                ),
            ],
        ),
        Value(
            "q2",
            p,
            low=0,
            high=1,
            hint="relevant retrieved / retrieved",
            mistakes=[Mistake(r, "that is recall: precision divides by the retrieved ones")],
        ),
        Value(
            "q3",
            r,
            low=0,
            high=1,
            hint="relevant retrieved / relevant",
            mistakes=[Mistake(p, "that is precision: recall divides by the relevant ones")],
        ),
        Value(
            "q4",
            after,
            low=0,
            high=1,
            hint="update the four counts of q1 first: one document moves from FN to TP, nine "
            "from TN to FP",
            mistakes=[
                Mistake(
                    [tp2 / size, after[1], after[2]],
                    "the answer now holds 10 documents more: precision divides by the new "
                    "number of documents retrieved",
                ),
                Mistake(
                    [after[0], r, after[2]],
                    "the new answer finds one more relevant document: recall grows",
                ),
                Mistake(
                    [after[0], after[1], accuracy_before],
                    "accuracy moves too: the nine new non-relevant documents were true "
                    "negatives and become false positives",
                ),
                Mistake(
                    [after[0], after[1], (tp2 + tn) / n_docs],
                    "you added the new relevant document to TP but left TN as it was: the nine "
                    "new non-relevant documents leave TN for FP",
                ),
            ],
        ),
        Value(
            "q5",
            f1,
            low=0,
            high=1,
            hint="harmonic mean: 2PR / (P + R)",
            mistakes=[Mistake((p + r) / 2, "that is the arithmetic mean: F1 is the harmonic mean")],
        ),
        Value(
            "q6",
            beta,
            low=0,
            hint="write 1/F_beta = alpha/P + (1 - alpha)/R for both systems, set them equal, "
            "solve for alpha, then beta^2 = (1 - alpha)/alpha",
            mistakes=[
                Mistake(beta**2, "you gave beta^2: the answer is beta, its square root"),
                Mistake(
                    1 / (1 + beta**2),
                    "you gave alpha, the weight of 1/P: beta^2 = (1 - alpha) / alpha",
                ),
                Mistake(
                    1 / beta,
                    "precision and recall are the wrong way round: beta^2 multiplies P in the "
                    "denominator of F_beta, and a large beta favours recall",
                ),
            ],
        ),
        Value(
            "q7",
            ck.accuracy([], relevant, n_docs),
            low=0,
            high=1,
            hint="an empty answer: TP = FP = 0",
        ),
        Choice(
            "q8",
            IMPOSSIBLE_TABLE,
            options="abc",
            hint="precision times the number retrieved gives TP: does TP / 8 round to the "
            "printed recall?",
        ),
        Choice(
            "q9",
            "a",
            options="abcd",
            hint="compute TP / retrieved for each way of counting the repeated document",
        ),
        Function(
            "q10",
            name="f_measure",
            reference="coursekit:f_measure",
            points=2,
            cases=[
                ("P = 0.5, R = 0.5", [0.5, 0.5]),
                ("P = 0.6, R = 0.3", [0.6, 0.3]),
                ("beta = 2", [0.4, 0.8, 2.0]),
                ("beta = 0.5", [0.4, 0.8, 0.5]),
                ("edge case: P = R = 0", [0.0, 0.0]),
                ("edge case: R = 0", [0.7, 0.0]),
            ],
            hidden=[
                ("P = 1, R = 1", [1.0, 1.0]),
                ("beta = 3", [0.25, 0.9, 3.0]),
                ("edge case: P = 0, beta = 2", [0.0, 0.6, 2.0]),
                ("tiny values", [1e-3, 2e-3, 1.0]),
                ("the example", [p, r, 2.0]),
            ],
            hint=(
                "(1 + beta^2) P R / (beta^2 P + R): beta squared, precision and recall each in "
                "its place; and 0 when precision or recall is 0"
            ),
            mistakes=[Mistake(_beta_not_squared, "beta is squared in F_beta: (1 + beta^2) ...")],
        ),
    ]


def _beta_not_squared(precision: float, recall: float, beta: float = 1.0) -> float:
    """F_beta written with beta where beta^2 belongs (a common slip)."""
    if precision == 0 or recall == 0:
        return 0.0
    return (1 + beta) * precision * recall / (beta * precision + recall)


# q8: which printed row no answer can give: TP runs over 0 ... min(retrieved, n)
def _possible(retrieved: int, p: float, r: float, f1: float) -> bool:
    for tp in range(min(retrieved, TABLES_N) + 1):
        pp, rr = tp / retrieved, tp / TABLES_N
        if (round(pp, 2), round(rr, 2), round(ck.f_measure(pp, rr), 2)) == (p, r, f1):
            return True
    return False


POSSIBLE = {name: _possible(*row) for name, row in TABLES.items()}
IMPOSSIBLE_TABLE = {(True, False): "b", (False, True): "a", (True, True): "c"}.get(
    (POSSIBLE["X"], POSSIBLE["Y"]), "?"
)
assert IMPOSSIBLE_TABLE == "b", POSSIBLE

QUESTIONS = generate(None)[1]
