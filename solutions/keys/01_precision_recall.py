"""Answer key of exercises/01_precision_recall.ipynb (expected values computed by coursekit).

The example: a collection of 40 documents; for one query, 8 are relevant and the system returns
10. ``generate(None)`` gives the public example's data cell and questions (``QUESTIONS``);
``generate(rng)`` a student's own example for graded coursework: which 8 documents are
relevant and which 10 the system returns are drawn, the counts stay those of the exercise's
text. Hidden inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.grading import Choice, Function, Mistake, Value

N_DOCS = 40
N_RELEVANT = 8
N_RETRIEVED = 10
RELEVANT = ["d02", "d05", "d07", "d11", "d13", "d17", "d19", "d23"]
RETRIEVED = ["d01", "d02", "d03", "d05", "d07", "d08", "d13", "d21", "d23", "d30"]


def _draw(rng) -> tuple[list[str], list[str]]:
    """A student's relevant and retrieved documents: 2 to 7 relevant ones retrieved."""
    ids = [f"d{i:02d}" for i in range(1, N_DOCS + 1)]
    hits = int(rng.integers(2, N_RELEVANT))
    order = [str(d) for d in rng.permutation(ids)]
    relevant = order[:N_RELEVANT]
    retrieved = relevant[:hits] + order[N_RELEVANT : N_RELEVANT + N_RETRIEVED - hits]
    return sorted(relevant), sorted(retrieved)


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    example drawn from the numpy Generator ``rng``."""
    relevant, retrieved = (RELEVANT, RETRIEVED) if rng is None else _draw(rng)
    source = f"n_docs = {N_DOCS}\nrelevant = {relevant!r}\nretrieved = {retrieved!r}".replace(
        "'", '"'
    )
    p, r = ck.precision(retrieved, relevant), ck.recall(retrieved, relevant)
    return source, [
        Value(
            "q1",
            list(ck.confusion(retrieved, relevant, N_DOCS)),
            low=0,
            high=N_DOCS,
            hint="TP = retrieved and relevant; TN = neither; the cells add up to the collection",
        ),
        Value(
            "q2",
            p,
            low=0,
            high=1,
            hint="relevant retrieved / retrieved",
            mistakes=_swapped(p, r, "that is recall: precision divides by the retrieved ones"),
        ),
        Value(
            "q3",
            r,
            low=0,
            high=1,
            hint="relevant retrieved / relevant",
            mistakes=_swapped(r, p, "that is precision: recall divides by the relevant ones"),
        ),
        Value(
            "q4",
            ck.accuracy(retrieved, relevant, N_DOCS),
            low=0,
            high=1,
            hint="(TP + TN) / size of the collection",
        ),
        Value(
            "q5",
            ck.f_measure(p, r),
            low=0,
            high=1,
            hint="harmonic mean: 2PR / (P + R)",
            mistakes=_distinct(
                ck.f_measure(p, r),
                Mistake((p + r) / 2, "that is the arithmetic mean: F1 is the harmonic mean"),
            ),
        ),
        Value(
            "q6",
            ck.f_measure(p, r, beta=2),
            low=0,
            high=1,
            hint="F_beta = (1 + beta^2) P R / (beta^2 P + R), with beta = 2",
            mistakes=_distinct(
                ck.f_measure(p, r, beta=2),
                Mistake(
                    ck.f_measure(r, p, beta=2),
                    "beta^2 multiplies precision in the denominator, not recall",
                ),
            ),
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
            "b",
            options="abcd",
            hint="what does returning every document guarantee, and what does it cost?",
        ),
        Choice("q9", "c", options="abc", hint="which user cannot afford to miss a document?"),
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
            ],
            hint="F_beta is 0 when precision or recall is 0",
            mistakes=[Mistake(_beta_not_squared, "beta is squared in F_beta: (1 + beta^2) ...")],
        ),
    ]


def _beta_not_squared(precision: float, recall: float, beta: float = 1.0) -> float:
    """F_beta written with beta where beta^2 belongs (a common slip)."""
    if precision == 0 or recall == 0:
        return 0.0
    return (1 + beta) * precision * recall / (beta * precision + recall)


def _distinct(expected: float, *mistakes: Mistake) -> list[Mistake]:
    """The mistakes that differ from the expected value to 4 decimals (on some data a
    mistake gives the right value, e.g. swapping P and R when P = R)."""
    return [m for m in mistakes if f"{m.value:.4f}" != f"{expected:.4f}"]


def _swapped(expected: float, other: float, hint: str) -> list[Mistake]:
    return _distinct(expected, Mistake(other, hint))


QUESTIONS = generate(None)[1]
