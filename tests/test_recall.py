"""Unit tests of coursekit: F', Rnorm, PRES and MOR (hand-derived from the docstrings)."""

from __future__ import annotations

import pytest

import coursekit as ck

# --- f_prime -------------------------------------------------------------------------------------


def test_f_prime_is_f_with_ap_for_precision():
    ap, r, beta = 0.3, 0.6, 2
    assert ck.f_prime(ap, r, beta=beta) == pytest.approx(
        (1 + beta**2) * ap * r / (beta**2 * ap + r)
    )


def test_f_prime_equal_inputs_give_that_value():
    # (1 + b2) x^2 / ((b2 + 1) x) = x, whatever beta
    assert ck.f_prime(0.25, 0.25, beta=4) == pytest.approx(0.25)


def test_f_prime_zero():
    assert ck.f_prime(0.0, 0.0) == 0.0


# --- rnorm ---------------------------------------------------------------------------------------


def test_rnorm_relevant_at_one_and_three_of_four():
    # ranks {1, 3}, n = 2, N = 4: 1 - ((1 + 3) - (1 + 2)) / (2 * 2)
    assert ck.rnorm([1, 0, 1, 0], n_relevant=2, n_docs=4) == pytest.approx(1 - (4 - 3) / 4)


def test_rnorm_best_and_worst():
    assert ck.rnorm([1, 1, 0, 0, 0], n_relevant=2, n_docs=5) == pytest.approx(1.0)
    assert ck.rnorm([0, 0, 0, 1, 1], n_relevant=2, n_docs=5) == pytest.approx(0.0)


def test_rnorm_missing_relevant_placed_at_worst_rank():
    # found at rank 2; the 2nd relevant is missing -> rank N - n + 2 = 5 - 2 + 2 = 5
    # 1 - ((2 + 5) - 3) / (2 * 3)
    assert ck.rnorm([0, 1, 0], n_relevant=2, n_docs=5) == pytest.approx(1 - 4 / 6)


def test_rnorm_empty_ranking_puts_every_relevant_last():
    assert ck.rnorm([], n_relevant=2, n_docs=5) == pytest.approx(0.0)


def test_rnorm_no_relevant_is_zero():
    assert ck.rnorm([0, 0], n_relevant=0, n_docs=5) == 0.0


def test_rnorm_every_document_relevant_is_one():
    assert ck.rnorm([1, 1], n_relevant=3, n_docs=3) == 1.0


def test_rnorm_rejects_ranking_longer_than_collection():
    with pytest.raises(ValueError, match="n_docs=2 is too small: the ranking holds 3"):
        ck.rnorm([0, 0, 1], n_relevant=1, n_docs=2)


# --- pres ----------------------------------------------------------------------------------------


def test_pres_one_of_four_found_at_rank_one():
    # found rank 1; missing 2nd, 3rd, 4th -> 100 + 2, 100 + 3, 100 + 4
    ranks = [1, 102, 103, 104]
    n, n_max = 4, 100
    expected = 1 - (sum(ranks) / n - (n + 1) / 2) / n_max
    assert ck.pres([1] + [0] * 99, n_relevant=4, n_max=100) == pytest.approx(expected)
    assert expected == pytest.approx(0.25)


def test_pres_partial_with_missing():
    # found ranks 2 and 5, 3rd missing -> 5 + 3 = 8; 1 - ((2 + 5 + 8) / 3 - 2) / 5
    assert ck.pres([0, 1, 0, 0, 1], n_relevant=3, n_max=5) == pytest.approx(1 - (5 - 2) / 5)


def test_pres_ignores_relevant_beyond_n_max():
    # rank 4 is beyond N_max = 3: the 2nd relevant counts as missing -> rank 3 + 2 = 5
    assert ck.pres([1, 0, 0, 1], n_relevant=2, n_max=3) == pytest.approx(
        1 - ((1 + 5) / 2 - 3 / 2) / 3
    )


def test_pres_all_found_not_first():
    # ranks 1 and 3, n_max = 3: 1 - ((1 + 3) / 2 - 3 / 2) / 3
    assert ck.pres([1, 0, 1], n_relevant=2, n_max=3) == pytest.approx(1 - 0.5 / 3)


def test_pres_best_and_worst():
    assert ck.pres([1, 1, 0], n_relevant=2, n_max=3) == pytest.approx(1.0)
    assert ck.pres([0, 0, 0], n_relevant=2, n_max=3) == pytest.approx(0.0)


def test_pres_empty_and_no_relevant():
    assert ck.pres([], n_relevant=3, n_max=10) == 0.0
    assert ck.pres([0, 0], n_relevant=0, n_max=10) == 0.0


def test_pres_graded_input():
    # grades 0, 2, -1: relevant only at rank 2; n = 1: 1 - (2 - 1) / 3
    assert ck.pres([0, 2, -1], n_relevant=1, n_max=3) == pytest.approx(1 - 1 / 3)


# --- mor_ap_bounds -------------------------------------------------------------------------------


def test_mor_ap_bounds_two_of_three():
    # worst: ranks 2, 3 -> (1/2 + 2/3) / 2 ; best: ranks 1, 3 -> (1 + 2/3) / 2
    worst, best = ck.mor_ap_bounds(2, 3, n_relevant=2)
    assert worst == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert best == pytest.approx((1 + 2 / 3) / 2)


def test_mor_ap_bounds_three_within_five_of_five_relevant():
    # worst: ranks 3, 4, 5 -> (1/3 + 2/4 + 3/5) / 5 ; best: ranks 1, 2, 5 -> (1 + 1 + 3/5) / 5
    worst, best = ck.mor_ap_bounds(3, 5, n_relevant=5)
    assert worst == pytest.approx((1 / 3 + 2 / 4 + 3 / 5) / 5)
    assert best == pytest.approx((2 + 3 / 5) / 5)


def test_mor_ap_bounds_equal_when_w_equals_h():
    worst, best = ck.mor_ap_bounds(3, 3, n_relevant=4)
    assert worst == pytest.approx(3 / 4)
    assert best == pytest.approx(3 / 4)


def test_mor_ap_bounds_equal_when_h_is_one():
    worst, best = ck.mor_ap_bounds(1, 4, n_relevant=2)
    assert worst == pytest.approx(1 / (2 * 4))
    assert best == pytest.approx(1 / (2 * 4))


def test_mor_ap_bounds_rejects_w_below_h():
    with pytest.raises(ValueError, match="cannot be at rank w=2 < h"):
        ck.mor_ap_bounds(3, 2, n_relevant=5)


def test_mor_ap_bounds_rejects_h_above_n():
    with pytest.raises(ValueError, match="h=3 relevant documents found but n_relevant=2"):
        ck.mor_ap_bounds(3, 4, n_relevant=2)


# --- mor_parts -----------------------------------------------------------------------------------


def test_mor_parts_best_of_its_h_and_w():
    parts = ck.mor_parts([1, 0, 1], n_relevant=2, n_max=3)
    assert isinstance(parts, ck.MorParts)
    assert (parts.h, parts.w) == (2, 3)
    assert parts.ap == pytest.approx((1 + 2 / 3) / 2)
    assert parts.ap_worst == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert parts.ap_best == pytest.approx((1 + 2 / 3) / 2)
    assert parts.g == pytest.approx(1.0)


def test_mor_parts_in_between():
    # relevant at 2, 4, 5 of n = 5, N_max = 6
    parts = ck.mor_parts([0, 1, 0, 1, 1, 0], n_relevant=5, n_max=6)
    ap = (1 / 2 + 2 / 4 + 3 / 5) / 5
    ap0 = (1 / 3 + 2 / 4 + 3 / 5) / 5
    ap1 = (2 + 3 / 5) / 5
    assert (parts.h, parts.w) == (3, 5)
    assert parts.ap == pytest.approx(ap)
    assert parts.g == pytest.approx((ap - ap0) / (ap1 - ap0))
    assert parts.g == pytest.approx(1 / 7)  # (96 - 86) / (156 - 86) in 300ths


def test_mor_parts_worst_of_its_h_and_w():
    parts = ck.mor_parts([0, 1, 1], n_relevant=3, n_max=3)
    assert (parts.h, parts.w) == (2, 3)
    assert parts.g == pytest.approx(0.0)


def test_mor_parts_cut_at_n_max():
    parts = ck.mor_parts([0, 1, 0, 1], n_relevant=2, n_max=3)
    assert (parts.h, parts.w) == (1, 2)
    assert parts.ap == pytest.approx((1 / 2) / 2)
    # h = 1: AP0 = AP1, g is AP itself
    assert parts.g == pytest.approx(1 / 4)


def test_mor_parts_nothing_found():
    assert ck.mor_parts([0, 0, 1], n_relevant=1, n_max=2) == (0, 0, 0.0, 0.0, 0.0, 0.0)
    assert ck.mor_parts([], n_relevant=3, n_max=2) == (0, 0, 0.0, 0.0, 0.0, 0.0)


# --- mor -----------------------------------------------------------------------------------------


def _mor(h, w, g, n, n_max):
    """MOR from the docstring's closed form."""
    return (h * (n_max - h + 1) + n_max - w + g) / ((min(n, n_max) + 1) * (n_max - h + 1))


def test_mor_closed_form_matches_two_step_form():
    # (h + g_h) / (min(n, N) + 1), g_h = (N - w + g) / (N - h + 1); h=2, w=3, g=1, n=2, N=3
    g_h = (3 - 3 + 1) / (3 - 2 + 1)
    assert _mor(2, 3, 1.0, 2, 3) == pytest.approx((2 + g_h) / 3)


def test_mor_one_found_at_rank_one():
    # h = 1, w = 1, g = AP = 1 / 4: (100 + 99 + 0.25) / (5 * 100)
    value = ck.mor([1] + [0] * 99, n_relevant=4, n_max=100)
    assert value == pytest.approx((1 * 100 + 100 - 1 + 1 / 4) / (5 * 100))


def test_mor_two_of_two_at_one_and_three():
    # h = 2, w = 3, g = 1: (2*2 + 0 + 1) / (3 * 2)
    assert ck.mor([1, 0, 1], n_relevant=2, n_max=3) == pytest.approx(5 / 6)


def test_mor_in_between_case():
    # h = 3, w = 5, g = 1/7, n = 5, N = 6: (3*4 + 1 + 1/7) / (6 * 4) = 23/42
    assert ck.mor([0, 1, 0, 1, 1, 0], n_relevant=5, n_max=6) == pytest.approx(23 / 42)
    assert _mor(3, 5, 1 / 7, 5, 6) == pytest.approx(23 / 42)


def test_mor_more_relevant_than_n_max():
    # h = w = 2, g = AP = 2 / 5, n = 5 > N = 3: (2*2 + 1 + 0.4) / ((3 + 1) * 2)
    assert ck.mor([1, 1, 0], n_relevant=5, n_max=3) == pytest.approx(5.4 / 8)


def test_mor_relevant_beyond_n_max_ignored():
    # top 3 = [0, 1, 0]: h = 1, w = 2, g = AP = (1/2) / 2: (1*3 + 3 - 2 + 1/4) / (3 * 3)
    assert ck.mor([0, 1, 0, 1], n_relevant=2, n_max=3) == pytest.approx(4.25 / 9)


def test_mor_best_case_is_one():
    assert ck.mor([1, 1, 1, 0, 0], n_relevant=3, n_max=5) == pytest.approx(1.0)


def test_mor_nothing_found_in_n_max_is_zero():
    assert ck.mor([0, 0, 1], n_relevant=1, n_max=2) == 0.0


def test_mor_empty_ranking_and_no_relevant_are_zero():
    assert ck.mor([], n_relevant=2, n_max=5) == 0.0
    assert ck.mor([0, 0], n_relevant=0, n_max=5) == 0.0


def test_mor_c2_is_only_weak_ranks_23_and_14_tie():
    """Audeh et al. claim equal h and w < w' gives MOR > MOR'; it only holds as >=.

    n = 2, N_max = 4. Ranks {2, 3}: h = 2, w = 3 and AP = (1/2 + 2/3)/2 = AP0, so g = 0:
    MOR = (2*3 + 4 - 3 + 0) / (3*3) = 7/9. Ranks {1, 4}: h = 2, w = 4 and
    AP = (1 + 2/4)/2 = AP1, so g = 1: MOR = (2*3 + 4 - 4 + 1) / (3*3) = 7/9.
    """
    first = ck.mor_parts([0, 1, 1, 0], n_relevant=2, n_max=4)
    second = ck.mor_parts([1, 0, 0, 1], n_relevant=2, n_max=4)
    assert (first.h, first.w, second.h, second.w) == (2, 3, 2, 4)
    assert first.g == pytest.approx(0.0)
    assert second.g == pytest.approx(1.0)
    a = ck.mor([0, 1, 1, 0], n_relevant=2, n_max=4)
    b = ck.mor([1, 0, 0, 1], n_relevant=2, n_max=4)
    assert a == pytest.approx(7 / 9)
    assert b == pytest.approx(7 / 9)
    assert a == pytest.approx(b)
