"""Unit tests of coursekit: confusion, precision, recall, accuracy, F and E."""

from __future__ import annotations

import pytest

import coursekit as ck


def test_confusion_counts_each_cell():
    # retrieved {d1, d2, d3}, relevant {d1, d4}: tp = {d1}, fp = {d2, d3}, fn = {d4}
    cells = ck.confusion(["d1", "d2", "d3"], ["d1", "d4"], n_docs=10)
    assert cells == ck.Confusion(tp=1, fp=2, fn=1, tn=10 - 1 - 2 - 1)
    assert (cells.tp, cells.fp, cells.fn, cells.tn) == (1, 2, 1, 6)


def test_confusion_ignores_order_and_repeats():
    cells = ck.confusion(["b", "a", "b"], {"a", "c"}, n_docs=5)
    assert cells == (1, 1, 1, 2)


def test_confusion_everything_retrieved_everything_relevant():
    docs = ["a", "b", "c"]
    assert ck.confusion(docs, docs, n_docs=3) == (3, 0, 0, 0)


def test_confusion_rejects_n_docs_below_the_documents_seen():
    with pytest.raises(ValueError, match="n_docs=3 is smaller than the 4"):
        ck.confusion(["a", "b"], ["c", "d"], n_docs=3)


def test_precision_is_share_of_retrieved_that_is_relevant():
    # 2 of the 4 retrieved (d1, d6) are relevant
    assert ck.precision(["d5", "d1", "d6", "d2"], ["d1", "d4", "d6", "d10"]) == 2 / 4


def test_precision_of_empty_retrieved_set_is_zero():
    assert ck.precision([], ["d1"]) == 0.0


def test_precision_with_no_relevant_document_is_zero():
    assert ck.precision(["d1", "d2"], []) == 0.0


def test_recall_is_share_of_relevant_that_is_retrieved():
    # 1 of the 3 relevant (d1) is retrieved
    assert ck.recall(["d1", "d2"], ["d1", "d3", "d4"]) == pytest.approx(1 / 3)


def test_recall_with_no_relevant_document_is_zero():
    assert ck.recall(["d1"], []) == 0.0


def test_recall_of_nothing_retrieved_is_zero():
    assert ck.recall([], ["d1", "d2"]) == 0.0


def test_accuracy_rewards_retrieving_nothing_when_relevant_is_rare():
    # tp = 0, tn = 100 - 2 = 98
    assert ck.accuracy([], ["d1", "d2"], n_docs=100) == pytest.approx((0 + 98) / 100)


def test_accuracy_counts_tp_and_tn():
    # retrieved {a, b}, relevant {a, c}, 10 docs: tp = 1, fp = 1, fn = 1, tn = 7
    assert ck.accuracy(["a", "b"], ["a", "c"], n_docs=10) == pytest.approx((1 + 7) / 10)


def test_f1_is_harmonic_mean():
    p, r = 0.6, 0.3
    assert ck.f_measure(p, r) == pytest.approx(2 * p * r / (p + r))
    assert ck.f_measure(p, r) == pytest.approx(1 / ((1 / p + 1 / r) / 2))


def test_f_beta_formula():
    p, r, beta = 0.5, 1.0, 2
    assert ck.f_measure(p, r, beta=beta) == pytest.approx((1 + beta**2) * p * r / (beta**2 * p + r))
    assert ck.f_measure(0.5, 1.0, beta=2) == pytest.approx(5 * 0.5 / (4 * 0.5 + 1))


def test_f_beta_above_one_favours_recall():
    high_recall = ck.f_measure(0.2, 0.8, beta=2)
    high_precision = ck.f_measure(0.8, 0.2, beta=2)
    assert high_recall > high_precision
    # (1 + 4) * 0.16 / (4 * 0.2 + 0.8) = 0.5 and (1 + 4) * 0.16 / (4 * 0.8 + 0.2) = 0.8 / 3.4
    assert high_recall == pytest.approx(0.8 / 1.6)
    assert high_precision == pytest.approx(0.8 / 3.4)


def test_f_beta_below_one_favours_precision():
    assert ck.f_measure(0.8, 0.2, beta=0.5) > ck.f_measure(0.2, 0.8, beta=0.5)


def test_f_measure_alpha_form_agrees():
    p, r, alpha = 0.4, 0.7, 0.2
    beta = ((1 - alpha) / alpha) ** 0.5
    assert ck.f_measure(p, r, beta=beta) == pytest.approx(1 / (alpha / p + (1 - alpha) / r))


def test_f_measure_zero_when_both_zero():
    assert ck.f_measure(0.0, 0.0) == 0.0
    assert ck.f_measure(0.0, 0.0, beta=3) == 0.0


def test_f_measure_zero_when_one_is_zero():
    assert ck.f_measure(0.0, 0.9) == 0.0
    assert ck.f_measure(0.9, 0.0) == 0.0


def test_f_measure_perfect():
    assert ck.f_measure(1.0, 1.0, beta=0.3) == pytest.approx(1.0)


def test_f_measure_rejects_precision_outside_unit_interval():
    with pytest.raises(ValueError, match=r"precision must be a number in \[0, 1\]"):
        ck.f_measure(1.5, 0.5)


def test_e_measure_is_one_minus_f():
    p, r = 0.6, 0.3
    assert ck.e_measure(p, r) == pytest.approx(1 - 2 * p * r / (p + r))
    assert ck.e_measure(p, r, beta=2) == pytest.approx(1 - 5 * p * r / (4 * p + r))


def test_e_measure_of_nothing_is_one():
    assert ck.e_measure(0.0, 0.0) == 1.0
