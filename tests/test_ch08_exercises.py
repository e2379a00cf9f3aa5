"""Chapter 08's exercises (third edition): what the library hides, computed by hand here.

Every expected number is recomputed independently of the key: per-topic AP by pytrec_eval (a
topic a run does not answer counts 0), the t statistic from numpy's mean and sd, p-values from
scipy's distributions, the sign test from ``math.comb``, percentiles from numpy. The right
answer passes the self-check, each common slip gets its hint, the choices' claims hold on the
public data and on drawn variants.
"""

from __future__ import annotations

import math
from pathlib import Path

import nbformat
import numpy as np
import pytest
from exercise_support import collection_ap_by_topic, load_key, public_spec, says
from scipy import stats

from coursekit.grading import judge_value, variants

ROOT = Path(__file__).resolve().parents[1]
CH08 = "08_comparing_systems"
A, B = "bm25_b0_stem", "tfidf"


@pytest.fixture(scope="module")
def per_topic() -> dict[str, dict[str, float]]:
    """AP by topic of A and B by pytrec_eval, on every topic of the qrels (0 if unanswered)."""
    topics, ap = collection_ap_by_topic((A, B))
    return {name: {q: ap[name].get(q, 0.0) for q in topics} for name in (A, B)}


def _arrays(per_topic, dropped=()) -> tuple[np.ndarray, np.ndarray]:
    topics = sorted((t for t in per_topic[A] if t not in dropped), key=int)
    return tuple(np.array([per_topic[s][t] for t in topics]) for s in (A, B))


def _sign_p(wins: int, losses: int) -> float:
    """2 * P(X <= min(wins, losses)), X ~ Bin(wins + losses, 1/2), by math.comb, at most 1."""
    n, k = wins + losses, min(wins, losses)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n)


def _data(source: str) -> dict:
    """The names a data cell defines (it reads the collection through ``course``)."""
    from coursekit import course

    names: dict = {"course": course}
    exec(source, names)
    return names


# --------------------------------------------------------------------------------------------
# q11 and q4: the paired t statistic and its p-value by hand


def test_q11_t_by_hand_and_its_slips(per_topic):
    a, b = _arrays(per_topic)
    d = a - b
    n = len(d)
    t = d.mean() / (d.std(ddof=1) / math.sqrt(n))
    assert t == pytest.approx(stats.ttest_rel(a, b).statistic, rel=1e-12)
    assert 3.9 < t < 4.1  # 3.9857 on the 54 topics
    assert judge_value(public_spec(CH08, "q11"), t) == "q11: passed"
    assert says(CH08, "q11", d.mean() / (d.std(ddof=0) / math.sqrt(n)), "ddof=1")
    assert says(CH08, "q11", d.mean() / d.std(ddof=1), "that is d_z")
    assert says(CH08, "q11", stats.ttest_ind(a, b).statistic, "unpaired")
    assert says(CH08, "q11", -t, "A comes first")


def test_q4_p_from_students_t(per_topic):
    a, b = _arrays(per_topic)
    d = a - b
    t = d.mean() / (d.std(ddof=1) / math.sqrt(len(d)))
    p = 2 * stats.t.sf(abs(t), len(d) - 1)
    assert p == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-9)
    assert judge_value(public_spec(CH08, "q4"), p) == "q4: passed"
    assert says(CH08, "q4", p / 2, "halved")


# --------------------------------------------------------------------------------------------
# q12: the sign test from the binomial


def test_q12_sign_test_by_hand_and_its_slips(per_topic):
    a, b = _arrays(per_topic)
    wins, losses, ties = int((a > b).sum()), int((a < b).sum()), int((a == b).sum())
    assert (wins, losses, ties) == (33, 14, 7)
    p = _sign_p(wins, losses)
    assert p == pytest.approx(stats.binomtest(wins, wins + losses, 0.5).pvalue, rel=1e-12)
    assert p == pytest.approx(0.0079427, rel=1e-4)
    assert judge_value(public_spec(CH08, "q12"), p) == "q12: passed"
    assert says(CH08, "q12", _sign_p(wins, losses + ties), "leave the ties out")
    assert says(CH08, "q12", _sign_p(wins, losses) / 2, "one tail")
    point = 2 * math.comb(wins + losses, losses) / 2 ** (wins + losses)
    assert says(CH08, "q12", point, "not only the probability")


def test_q16_the_sign_test_is_weaker_here(per_topic):
    # the claim of q16's text: the sign test's p is above the t-test's (0.0079 against 0.0002)
    a, b = _arrays(per_topic)
    p_sign = _sign_p(int((a > b).sum()), int((a < b).sum()))
    assert p_sign > 10 * stats.ttest_rel(a, b).pvalue


# --------------------------------------------------------------------------------------------
# q13: the percentile interval from given resample means


def _public_boot() -> list[float]:
    notebook = nbformat.read(ROOT / "exercises" / f"{CH08}.ipynb", as_version=4)
    cell = next(c for c in notebook.cells if c.metadata.get("coursekit", {}).get("role") == "data")
    return _data(cell.source)["boot_means"]


def test_q13_percentile_interval_and_its_slips():
    boot = _public_boot()
    assert len(boot) == 21
    s = sorted(boot)
    # numpy's linear percentiles at positions 0.5 and 19.5 of 21 sorted values: midpoints
    interval = [(s[0] + s[1]) / 2, (s[19] + s[20]) / 2]
    assert interval == pytest.approx(list(np.percentile(boot, [2.5, 97.5])), abs=1e-12)
    assert judge_value(public_spec(CH08, "q13"), interval) == "q13: passed"
    assert says(CH08, "q13", [s[0], s[-1]], "hold all of them")
    assert says(CH08, "q13", [s[1], s[19]], "90 %")
    mean, sd = float(np.mean(boot)), float(np.std(boot, ddof=1))
    assert says(CH08, "q13", [mean - 1.96 * sd, mean + 1.96 * sd], "normal interval")


# --------------------------------------------------------------------------------------------
# q14 and q15: the predictions, checked with scipy


def test_q14_twice_the_topics_with_the_same_mean_and_sd_lower_p():
    for mean_d, sd_d, n in ((0.02, 0.1, 30), (0.07, 0.13, 54), (0.01, 0.2, 10)):
        p = [2 * stats.t.sf(mean_d / (sd_d / math.sqrt(m)), m - 1) for m in (n, 2 * n)]
        assert p[1] < p[0] and p[1] != pytest.approx(p[0] / 2, rel=0.01)


def test_q15_more_correlated_scores_lower_p():
    # same means and sds, correlation 0.5 then 0.9: var(A - B) = s_A^2 + s_B^2 - 2 r s_A s_B
    rng = np.random.default_rng(0)
    n, mean_a, mean_b, s_a, s_b = 50, 0.45, 0.40, 0.2, 0.2
    p = []
    for r in (0.5, 0.9):
        cov = [[s_a**2, r * s_a * s_b], [r * s_a * s_b, s_b**2]]
        x = rng.standard_normal((n, 2))
        x = (x - x.mean(0)) @ np.linalg.inv(np.linalg.cholesky(np.cov(x.T)).T)  # exactly white
        scores = x @ np.linalg.cholesky(cov).T + [mean_a, mean_b]
        assert np.corrcoef(scores.T)[0, 1] == pytest.approx(r)
        p.append(stats.ttest_rel(scores[:, 0], scores[:, 1]).pvalue)
    assert p[1] < p[0]


# --------------------------------------------------------------------------------------------
# variants: each student's expected values recomputed from the student's own data cell


@pytest.mark.parametrize("student", ["s001", "s002", "s003"])
def test_a_variants_values_recomputed_from_its_data_cell(per_topic, student):
    key = load_key(CH08)
    secret = b"the chapter 08 exercises' own test secret, long enough"
    rng = np.random.default_rng(variants.seed(secret, CH08, student))
    source, questions = key.generate(rng)
    data = _data(source)
    assert len(data["dropped"]) == 10
    a, b = _arrays(per_topic, set(data["dropped"]))
    d = a - b
    expected = {q.qid: q.expected for q in questions if hasattr(q, "expected")}
    t = d.mean() / (d.std(ddof=1) / math.sqrt(len(d)))
    assert expected["q11"] == pytest.approx(t, rel=1e-9)
    assert expected["q4"] == pytest.approx(2 * stats.t.sf(abs(t), len(d) - 1), rel=1e-9)
    p_sign = _sign_p(int((d > 0).sum()), int((d < 0).sum()))
    assert expected["q12"] == pytest.approx(p_sign, rel=1e-9)
    assert p_sign > expected["q4"]  # q16's claim holds for this student
    assert expected["q13"] == pytest.approx(list(np.percentile(data["boot_means"], [2.5, 97.5])))
    assert expected["q1"] == pytest.approx([a.mean(), b.mean()])
