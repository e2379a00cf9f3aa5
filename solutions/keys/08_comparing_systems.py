"""Answer key of exercises/08_comparing_systems.ipynb (expected values computed by coursekit).

On the course's own collection (coursekit.course.load_collection()): as in the lecture slides,
A is the new system, ``bm25_b0_stem``, and B the reference, ``tfidf``; every topic of the qrels
evaluated (a topic a run does not answer counts 0), except the topics of ``dropped``. Every
expected value and every mistaken value (``Mistake``: what a common slip gives, with its hint)
is computed here from the exercise's data. ``generate(None)`` gives the public example's data
cell and questions (``QUESTIONS``: no topic dropped); ``generate(rng)`` a student's own data
for graded coursework: 10 of the collection's topics left out, four other p-values for Holm's
method and another effect size for the topic set size, drawn so that every statement of the
text holds (A's gain over B well above 5 %, a paired t-test p-value below 0.01, Holm
rejecting at least one hypothesis, and no product of a p-value on the boundary 0.05). The
three choices are about the text, not the data: they differ between students by the order of
their options. Hidden inputs (``hidden=``) are used by the grader only.

Variant space: 10 of the topics left out (which decides q1 to q4), four p-values (q5: 10
pairs of counts), an effect among 9 (q7): every value question varies. q10's option c ("both
are possible") stays last (``FIXED_OPTIONS``).
"""

import functools
import math

import pandas as pd
from scipy import stats

import coursekit as ck
from coursekit import course
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

COLLECTION = course.load_collection()
SYSTEM_A, SYSTEM_B = "bm25_b0_stem", "tfidf"
TOPICS = sorted(COLLECTION.qrels["query_id"].unique(), key=int)
ALPHA, POWER = 0.05, 0.8
# the public data: no topic left out; q5's four p-values; q7's effect size
DROPPED: list[str] = []
P_VALUES = [0.011, 0.020, 0.004, 0.041]
EFFECT = 0.3
# a student's data: this many topics left out, q7's effect among these
N_DROPPED = 10
EFFECTS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
#: q5: the (Holm, Bonferroni) counts a student's four p-values give, one drawn per student
HOLM_BONFERRONI = [(h, b) for h in range(1, 5) for b in range(1, h + 1)]
#: the options that keep their place in a student's order: q10's "both are possible"
FIXED_OPTIONS = {"q10": "c"}


@functools.cache
def _every_topic(system: str, missing_as_zero: bool) -> pd.Series:
    """The AP of ``system`` on every topic of the collection's qrels, by coursekit (computed
    once: a topic's AP depends on its own judgments only, so leaving topics out of the qrels
    leaves their rows out, which :func:`_aps` does)."""
    evaluated = ck.evaluate(
        COLLECTION.runs[system], COLLECTION.qrels, ["AP"], missing_as_zero=missing_as_zero
    )
    return evaluated.table()["AP"]


def _aps(system: str, dropped: list[str], missing_as_zero: bool = True) -> pd.Series:
    """AP by topic of ``system`` evaluated on the qrels without the topics ``dropped``."""
    every = _every_topic(system, missing_as_zero)
    return every[~every.index.isin(dropped)]


def holm_by_hand(p_values: list[float], alpha: float = ALPHA, stop: bool = True) -> int:
    """Holm's rejections: sorted p-values times m, m - 1, ..., 1, stopping at the first above
    alpha (``stop=False``: the slip of counting every one at or below alpha)."""
    m, count = len(p_values), 0
    for i, p in enumerate(sorted(p_values)):
        if p * (m - i) > alpha:
            if stop:
                break
            continue
        count += 1
    return count


def _holm_reversed(p_values: list[float], alpha: float = ALPHA) -> int:
    """The slip of multiplying the smallest p-value by 1, the next by 2, ... (then stopping)."""
    count = 0
    for i, p in enumerate(sorted(p_values)):
        if p * (i + 1) > alpha:
            break
        count += 1
    return count


def _bonferroni(p_values: list[float], alpha: float = ALPHA) -> int:
    return sum(p * len(p_values) <= alpha for p in p_values)


def _fits(dropped: list[str], p_values: list[float], effect: float) -> bool:
    """Whether data drawn for a student keep every statement of the text true."""
    m = len(p_values)
    on_boundary = any(abs(p * k - ALPHA) < 1e-9 for p in p_values for k in range(1, m + 1))
    if on_boundary or holm_by_hand(p_values) < 1 or effect not in EFFECTS:
        return False  # (the cheap checks first)
    a, b = _aps(SYSTEM_A, dropped), _aps(SYSTEM_B, dropped)
    gain = ck.gain_percent(float(a.mean()), float(b.mean()))
    p = ck.paired_t_test(a, b).pvalue
    return gain > 10 and p < 0.01  # "well above 5 %", "far below 0.05"


def _p_values(rng, counts: tuple[int, int]) -> list[float]:
    """Four p-values (3 decimals) on which Holm and Bonferroni reject ``counts`` hypotheses,
    none of their products on the boundary 0.05."""
    while True:
        p_values = [round(float(x), 3) for x in rng.uniform(0.001, 0.06, size=4)]
        on_boundary = any(abs(p * k - ALPHA) < 1e-9 for p in p_values for k in range(1, 5))
        if not on_boundary and (holm_by_hand(p_values), _bonferroni(p_values)) == counts:
            return p_values


def _draw(rng) -> tuple[list[str], list[float], float]:
    """A student's data: four p-values (q5's two counts drawn first, among the 10 possible
    with Holm rejecting at least one: Bonferroni then rejects one too), an effect size, and 10
    topics left out (redrawn until the text holds)."""
    p_values = _p_values(rng, HOLM_BONFERRONI[int(rng.integers(len(HOLM_BONFERRONI)))])
    effect = float(EFFECTS[int(rng.integers(len(EFFECTS)))])
    while True:
        picked = rng.choice(len(TOPICS), size=N_DROPPED, replace=False)
        dropped = sorted((TOPICS[int(i)] for i in picked), key=int)
        if _fits(dropped, p_values, effect):
            return dropped, p_values, effect


def data_cell(dropped: list[str], p_values: list[float], effect: float) -> str:
    """The source of the exercise's data cell for these data."""
    listed = ", ".join(f'"{t}"' for t in dropped)
    return "\n".join(
        [
            "collection = course.load_collection()",
            "# the topics left out of your data (none in the public exercise)",
            f"dropped = [{listed}]",
            'qrels = collection.qrels[~collection.qrels["query_id"].isin(dropped)]',
            f'run_a, run_b = collection.runs["{SYSTEM_A}"], collection.runs["{SYSTEM_B}"]',
            f"p_values = [{', '.join(f'{p:.3f}' for p in p_values)}]  # q5",
            f"effect = {effect}  # q7",
        ]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    data drawn from the numpy Generator ``rng``."""
    data = (DROPPED, P_VALUES, EFFECT) if rng is None else _draw(rng)
    assert _fits(*data)
    return data_cell(*data), without_harmless_mistakes(_questions(*data))


def _questions(dropped: list[str], p_values: list[float], effect: float) -> list:
    ap_a, ap_b = _aps(SYSTEM_A, dropped), _aps(SYSTEM_B, dropped)
    map_a, map_b = float(ap_a.mean()), float(ap_b.mean())
    # q1's slip: each run's mean over the topics it answers only
    answered = [float(_aps(s, dropped, False).mean()) for s in (SYSTEM_A, SYSTEM_B)]
    # q4: the paired t-test, and the unpaired one (the slip of forgetting the pairing)
    p_paired = ck.paired_t_test(ap_a, ap_b).pvalue
    p_unpaired = float(stats.ttest_ind(ap_a.to_numpy(), ap_b.to_numpy()).pvalue)
    # q5: Holm with ck.holm, checked against the count by hand
    holm = int((ck.holm(p_values) <= ALPHA).sum())
    assert holm == holm_by_hand(p_values)
    bonferroni = _bonferroni(p_values)
    unadjusted = sum(p <= ALPHA for p in p_values)
    # q7: Sakai's topic set size; the normal approximation (no t distribution)
    n_needed = ck.topic_set_size(effect, power=POWER, alpha=ALPHA)
    z = stats.norm.ppf(1 - ALPHA / 2) + stats.norm.ppf(POWER)
    normal_n = math.ceil((z / effect) ** 2)
    return [
        Value(
            "q1",
            [map_a, map_b],
            low=0,
            high=1,
            hint="evaluate each run with missing_as_zero=True, then the mean of AP",
            mistakes=[
                Mistake(
                    answered,
                    "a topic a run returns nothing for counts 0 (missing_as_zero=True): "
                    "otherwise the two means are taken over different topics",
                ),
                Mistake([map_b, map_a], "A (bm25_b0_stem) comes first, then B (tfidf)"),
            ],
        ),
        Value(
            "q2",
            ck.gain_percent(map_a, map_b),
            low=-100,
            hint="100 * (A - B) / B, with B the reference",
            mistakes=[
                Mistake(
                    100 * (map_b - map_a) / map_a,
                    "this is B's gain over A: the difference is A - B, relative to the reference B",
                ),
                Mistake(100 * (map_a - map_b) / map_a, "divide by the reference B's MAP, not A's"),
                Mistake((map_a - map_b) / map_b, "the gain is in percent: times 100"),
                Mistake(
                    100 * (map_a - map_b),
                    "a difference of MAPs in points is not a gain: divide by B's MAP",
                ),
            ],
        ),
        Value(
            "q3",
            int((ap_a > ap_b).sum()),
            low=0,
            high=len(ap_a),
            hint="compare the two AP values topic by topic",
            mistakes=[
                Mistake(int((ap_a >= ap_b).sum()), "strictly higher: a tie is not a win"),
                Mistake(int((ap_b > ap_a).sum()), "these are the topics where B beats A"),
            ],
        ),
        Value(
            "q4",
            p_paired,
            low=0,
            high=1,
            significant=True,  # a p-value can be far below 10**-4: 4 decimals would pass 0.0002
            hint="a paired test: the same topics, in the same order",
            mistakes=[
                Mistake(
                    p_paired / 2,
                    "that is a one-sided p-value (the two-sided one halved): the question asks "
                    "for the two-sided one",
                ),
                Mistake(
                    p_unpaired,
                    "an unpaired (independent samples) t-test: pair each topic's AP of A with "
                    "its AP of B",
                ),
            ],
        ),
        Choice("q6", "b", options="abcd", hint="what is assumed when a p-value is computed?"),
        Choice("q8", "c", options="abc", hint="who wrote the judged pool, and who did not?"),
        Function(
            "q9",
            name="gain_percent",
            reference="coursekit:gain_percent",
            points=2,
            cases=[
                ("a better system", [0.42, 0.40]),
                ("a worse system", [0.30, 0.40]),
                ("equal scores", [0.5, 0.5]),
                ("a small gain", [0.3341, 0.3125]),  # 6.912 %: not a whole number
                ("edge case: A scores 0", [0.0, 0.25]),
            ],
            hidden=[("a large gain", [0.9, 0.1]), ("a loss of a third", [0.2, 0.3])],
            hint="the gain is relative to the second argument, the baseline",
            mistakes=[
                Mistake(lambda a, b: 100.0 * (a - b) / a, "divide by the baseline b, not by a"),
                Mistake(lambda a, b: (a - b) / b, "the gain is in percent: times 100"),
            ],
        ),
        Value(
            "q5",
            [holm, bonferroni],
            hint="Holm: sorted p-values times 4, 3, 2, 1; Bonferroni: times 4",
            mistakes=[
                Mistake(
                    [holm_by_hand(p_values, stop=False), bonferroni],
                    "Holm stops at the first sorted p-value whose product exceeds 0.05: none "
                    "after it is rejected",
                ),
                Mistake(
                    [_holm_reversed(p_values), bonferroni],
                    "Holm multiplies the smallest p-value by 4 (the number of tests), the "
                    "largest by 1",
                ),
                Mistake(
                    [unadjusted, unadjusted],
                    "these are the p-values below 0.05 without any correction",
                ),
                Mistake([bonferroni, holm], "Holm's count comes first, then Bonferroni's"),
            ],
        ),
        Choice("q10", "b", options="abc", hint="t = d_z * sqrt(n_Q): compute it for 50 topics"),
        Value(
            "q7",
            n_needed,
            low=2,
            hint="the smallest n with power_paired_t(effect, n, 0.05) >= 0.8",
            mistakes=[
                Mistake(
                    n_needed - 1,
                    "this size still has power below 0.8: the answer is the first size that "
                    "reaches it",
                ),
                Mistake(
                    ck.topic_set_size(effect, power=POWER, alpha=2 * ALPHA),
                    "that is the size for a one-sided test (or alpha = 0.1): the test is "
                    "two-sided at 0.05",
                ),
                Mistake(
                    normal_n,
                    "the normal approximation ((z_0.975 + z_0.8) / d_z)^2 ignores that s_d is "
                    "estimated: use the t distribution (power_paired_t)",
                ),
            ],
        ),
    ]


QUESTIONS = generate(None)[1]
