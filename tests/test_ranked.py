"""Unit tests of coursekit: binary-relevance measures of a ranked list."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import coursekit as ck

# --- judge, rels_from_ranks, STANDARD_RECALL_LEVELS ----------------------------------------------


def test_standard_recall_levels_are_exact_tenths():
    assert len(ck.STANDARD_RECALL_LEVELS) == 11
    assert ck.STANDARD_RECALL_LEVELS[0] == 0.0
    assert ck.STANDARD_RECALL_LEVELS[-1] == 1.0
    assert ck.STANDARD_RECALL_LEVELS[7] == 0.7  # 7 / 10, not 0.1 * 7 = 0.7000000000000001


def test_judge_looks_up_grades_and_defaults_to_zero():
    assert ck.judge(["d3", "d1", "d2", "d9"], {"d2": 1, "d3": 2, "d1": -1}) == [2, -1, 1, 0]


def test_judge_empty_ranking():
    assert ck.judge([], {"d1": 1}) == []


def test_judge_rejects_duplicate_document():
    with pytest.raises(ValueError, match="ranking: document 'a' appears twice .ranks 1 and 3"):
        ck.judge(["a", "b", "a"], {"a": 1})


def test_judge_rejects_string_ranking():
    with pytest.raises(TypeError, match="got a string"):
        ck.judge("abc", {"a": 1})


def test_judge_rejects_non_mapping_qrels():
    with pytest.raises(TypeError, match="qrels must map"):
        ck.judge(["a"], [("a", 1)])


def test_rels_from_ranks():
    assert ck.rels_from_ranks([1, 3], length=4) == [1, 0, 1, 0]
    assert ck.rels_from_ranks([4, 2], length=4) == [0, 1, 0, 1]
    assert ck.rels_from_ranks([], length=3) == [0, 0, 0]
    assert ck.rels_from_ranks([], length=0) == []


def test_rels_from_ranks_rejects_rank_beyond_length():
    with pytest.raises(ValueError, match="rank 5 is beyond the end of a list of length 4"):
        ck.rels_from_ranks([5], length=4)


def test_rels_from_ranks_rejects_repeated_rank():
    with pytest.raises(ValueError, match="rank 2 is given twice"):
        ck.rels_from_ranks([2, 2], length=4)


# --- precision_at / recall_at --------------------------------------------------------------------


def test_precision_at_k():
    rels = [0, 0, 1, 0, 1]
    assert ck.precision_at(rels, 5) == pytest.approx(2 / 5)
    assert ck.precision_at(rels, 3) == pytest.approx(1 / 3)
    assert ck.precision_at(rels, 1) == 0.0


def test_precision_at_k_beyond_list_divides_by_k():
    # 2 relevant in a list of 3, P@10 pads with non-relevant: 2 / 10, not 2 / 3
    assert ck.precision_at([1, 1, 0], 10) == pytest.approx(2 / 10)


def test_precision_at_empty_ranking_is_zero():
    assert ck.precision_at([], 5) == 0.0


def test_precision_at_graded_only_grade_one_or_more_counts():
    # grades 3, 0, 1, -2, 2: relevant are 3, 1, 2 (ranks 1, 3, 5); 0 and -2 are not
    assert ck.precision_at([3, 0, 1, -2, 2], 5) == pytest.approx(3 / 5)
    assert ck.precision_at([-1, -3], 2) == 0.0


def test_precision_at_fractional_grade_below_one_is_not_relevant():
    assert ck.precision_at([0.5, 1.0], 2) == pytest.approx(1 / 2)


def test_precision_at_accepts_numpy_and_bool_input():
    assert ck.precision_at(np.array([True, False, True]), 2) == pytest.approx(1 / 2)
    assert ck.precision_at(np.array([2, 0, 1]), np.int64(3)) == pytest.approx(2 / 3)


def test_recall_at_k():
    assert ck.recall_at([1, 0, 1, 0], 2, n_relevant=4) == pytest.approx(1 / 4)
    assert ck.recall_at([1, 0, 1, 0], 4, n_relevant=4) == pytest.approx(2 / 4)


def test_recall_at_k_beyond_list():
    assert ck.recall_at([0, 1], 100, n_relevant=3) == pytest.approx(1 / 3)


def test_recall_at_no_relevant_is_zero():
    assert ck.recall_at([0, 0, -1], 3, n_relevant=0) == 0.0


def test_recall_at_empty_ranking_is_zero():
    assert ck.recall_at([], 3, n_relevant=2) == 0.0


# --- pr_table ------------------------------------------------------------------------------------


def test_pr_table_columns_and_values():
    table = ck.pr_table([1, 0, 1, -1], n_relevant=3)
    assert list(table.columns) == ["k", "relevant", "TP", "FP", "FN", "precision", "recall"]
    assert table["k"].tolist() == [1, 2, 3, 4]
    assert table["relevant"].tolist() == [True, False, True, False]
    assert table["TP"].tolist() == [1, 1, 2, 2]
    assert table["FP"].tolist() == [0, 1, 1, 2]
    assert table["FN"].tolist() == [2, 2, 1, 1]
    assert table["precision"].tolist() == pytest.approx([1 / 1, 1 / 2, 2 / 3, 2 / 4])
    assert table["recall"].tolist() == pytest.approx([1 / 3, 1 / 3, 2 / 3, 2 / 3])


def test_pr_table_no_relevant_has_zero_recall():
    table = ck.pr_table([0, 0], n_relevant=0)
    assert table["recall"].tolist() == [0.0, 0.0]
    assert table["FN"].tolist() == [0, 0]


def test_pr_table_empty_ranking_has_no_rows():
    table = ck.pr_table([], n_relevant=2)
    assert isinstance(table, pd.DataFrame)
    assert len(table) == 0
    assert list(table.columns) == ["k", "relevant", "TP", "FP", "FN", "precision", "recall"]


# --- interpolated_precision / interpolate_points -------------------------------------------------


def test_interpolated_precision_standard_levels():
    # relevant at ranks 1 and 3 of 2: (R, P) = (0.5, 1), (1.0, 2/3)
    values = ck.interpolated_precision([1, 0, 1, 0], n_relevant=2)
    assert values.tolist() == pytest.approx([1.0] * 6 + [2 / 3] * 5)


def test_interpolated_precision_takes_max_over_later_ranks():
    # relevant at ranks 2, 3, 6 of 4 relevant: P at those ranks 1/2, 2/3, 3/6
    # level 0.25 is reached at rank 2, but rank 3 has a higher precision (2/3)
    values = ck.interpolated_precision([0, 1, 1, 0, 0, 1], 4, levels=[0.0, 0.25, 0.5, 0.75, 1.0])
    assert values.tolist() == pytest.approx([2 / 3, 2 / 3, 2 / 3, 3 / 6, 0.0])


def test_interpolated_precision_exact_level_seven_of_ten():
    # 7 relevant first, of 10: recall 0.7 exactly at rank 7 (precision 1), never 0.8
    rels = [1] * 7 + [0] * 3
    assert ck.interpolated_precision(rels, 10, levels=[0.7]).tolist() == [1.0]
    assert ck.interpolated_precision(rels, 10, levels=[0.8]).tolist() == [0.0]


def test_interpolated_precision_level_computed_as_tenth_times_seven():
    rels = [1] * 7 + [0] * 3
    level = 0.1 * 7
    assert level != 0.7  # 0.7000000000000001 in floating point
    assert ck.interpolated_precision(rels, 10, levels=[level]).tolist() == [1.0]


def test_interpolated_precision_exact_third():
    # 1 of 3 relevant at rank 2: recall 1/3 at rank 2 (precision 1/2)
    values = ck.interpolated_precision([0, 1, 0], 3, levels=[1 / 3, 0.34])
    assert values.tolist() == pytest.approx([1 / 2, 0.0])


def test_interpolated_precision_no_relevant_is_zero():
    assert ck.interpolated_precision([0, 0], 0).tolist() == [0.0] * 11


def test_interpolated_precision_empty_ranking_is_zero():
    assert ck.interpolated_precision([], 3).tolist() == [0.0] * 11


def test_interpolated_precision_level_zero_is_the_best_precision():
    assert ck.interpolated_precision([0, 0, 1, 1], 5, levels=[0.0]).tolist() == pytest.approx(
        [2 / 4]
    )


def test_interpolated_precision_rejects_level_outside_unit_interval():
    with pytest.raises(ValueError, match="recall level must be in"):
        ck.interpolated_precision([1], 1, levels=[1.5])


def test_interpolate_points_max_precision_at_recall_at_least_level():
    values = ck.interpolate_points([0.5, 1.0], [1.0, 0.5], levels=[0.0, 0.5, 0.6, 1.0])
    assert values.tolist() == [1.0, 1.0, 0.5, 0.5]


def test_interpolate_points_default_levels():
    recalls = [0.2, 0.4, 0.6]
    precisions = [0.5, 0.6, 0.3]
    # level <= 0.4 -> max(0.5, 0.6, ...) = 0.6 ; 0.5, 0.6 -> 0.3 ; above 0.6 -> 0
    expected = [0.6, 0.6, 0.6, 0.6, 0.6, 0.3, 0.3, 0, 0, 0, 0]
    assert ck.interpolate_points(recalls, precisions).tolist() == pytest.approx(expected)


def test_interpolate_points_level_seven_tenths_matches_printed_point():
    assert ck.interpolate_points([0.7], [0.5], levels=[0.1 * 7]).tolist() == [0.5]


def test_interpolate_points_no_points_is_zero():
    assert ck.interpolate_points([], [], levels=[0.0, 1.0]).tolist() == [0.0, 0.0]


def test_interpolate_points_rejects_length_mismatch():
    with pytest.raises(ValueError, match="same length"):
        ck.interpolate_points([0.1, 0.2], [0.5])


# --- average_precision, r_precision, reciprocal_rank ---------------------------------------------


def test_average_precision_counts_missing_relevant_as_zero():
    assert ck.average_precision([1, 0, 1, 0], 3) == pytest.approx((1 / 1 + 2 / 3) / 3)


def test_average_precision_over_found_only_variant():
    assert ck.average_precision([1, 0, 1, 0], 2) == pytest.approx((1 / 1 + 2 / 3) / 2)


def test_average_precision_longer_list():
    # relevant at ranks 1, 2, 4, 6, 6 relevant in all
    assert ck.average_precision([1, 1, 0, 1, 0, 1], 6) == pytest.approx(
        (1 / 1 + 2 / 2 + 3 / 4 + 4 / 6) / 6
    )


def test_average_precision_graded_and_negative_grades():
    # grades 2, -1, 0, 1: relevant at ranks 1 and 4
    assert ck.average_precision([2, -1, 0, 1], 2) == pytest.approx((1 / 1 + 2 / 4) / 2)


def test_average_precision_all_relevant_first_is_one():
    assert ck.average_precision([1, 1, 1, 0, 0], 3) == 1.0


def test_average_precision_empty_ranking_is_zero():
    assert ck.average_precision([], 4) == 0.0


def test_average_precision_no_relevant_is_zero():
    assert ck.average_precision([0, 0, 0], 0) == 0.0
    assert ck.average_precision([], 0) == 0.0


def test_r_precision():
    # R = 3: relevant in ranks 1..3 are ranks 1 and 3
    assert ck.r_precision([1, 0, 1, 1, 0], 3) == pytest.approx(2 / 3)


def test_r_precision_list_shorter_than_r():
    assert ck.r_precision([0, 0, 1, 0, 1, 1, 0, 0], 8) == pytest.approx(3 / 8)
    assert ck.r_precision([1], 4) == pytest.approx(1 / 4)


def test_r_precision_edge_cases():
    assert ck.r_precision([], 3) == 0.0
    assert ck.r_precision([0, 0], 0) == 0.0


def test_reciprocal_rank():
    assert ck.reciprocal_rank([0, 0, 1, 1]) == pytest.approx(1 / 3)
    assert ck.reciprocal_rank([1]) == 1.0
    assert ck.reciprocal_rank([0, -1, 0.5, 2]) == pytest.approx(1 / 4)


def test_reciprocal_rank_none_found_or_empty_is_zero():
    assert ck.reciprocal_rank([0, 0]) == 0.0
    assert ck.reciprocal_rank([]) == 0.0


# --- MAP, GMAP, MRR ------------------------------------------------------------------------------


def test_mean_average_precision():
    queries = [([0, 0, 1], 1), ([0, 1, 1], 2)]
    ap1 = (1 / 3) / 1
    ap2 = (1 / 2 + 2 / 3) / 2
    assert ck.mean_average_precision(queries) == pytest.approx((ap1 + ap2) / 2)


def test_mean_average_precision_of_no_query_is_an_error():
    with pytest.raises(ValueError, match="mean_average_precision of no query"):
        ck.mean_average_precision([])


def test_mean_average_precision_rejects_bare_rankings():
    with pytest.raises(TypeError, match="pairs"):
        ck.mean_average_precision([[1, 0, 1]])


def test_gmap_is_geometric_mean():
    queries = [([1], 1), ([0, 1], 1)]  # APs 1 and 1/2
    assert ck.geometric_mean_average_precision(queries) == pytest.approx(math.sqrt(1 * 1 / 2))


def test_gmap_floor_applies_to_zero_ap():
    queries = [([0], 1), ([1], 1)]  # APs 0 and 1
    assert ck.geometric_mean_average_precision(queries) == pytest.approx(math.sqrt(1e-5 * 1))


def test_gmap_custom_floor():
    queries = [([0], 1), ([0, 0, 0, 1], 1)]  # APs 0 and 1/4
    assert ck.geometric_mean_average_precision(queries, floor=0.01) == pytest.approx(
        math.sqrt(0.01 * 0.25)
    )


def test_gmap_below_map_when_aps_differ():
    queries = [([1], 1), ([0, 0, 0, 1], 1)]  # APs 1, 1/4: GMAP 1/2 < MAP 5/8
    assert ck.geometric_mean_average_precision(queries) == pytest.approx(0.5)
    assert ck.mean_average_precision(queries) == pytest.approx(5 / 8)


def test_gmap_of_no_query_is_an_error():
    with pytest.raises(ValueError, match="geometric_mean_average_precision of no query"):
        ck.geometric_mean_average_precision([])


def test_mean_reciprocal_rank():
    assert ck.mean_reciprocal_rank([[1, 0], [0, 0, 1], [0]]) == pytest.approx(
        (1 / 1 + 1 / 3 + 0) / 3
    )


def test_mean_reciprocal_rank_of_no_query_is_an_error():
    with pytest.raises(ValueError, match="mean_reciprocal_rank of no query"):
        ck.mean_reciprocal_rank([])
