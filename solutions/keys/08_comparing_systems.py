"""Answer key of exercises/08_comparing_systems.ipynb (expected values computed by coursekit).

On the course's own collection (coursekit.course.load_collection()): as in the lecture slides,
A is the new system, ``bm25_b0_stem``, and B the reference, ``tfidf``; every topic of the qrels
evaluated (a topic a run does not answer counts 0), except the topics of ``dropped``. Every
expected value and every mistaken value (``Mistake``: what a common slip gives, with its hint)
is computed here from the exercise's data. ``generate(None)`` gives the public example's data
cell and questions (``QUESTIONS``: no topic dropped); ``generate(rng)`` a student's own data
for graded coursework: 10 of the collection's topics left out, four other p-values for Holm's
method and 21 bootstrap means of the student's own per-topic differences, drawn so that every
statement of the text holds (a paired t-test p-value below 0.01, the sign test's p-value
above twice the t-test's, Holm rejecting at least one hypothesis, no product of a p-value on
the boundary 0.05, and a percentile interval whose ends are none of the given means). The
choices are about the text and about what the drawn data make true for every student: they
differ between students by the order of their options. Hidden inputs (``hidden=``) are used
by the grader only.

The questions test what the library hides: the paired t statistic from the differences' mean
and standard deviation (q11) and its p-value from Student's t (q4), the sign test's p-value
from the binomial (q12), a bootstrap percentile interval read from given resample means (q13),
Holm's correction (q5); they ask to predict (q14: twice the topics; q15: more correlated
scores) and to choose a cause (q16: the sign test's larger p-value).

Variant space: 10 of the topics left out (which decides q1, q11, q4 and q12), four p-values
(q5: 10 pairs of counts), 21 resample means (q13): every value question varies; the choices
are shuffled.
"""

import functools
import math

import numpy as np
import pandas as pd
from scipy import stats

import coursekit as ck
from coursekit import course
from coursekit.grading import Choice, Function, Mistake, Value, without_harmless_mistakes

COLLECTION = course.load_collection()
SYSTEM_A, SYSTEM_B = "bm25_b0_stem", "tfidf"
TOPICS = sorted(COLLECTION.qrels["query_id"].unique(), key=int)
ALPHA = 0.05
# the public data: no topic left out; q5's four p-values
DROPPED: list[str] = []
P_VALUES = [0.011, 0.020, 0.004, 0.041]
# a student's data: this many topics left out
N_DROPPED = 10
#: q5: the (Holm, Bonferroni) counts a student's four p-values give, one drawn per student
HOLM_BONFERRONI = [(h, b) for h in range(1, 5) for b in range(1, h + 1)]
#: q13: how many bootstrap resamples the data cell gives (21: numpy's linear interpolation puts
#: the 2.5th and 97.5th percentiles at positions 0.025 * 20 = 0.5 and 0.975 * 20 = 19.5 of the
#: sorted means, midway between the two smallest and the two largest), and the seed of the
#: public exercise's resamples
N_BOOT, PUBLIC_BOOT_SEED = 21, 8


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


def _sign_p(wins: int, losses: int) -> float:
    """The two-sided sign test's p-value, 2 P(X <= min(wins, losses)), X ~ Bin(wins + losses,
    1/2), capped at 1 (equal to scipy's binomtest for p = 1/2, which is symmetric)."""
    return min(1.0, 2 * float(stats.binom.cdf(min(wins, losses), wins + losses, 0.5)))


def _percentile_interval(boot: list[float]) -> list[float]:
    """q13: the 95 % percentile interval of the resample means (numpy's linear percentiles)."""
    return [float(x) for x in np.percentile(boot, [2.5, 97.5])]


def _fits(dropped: list[str], p_values: list[float], boot: list[float] | None = None) -> bool:
    """Whether data drawn for a student keep every statement of the text true."""
    m = len(p_values)
    on_boundary = any(abs(p * k - ALPHA) < 1e-9 for p in p_values for k in range(1, m + 1))
    if on_boundary or holm_by_hand(p_values) < 1:
        return False  # (the cheap checks first)
    if boot is not None:  # an end of the interval that is a given mean would show an answer
        given = {f"{x:.4f}" for x in boot}
        if any(f"{x:.4f}" in given for x in _percentile_interval(boot)):
            return False
    a, b = _aps(SYSTEM_A, dropped), _aps(SYSTEM_B, dropped)
    gain = ck.gain_percent(float(a.mean()), float(b.mean()))
    p = ck.paired_t_test(a, b).pvalue
    d = a - b
    p_sign = _sign_p(int((d > 0).sum()), int((d < 0).sum()))
    # A ahead, the t-test's p far below 0.05; q16: the sign test's p above the t-test's
    return gain > 10 and p < 0.01 and p_sign > 2 * p


def _p_values(rng, counts: tuple[int, int]) -> list[float]:
    """Four p-values (3 decimals) on which Holm and Bonferroni reject ``counts`` hypotheses,
    none of their products on the boundary 0.05."""
    while True:
        p_values = [round(float(x), 3) for x in rng.uniform(0.001, 0.06, size=4)]
        on_boundary = any(abs(p * k - ALPHA) < 1e-9 for p in p_values for k in range(1, 5))
        if not on_boundary and (holm_by_hand(p_values), _bonferroni(p_values)) == counts:
            return p_values


def boot_means(dropped: list[str], rng) -> list[float]:
    """q13's data: the mean of the per-topic AP differences A - B over each of ``N_BOOT``
    bootstrap resamples of the topics (drawn with replacement), to 4 decimals."""
    d = (_aps(SYSTEM_A, dropped) - _aps(SYSTEM_B, dropped)).to_numpy()
    picks = rng.integers(0, len(d), size=(N_BOOT, len(d)))
    return [round(float(x), 4) for x in d[picks].mean(axis=1)]


def _draw(rng) -> tuple[list[str], list[float], list[float]]:
    """A student's data: four p-values (q5's two counts drawn first, among the 10 possible
    with Holm rejecting at least one: Bonferroni then rejects one too), 10 topics left out
    (redrawn until the text holds) and 21 resample means of the rest (redrawn likewise)."""
    p_values = _p_values(rng, HOLM_BONFERRONI[int(rng.integers(len(HOLM_BONFERRONI)))])
    while True:
        picked = rng.choice(len(TOPICS), size=N_DROPPED, replace=False)
        dropped = sorted((TOPICS[int(i)] for i in picked), key=int)
        if _fits(dropped, p_values):
            break
    while True:
        boot = boot_means(dropped, rng)
        if _fits(dropped, p_values, boot):
            return dropped, p_values, boot


def data_cell(dropped: list[str], p_values: list[float], boot: list[float]) -> str:
    """The source of the exercise's data cell for these data (as ruff formats it)."""
    listed = ", ".join(f'"{t}"' for t in dropped)
    words = [f"{x:.4f}" for x in boot]
    rows = [" ".join(words[i : i + 10]) for i in range(0, len(words), 10)]
    strings = [f'        "{row} "' for row in rows[:-1]] + [f'        "{rows[-1]}"']
    return "\n".join(
        [
            "collection = course.load_collection()",
            "# the topics left out of your data (none in the public exercise)",
            f"dropped = [{listed}]",
            'qrels = collection.qrels[~collection.qrels["query_id"].isin(dropped)]',
            f'run_a, run_b = collection.runs["{SYSTEM_A}"], collection.runs["{SYSTEM_B}"]',
            f"p_values = [{', '.join(f'{p:.3f}' for p in p_values)}]  # q5",
            f"# q13: the mean AP difference A - B of {N_BOOT} bootstrap resamples of your topics",
            "boot_means = [",
            "    float(x)",
            "    for x in (",
            *strings,
            "    ).split()",
            "]",
        ]
    )


def generate(rng):
    """(source of the data cell, questions): the public example when ``rng`` is None, else the
    data drawn from the numpy Generator ``rng``."""
    if rng is None:
        public = np.random.default_rng(PUBLIC_BOOT_SEED)
        data = (DROPPED, P_VALUES, boot_means(DROPPED, public))
    else:
        data = _draw(rng)
    assert _fits(*data)
    return data_cell(*data), without_harmless_mistakes(_questions(*data))


def _questions(dropped: list[str], p_values: list[float], boot: list[float]) -> list:
    ap_a, ap_b = _aps(SYSTEM_A, dropped), _aps(SYSTEM_B, dropped)
    # q11: the paired t statistic by hand, and its slips
    d = (ap_a - ap_b).to_numpy()
    n_q = len(d)
    t = ck.paired_t_test(ap_a, ap_b).statistic
    assert math.isclose(t, d.mean() / (d.std(ddof=1) / math.sqrt(n_q)), rel_tol=1e-12)
    t_unpaired = float(stats.ttest_ind(ap_a.to_numpy(), ap_b.to_numpy()).statistic)
    # q12: the sign test, ties left out
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    ties = n_q - wins - losses
    p_sign = _sign_p(wins, losses)
    assert math.isclose(p_sign, stats.binomtest(wins, wins + losses).pvalue, rel_tol=1e-9)
    k_sign = min(wins, losses)
    # q13: the percentile interval of the given resample means (numpy's default percentiles)
    ordered = sorted(boot)
    interval = _percentile_interval(boot)
    spread = float(np.std(boot, ddof=1))
    normal = [float(np.mean(boot)) - 1.96 * spread, float(np.mean(boot)) + 1.96 * spread]
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
            "q11",
            t,
            hint="t = mean(d) / (s_d / sqrt(n_Q)), with d_j = AP_j(A) - AP_j(B) on every topic",
            mistakes=[
                Mistake(
                    d.mean() / (d.std(ddof=0) / math.sqrt(n_q)),
                    "the standard deviation s_d divides by n_Q - 1 (ddof=1), not by n_Q",
                ),
                Mistake(
                    d.mean() / d.std(ddof=1),
                    "that is d_z, the effect size: t divides the mean difference by its "
                    "standard error s_d / sqrt(n_Q)",
                ),
                Mistake(
                    t_unpaired,
                    "that is the unpaired (independent samples) t statistic: the paired test "
                    "works on the per-topic differences d_j",
                ),
                Mistake(-t, "the differences are A's AP minus B's: A comes first"),
            ],
        ),
        Value(
            "q4",
            p_paired,
            low=0,
            high=1,
            significant=True,  # a p-value can be far below 10**-4: 4 decimals would pass 0.0002
            # (the mistakes are told apart to 4 decimals, not significant digits: on the public
            # data the normal and n_Q-degrees slips round like the halved p and p itself, and
            # are dropped; the first of equal mistakes is kept)
            hint="two tails of Student's t with n_Q - 1 degrees of freedom beyond |t|",
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
                Mistake(
                    2 * float(stats.norm.sf(abs(t))),
                    "the normal distribution ignores that s_d is estimated: use Student's t "
                    "with n_Q - 1 degrees of freedom",
                ),
                Mistake(
                    2 * float(stats.t.sf(abs(t), n_q)),
                    "the paired t-test has n_Q - 1 degrees of freedom, not n_Q",
                ),
            ],
        ),
        Value(
            "q12",
            p_sign,
            low=0,
            high=1,
            significant=True,
            hint="the wins of A follow Bin(n, 1/2) under the null hypothesis, n the topics "
            "that are not ties; two-sided: both tails",
            mistakes=[
                Mistake(
                    _sign_p(wins, losses + ties),
                    "a tied topic is neither a win nor a loss: leave the ties out of n",
                ),
                Mistake(
                    float(stats.binom.cdf(k_sign, wins + losses, 0.5)),
                    "that is one tail: the test is two-sided, add the other tail",
                ),
                Mistake(
                    min(1.0, 2 * float(stats.binom.pmf(k_sign, wins + losses, 0.5))),
                    "the p-value sums every count at least as far from n/2 as yours, not "
                    "only the probability of yours",
                ),
            ],
        ),
        Choice("q16", "a", options="abcd", hint="what does the binomial count, and what not?"),
        Value(
            "q13",
            interval,
            hint="sort the resample means; the p-th percentile of n sorted values lies at position "
            "p (n - 1), counted from 0, between two of them",
            mistakes=[
                Mistake(
                    [ordered[0], ordered[-1]],
                    "the smallest and largest resample means hold all of them: a 95 % "
                    "interval leaves 2.5 % out at each end",
                ),
                Mistake(
                    [float(x) for x in np.percentile(boot, [5, 95])],
                    "that interval holds 90 % of the resample means: leave out 2.5 % at each "
                    "end, not 5 %",
                ),
                Mistake(
                    normal,
                    "that is the normal interval, mean +- 1.96 sd: the percentile interval is "
                    "read from the sorted resample means themselves",
                ),
                Mistake(
                    [(boot[0] + boot[1]) / 2, (boot[-2] + boot[-1]) / 2],
                    "sort the resample means first: the interval is read from their order",
                ),
            ],
        ),
        Choice("q14", "a", options="abcd", hint="write t with n_Q in it"),
        Choice(
            "q15",
            "a",
            options="abc",
            hint="write the variance of A - B from s_A, s_B and the correlation r",
        ),
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
    ]


QUESTIONS = generate(None)[1]
