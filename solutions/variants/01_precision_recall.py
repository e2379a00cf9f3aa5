"""Variant generator of exercises/01_precision_recall.ipynb: each student's own example.

``generate(rng)`` draws which 8 of the 40 documents are relevant and which 10 the system
returns (the counts stay those of the exercise's text) and gives the source of the exercise's
data cell and the questions whose expected value depends on those data, computed with
coursekit. The other questions of the answer key (the empty answer's accuracy, the choices,
the function to write) are the same for everyone.
"""

import coursekit as ck
from coursekit.grading import Value

N_DOCS = 40
N_RELEVANT = 8
N_RETRIEVED = 10
#: the exercise's cell that this generator's data replace starts with this text
DATA_CELL = "n_docs = "


def generate(rng):
    """(source of the data cell, questions) for one student, from a numpy Generator."""
    ids = [f"d{i:02d}" for i in range(1, N_DOCS + 1)]
    hits = int(rng.integers(2, N_RELEVANT))  # relevant documents retrieved: 2..7
    order = [str(d) for d in rng.permutation(ids)]
    relevant = order[:N_RELEVANT]
    retrieved = relevant[:hits] + order[N_RELEVANT : N_RELEVANT + N_RETRIEVED - hits]
    relevant, retrieved = sorted(relevant), sorted(retrieved)
    source = f"n_docs = {N_DOCS}\nrelevant = {relevant!r}\nretrieved = {retrieved!r}".replace(
        "'", '"'
    )
    p, r = ck.precision(retrieved, relevant), ck.recall(retrieved, relevant)
    questions = [
        Value(
            "q1",
            list(ck.confusion(retrieved, relevant, N_DOCS)),
            low=0,
            high=N_DOCS,
            hint="TP = retrieved and relevant; TN = neither; the cells add up to the collection",
        ),
        Value("q2", p, low=0, high=1, hint="relevant retrieved / retrieved"),
        Value("q3", r, low=0, high=1, hint="relevant retrieved / relevant"),
        Value(
            "q4",
            ck.accuracy(retrieved, relevant, N_DOCS),
            low=0,
            high=1,
            hint="(TP + TN) / size of the collection",
        ),
        Value("q5", ck.f_measure(p, r), low=0, high=1, hint="harmonic mean: 2PR / (P + R)"),
        Value(
            "q6",
            ck.f_measure(p, r, beta=2),
            low=0,
            high=1,
            hint="F_beta = (1 + beta^2) P R / (beta^2 P + R), with beta = 2",
        ),
    ]
    return source, questions
