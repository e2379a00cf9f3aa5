"""Answer key of exercises/01_precision_recall.ipynb (expected values computed by coursekit).

The example: a collection of D = 40 documents; for one query, n = 8 are relevant and the system
returns N = 10. Every expected value and every mistaken value (``Mistake``: what a common slip
gives, with its hint) is computed here from the exercise's data. ``generate(None)`` gives the
public example's data cell and questions (``QUESTIONS``); ``generate(rng)`` a student's own
example for graded coursework: which 8 documents are relevant and which 10 the system returns
are drawn (2 to 7 of the relevant ones retrieved), so every statement of the text holds: the
counts are those of the text, the system misses a relevant document for q4, and for q6 the
single sure document beats the system at small beta and loses at large beta. The choices
(q8, q9) have the same letter for every student. Hidden inputs (``hidden=``) are used by the
grader only.
"""

import math

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

N_DOCS = 40
N_RELEVANT = 8
N_RETRIEVED = 10
RELEVANT = ["d02", "d05", "d07", "d11", "d13", "d17", "d19", "d23"]
RETRIEVED = ["d01", "d02", "d03", "d05", "d07", "d08", "d13", "d21", "d23", "d30"]
IDS = [f"d{i:02d}" for i in range(1, N_DOCS + 1)]
# q4: the system adds to its answer 1 relevant document it missed and 9 non-relevant ones
ADDED_RELEVANT, ADDED_OTHERS = 1, 9
# q6: a second system returns a single document, relevant: P = 1, R = 1 / n
SURE = (1.0, 1 / N_RELEVANT)
# q8: two printed rows (retrieved, P, R, F1), rounded to 2 decimals, for a query with n = 8
TABLES = {"X": (12, 0.50, 0.75, 0.60), "Y": (6, 0.50, 0.40, 0.44)}


def _draw(rng) -> tuple[list[str], list[str]]:
    """A student's relevant and retrieved documents: 2 to 7 relevant ones retrieved."""
    hits = int(rng.integers(2, N_RELEVANT))
    order = [str(d) for d in rng.permutation(IDS)]
    relevant = order[:N_RELEVANT]
    retrieved = relevant[:hits] + order[N_RELEVANT : N_RELEVANT + N_RETRIEVED - hits]
    return sorted(relevant), sorted(retrieved)


def doubled(retrieved: list[str], relevant: list[str]) -> list[str]:
    """q4: the answer with the first missed relevant document and the first 9 documents that
    are neither retrieved nor relevant (ids in order) added: 20 documents."""
    missed = sorted(set(relevant) - set(retrieved))
    others = sorted(set(IDS) - set(relevant) - set(retrieved))
    return retrieved + missed[:ADDED_RELEVANT] + others[:ADDED_OTHERS]


def logged(retrieved: list[str], relevant: list[str]) -> list[str]:
    """q9: the answer as a log writes it, its first relevant document written twice."""
    return retrieved + sorted(set(retrieved) & set(relevant))[:1]


def tie_beta(p: float, r: float) -> float:
    """q6: the beta at which F_beta(p, r) equals F_beta of the single sure document.

    1 / F_beta = alpha / P + (1 - alpha) / R with beta^2 = (1 - alpha) / alpha; equal values
    for (p, r) and (1, 1/n) give alpha (1/p - 1) = (1 - alpha) (n - 1/r)."""
    p2, r2 = SURE
    return math.sqrt((1 / p - 1 / p2) / (1 / r2 - 1 / r))


def _fits(relevant: list[str], retrieved: list[str]) -> bool:
    """Whether the data keep the text true: the counts, a relevant document missed (q4), the
    sure document ahead at small beta and behind at large beta (q6)."""
    p, r = ck.precision(retrieved, relevant), ck.recall(retrieved, relevant)
    tp = len(set(retrieved) & set(relevant))
    return (
        len(set(relevant)) == N_RELEVANT
        and len(set(retrieved)) == N_RETRIEVED
        and 2 <= tp < N_RELEVANT
        and p < SURE[0]
        and r > SURE[1]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    example drawn from the numpy Generator ``rng``."""
    relevant, retrieved = (RELEVANT, RETRIEVED) if rng is None else _draw(rng)
    assert _fits(relevant, retrieved), (relevant, retrieved)
    source = f"n_docs = {N_DOCS}\nrelevant = {relevant!r}\nretrieved = {retrieved!r}".replace(
        "'", '"'
    )
    questions = _questions(relevant, retrieved)
    questions = without_harmless_mistakes(questions)
    return source, questions


def _questions(relevant: list[str], retrieved: list[str]) -> list:
    cells = ck.confusion(retrieved, relevant, N_DOCS)
    tp, fp, fn, tn = cells
    p, r = ck.precision(retrieved, relevant), ck.recall(retrieved, relevant)
    # q4: predicted from the counts, checked against coursekit on the 20 documents
    bigger = doubled(retrieved, relevant)
    after = [
        ck.precision(bigger, relevant),
        ck.recall(bigger, relevant),
        ck.accuracy(bigger, relevant, N_DOCS),
    ]
    tp2, tn2 = tp + ADDED_RELEVANT, tn - ADDED_OTHERS
    assert math.isclose(after[0], tp2 / len(bigger)) and math.isclose(after[1], tp2 / N_RELEVANT)
    assert math.isclose(after[2], (tp2 + tn2) / N_DOCS)
    accuracy_before = ck.accuracy(retrieved, relevant, N_DOCS)
    # q5, q6: F1, and the beta at which the system ties with the single sure document
    f1 = ck.f_measure(p, r)
    beta = tie_beta(p, r)
    assert math.isclose(ck.f_measure(p, r, beta), ck.f_measure(*SURE, beta))
    return [
        Value(
            "q1",
            list(cells),
            low=0,
            high=N_DOCS,
            hint="TP = retrieved and relevant; TN = neither; the cells add up to the collection",
            mistakes=[
                Mistake(
                    [tp, fn, fp, tn],
                    "FP and FN are the wrong way round: a false positive is retrieved but not "
                    "relevant, a false negative relevant but not retrieved",
                ),
                Mistake(
                    [tp, fp, fn, N_DOCS - N_RETRIEVED],
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
                    [tp2 / N_RETRIEVED, after[1], after[2]],
                    "the answer now holds 20 documents: precision divides by 20",
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
                    [after[0], after[1], (tp2 + tn) / N_DOCS],
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
            ck.accuracy([], relevant, N_DOCS),
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
    for tp in range(min(retrieved, N_RELEVANT) + 1):
        pp, rr = tp / retrieved, tp / N_RELEVANT
        if (round(pp, 2), round(rr, 2), round(ck.f_measure(pp, rr), 2)) == (p, r, f1):
            return True
    return False


POSSIBLE = {name: _possible(*row) for name, row in TABLES.items()}
IMPOSSIBLE_TABLE = {(True, False): "b", (False, True): "a", (True, True): "c"}.get(
    (POSSIBLE["X"], POSSIBLE["Y"]), "?"
)
assert IMPOSSIBLE_TABLE == "b", POSSIBLE

QUESTIONS = generate(None)[1]
