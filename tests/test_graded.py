"""Unit tests of coursekit: cumulated gain, the three DCG variants and nDCG."""

from __future__ import annotations

import math

import numpy as np
import pytest

import coursekit as ck

log2 = math.log2

# --- cumulative_gain / discounted_gains / dcg_curve ----------------------------------------------


def test_cumulative_gain():
    assert ck.cumulative_gain([3, 2, 3, 0, 1]).tolist() == [3, 3 + 2, 3 + 2 + 3, 8, 8 + 1]


def test_cumulative_gain_negative_grades_gain_nothing():
    assert ck.cumulative_gain([2, -1, 1, -3]).tolist() == [2, 2, 3, 3]


def test_cumulative_gain_empty():
    assert ck.cumulative_gain([]).tolist() == []


def test_discounted_gains_jarvelin_no_discount_at_ranks_one_and_two():
    gains = [3, 2, 3, 1]
    expected = [3, 2 / log2(2), 3 / log2(3), 1 / log2(4)]
    assert ck.discounted_gains(gains, variant="jarvelin").tolist() == pytest.approx(expected)


def test_discounted_gains_trec():
    gains = [3, 2, 3, 1]
    expected = [3 / log2(2), 2 / log2(3), 3 / log2(4), 1 / log2(5)]
    assert ck.discounted_gains(gains, variant="trec").tolist() == pytest.approx(expected)


def test_discounted_gains_burges_exponential_gain():
    gains = [3, 2, 0, 1]
    expected = [(2**3 - 1) / log2(2), (2**2 - 1) / log2(3), 0, (2**1 - 1) / log2(5)]
    assert ck.discounted_gains(gains, variant="burges").tolist() == pytest.approx(expected)


def test_discounted_gains_default_is_trec():
    assert ck.discounted_gains([1, 1]).tolist() == pytest.approx([1, 1 / log2(3)])


@pytest.mark.parametrize("variant", ["jarvelin", "trec", "burges"])
def test_discounted_gains_negative_grade_gains_nothing(variant):
    assert ck.discounted_gains([-2, -1], variant=variant).tolist() == [0.0, 0.0]


def test_trec_and_burges_agree_on_binary_grades():
    rels = [1, 0, 1, 1, 0]
    assert ck.discounted_gains(rels, variant="trec").tolist() == pytest.approx(
        ck.discounted_gains(rels, variant="burges").tolist()
    )


def test_dcg_curve_jarvelin():
    expected = [3, 3 + 2, 3 + 2 + 3 / log2(3)]
    assert ck.dcg_curve([3, 2, 3], variant="jarvelin").tolist() == pytest.approx(expected)


def test_dcg_curve_trec():
    expected = [2, 2 + 0, 2 + 0 + 1 / log2(4)]
    assert ck.dcg_curve([2, 0, 1], variant="trec").tolist() == pytest.approx(expected)


# --- dcg -----------------------------------------------------------------------------------------


GAINS = [3, 2, 3, 0, 1, 2]


def test_dcg_jarvelin_whole_list():
    expected = 3 + 2 / log2(2) + 3 / log2(3) + 0 / log2(4) + 1 / log2(5) + 2 / log2(6)
    assert ck.dcg(GAINS, variant="jarvelin") == pytest.approx(expected)


def test_dcg_trec_whole_list():
    expected = sum(g / log2(i + 1) for i, g in enumerate(GAINS, start=1))
    assert expected == pytest.approx(
        3 / 1 + 2 / log2(3) + 3 / 2 + 0 / log2(5) + 1 / log2(6) + 2 / log2(7)
    )
    assert ck.dcg(GAINS, variant="trec") == pytest.approx(expected)


def test_dcg_burges_whole_list():
    expected = 7 / 1 + 3 / log2(3) + 7 / 2 + 0 / log2(5) + 1 / log2(6) + 3 / log2(7)
    assert ck.dcg(GAINS, variant="burges") == pytest.approx(expected)


def test_dcg_at_k_default_variant():
    assert ck.dcg(GAINS, k=3) == pytest.approx(3 + 2 / log2(3) + 3 / 2)


def test_dcg_at_k_jarvelin():
    assert ck.dcg(GAINS, k=2, variant="jarvelin") == pytest.approx(3 + 2)


def test_dcg_k_beyond_list_is_whole_list():
    assert ck.dcg([1, 1], k=10) == pytest.approx(1 + 1 / log2(3))


def test_dcg_empty_is_zero():
    assert ck.dcg([]) == 0.0
    assert ck.dcg([], k=5, variant="jarvelin") == 0.0


def test_dcg_negative_grade_gains_nothing():
    assert ck.dcg([-1, 2]) == pytest.approx(2 / log2(3))


# --- ideal_gains / ndcg --------------------------------------------------------------------------


def test_ideal_gains_sorts_own_grades():
    assert ck.ideal_gains([0, 2, 1]).tolist() == [2, 1, 0]


def test_ideal_gains_uses_all_judged_grades():
    assert ck.ideal_gains([0, 2, 1], ideal=[2, 1, 3, 0]).tolist() == [3, 2, 1, 0]


def test_ideal_gains_clips_negative_grades():
    assert ck.ideal_gains([1], ideal=[-2, 1, -1]).tolist() == [1, 0, 0]


def test_ndcg_without_ideal_reorders_own_grades():
    # [0, 1]: DCG = 1/log2(3); ideal [1, 0]: IDCG = 1
    assert ck.ndcg([0, 1]) == pytest.approx((1 / log2(3)) / 1)


def test_ndcg_with_ideal_uses_missed_relevant():
    dcg = 1 / log2(3)
    idcg = 1 + 1 / log2(3) + 1 / log2(4)
    assert ck.ndcg([0, 1], ideal=[1, 1, 1]) == pytest.approx(dcg / idcg)
    assert ck.ndcg([0, 1], ideal=[1, 1, 1]) < ck.ndcg([0, 1])


def test_ndcg_graded_trec():
    gains = [2, 0, 3]
    dcg = 2 / 1 + 0 + 3 / 2
    idcg = 3 / 1 + 2 / log2(3) + 0
    assert ck.ndcg(gains) == pytest.approx(dcg / idcg)


def test_ndcg_graded_jarvelin():
    gains = [2, 0, 3]
    dcg = 2 + 0 + 3 / log2(3)
    idcg = 3 + 2 + 0
    assert ck.ndcg(gains, variant="jarvelin") == pytest.approx(dcg / idcg)


def test_ndcg_graded_burges():
    gains = [2, 0, 3]
    dcg = 3 / 1 + 0 + 7 / 2
    idcg = 7 / 1 + 3 / log2(3) + 0
    assert ck.ndcg(gains, variant="burges") == pytest.approx(dcg / idcg)


def test_ndcg_at_k_cuts_both():
    gains = [0, 1, 2]
    ideal = [2, 2, 1, 0]
    dcg_2 = 0 + 1 / log2(3)
    idcg_2 = 2 + 2 / log2(3)
    assert ck.ndcg(gains, k=2, ideal=ideal) == pytest.approx(dcg_2 / idcg_2)


def test_ndcg_at_k_jarvelin_with_ideal():
    gains = [1, 0, 2]
    ideal = [2, 1, 1]
    dcg_3 = 1 + 0 + 2 / log2(3)
    idcg_3 = 2 + 1 + 1 / log2(3)
    assert ck.ndcg(gains, k=3, ideal=ideal, variant="jarvelin") == pytest.approx(dcg_3 / idcg_3)


def test_ndcg_negative_grades_never_gain():
    # -2 at rank 1 gains nothing; the ideal reorders [1, 0] (the -2 clipped to 0)
    assert ck.ndcg([-2, 1]) == pytest.approx((1 / log2(3)) / 1)


def test_ndcg_no_relevant_is_zero():
    assert ck.ndcg([0, 0, -1]) == 0.0
    assert ck.ndcg([0, 0], ideal=[0, -1]) == 0.0


def test_ndcg_empty_ranking_is_zero():
    assert ck.ndcg([]) == 0.0
    assert ck.ndcg([], ideal=[2, 1]) == 0.0
    assert ck.ndcg([], k=3, ideal=[1]) == 0.0


def test_ndcg_accepts_generator_as_ideal():
    assert ck.ndcg([1, 0], ideal=(g for g in [1, 1])) == pytest.approx(1 / (1 + 1 / log2(3)))


# --- mean_curve / normalised_curve / curve_area --------------------------------------------------


def test_mean_curve_pads_with_last_value():
    # [3, 3] extends to [3, 3, 3]
    assert ck.mean_curve([[1, 2, 3], [3, 3]]).tolist() == pytest.approx(
        [(1 + 3) / 2, (2 + 3) / 2, (3 + 3) / 2]
    )


def test_mean_curve_with_length_truncates_and_pads():
    curves = [[1, 2, 3, 4], [2]]
    assert ck.mean_curve(curves, length=2).tolist() == pytest.approx([(1 + 2) / 2, (2 + 2) / 2])
    assert ck.mean_curve(curves, length=5).tolist() == pytest.approx([1.5, 2.0, 2.5, 3.0, 3.0])


def test_mean_curve_of_cumulated_gains():
    cg_a = ck.cumulative_gain([3, 0, 1])  # [3, 3, 4]
    cg_b = ck.cumulative_gain([0, 2, 2])  # [0, 2, 4]
    assert ck.mean_curve([cg_a, cg_b]).tolist() == pytest.approx([1.5, 2.5, 4.0])


def test_mean_curve_rejects_no_curve():
    with pytest.raises(ValueError, match="no curve to average"):
        ck.mean_curve([])


def test_mean_curve_rejects_empty_curve():
    with pytest.raises(ValueError, match="non-empty one-dimensional"):
        ck.mean_curve([[1.0], []])


def test_normalised_curve():
    assert ck.normalised_curve([[0, 1, 2]], [[1, 2, 2]]).tolist() == pytest.approx(
        [0 / 1, 1 / 2, 2 / 2]
    )


def test_normalised_curve_divides_averages_not_averages_of_ratios():
    actual = [[1, 1], [0, 3]]
    ideal = [[1, 1], [3, 3]]
    # mean actual [0.5, 2], mean ideal [2, 2] -> [0.25, 1.0]
    # (the mean of the per-query ratios would be [(1 + 0) / 2, (1 + 1) / 2] = [0.5, 1.0])
    assert ck.normalised_curve(actual, ideal).tolist() == pytest.approx([0.5 / 2, 2 / 2])


def test_normalised_curve_zero_where_ideal_is_zero():
    assert ck.normalised_curve([[0, 0, 1]], [[0, 0, 1]]).tolist() == [0.0, 0.0, 1.0]


def test_normalised_curve_pads_ideal_to_actual_length():
    assert ck.normalised_curve([[1, 2, 2]], [[2, 4]]).tolist() == pytest.approx(
        [1 / 2, 2 / 4, 2 / 4]
    )


def test_curve_area_is_mean_of_values():
    assert ck.curve_area([0.0, 0.5, 1.0]) == pytest.approx((0 + 0.5 + 1) / 3)
    assert ck.curve_area(np.array([1.0, 1.0])) == 1.0


def test_curve_area_empty_is_zero():
    assert ck.curve_area([]) == 0.0


def test_ndcg_curve_area_end_to_end():
    gains = [0, 2, 1]
    dcg = ck.dcg_curve(gains)
    idcg = ck.dcg_curve(ck.ideal_gains(gains))
    curve = ck.normalised_curve([dcg], [idcg])
    expected = [
        0 / 2,
        (2 / log2(3)) / (2 + 1 / log2(3)),
        (2 / log2(3) + 1 / 2) / (2 + 1 / log2(3)),
    ]
    assert curve.tolist() == pytest.approx(expected)
    assert ck.curve_area(curve) == pytest.approx(sum(expected) / 3)


@pytest.mark.parametrize(
    "n_queries, grades",
    [
        (50, [0, 1, 2, 3]),  # few queries and grades: two radix sorts
        (70_000, [0, 1, 2, 3]),  # query codes beyond 16 bits: one sort of packed integers
        (50, [-1, 0, 2**17]),  # grades spread beyond 16 bits: the same
        (50, [0, 0.5, 1, 2]),  # fractional grades: a lexsort
    ],
)
def test_the_ideal_ranking_orders_judgments_by_query_then_grade(n_queries, grades):
    from coursekit.measures.ndcg_every import by_query_then_grade as _by_query_then_grade

    rng = np.random.default_rng(9)
    query = rng.integers(0, n_queries, 3000)
    grade = rng.choice(np.array(grades, dtype=float), 3000)
    got_query, got_grade = _by_query_then_grade(query, grade)
    expected = sorted(zip(query.tolist(), grade.tolist(), strict=True), key=lambda p: (p[0], -p[1]))
    assert list(zip(got_query.tolist(), got_grade.tolist(), strict=True)) == expected
