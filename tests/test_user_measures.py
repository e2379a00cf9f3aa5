"""RBP and ERR against hand derivations from their definitions, written out step by step.

RBP: A. Moffat & J. Zobel, "Rank-biased precision for measurement of retrieval effectiveness",
TOIS 2008: RBP = (1 - p) * sum_i r_i * p^(i-1), residual p^d for a ranking of depth d.
ERR: O. Chapelle, D. Metzler, Y. Zhang & P. Grinspan, "Expected reciprocal rank for graded
relevance", CIKM 2009: R_i = (2^g_i - 1) / 2^g_max, ERR = sum_r (1/r) R_r prod_{i<r} (1 - R_i).
Fractions keep the hand derivations exact.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from coursekit.measures.user import RBPResult, err, rbp

# --- RBP ---------------------------------------------------------------------------------------


def test_rbp_binary_by_hand():
    # relevant at ranks 1, 3, 4 of a ranking of depth 5, p = 0.8
    p = F(4, 5)
    # (1 - p) * (p^0 + p^2 + p^3) = 0.2 * (1 + 0.64 + 0.512) = 0.2 * 2.152 = 0.4304
    value = (1 - p) * (p**0 + p**2 + p**3)
    assert value == F(4304, 10000)
    residual = p**5  # 0.32768: everything below rank 5 could be relevant
    result = rbp([1, 0, 1, 1, 0], p=0.8)
    assert isinstance(result, RBPResult)
    assert result.value == pytest.approx(float(value), abs=1e-15)
    assert result.residual == pytest.approx(float(residual), abs=1e-15)


def test_rbp_default_persistence_is_0_8():
    assert rbp([1, 0, 1, 1, 0]) == rbp([1, 0, 1, 1, 0], p=0.8)


def test_rbp_unjudged_documents_add_to_the_residual():
    # rank 2 unjudged, p = 0.8: its weight (1 - p) p^1 = 0.16 moves to the residual
    p = F(4, 5)
    value = (1 - p) * (p**0 + p**2 + p**3)
    residual = (1 - p) * p**1 + p**5  # 0.16 + 0.32768 = 0.48768
    result = rbp([1, None, 1, 1, 0], p=0.8)
    assert result.value == pytest.approx(float(value), abs=1e-15)
    assert result.residual == pytest.approx(float(residual), abs=1e-15)
    assert rbp([1, math.nan, 1, 1, 0], p=0.8) == result


def test_rbp_graded_by_hand():
    # max grade 2: r = grade / 2 = 1, 1/2, 0 ; p = 1/2
    p = F(1, 2)
    value = (1 - p) * (1 + F(1, 2) * p + 0 * p**2)  # 1/2 * 5/4 = 5/8
    assert value == F(5, 8)
    result = rbp([2, 1, 0], p=0.5, max_grade=2)
    assert result == (pytest.approx(0.625, abs=1e-15), pytest.approx(1 / 8, abs=1e-15))
    # binary reading of the same grades: both relevant -> 1/2 * (1 + 1/2) = 3/4
    assert rbp([2, 1, 0], p=0.5).value == pytest.approx(0.75, abs=1e-15)


def test_rbp_of_an_all_relevant_ranking_plus_residual_is_one():
    # the geometric series: (1 - p) * (1 + p + ... + p^(d-1)) = 1 - p^d
    for p in (0.5, 0.8, 0.95):
        result = rbp([1] * 10, p=p)
        assert result.value == pytest.approx(1 - p**10, abs=1e-12)
        assert result.value + result.residual == pytest.approx(1.0, abs=1e-12)
    # Moffat & Zobel's point about patient users: p = 0.95, depth 10 leaves 0.95^10 ~ 0.599
    assert round(rbp([0] * 10, p=0.95).residual, 3) == 0.599


def test_rbp_empty_ranking_and_negative_grades():
    assert rbp([], p=0.8) == (0.0, 1.0)
    assert rbp([-1, 1], p=0.5, max_grade=1) == (0.25, 0.25)
    assert rbp([-1, 1], p=0.5) == (0.25, 0.25)


def test_rbp_p_zero_is_the_first_document_only():
    assert rbp([1, 1, 1], p=0.0) == (1.0, 0.0)
    assert rbp([0, 1, 1], p=0.0) == (0.0, 0.0)


# --- ERR ---------------------------------------------------------------------------------------


def test_err_by_hand_five_grade_scale():
    # the paper's 5-grade scale, g_max = 4 (Bad 0 .. Perfect 4); grades 4, 0, 2
    r = [F(2**4 - 1, 2**4), F(0), F(2**2 - 1, 2**4)]  # 15/16, 0, 3/16
    # rank 1: 1/1 * 15/16
    # rank 2: 1/2 * 0 * (1 - 15/16)
    # rank 3: 1/3 * 3/16 * (1 - 15/16) * (1 - 0) = 1/3 * 3/16 * 1/16 = 1/256
    expected = F(1, 1) * r[0] + F(1, 2) * r[1] * (1 - r[0]) + F(1, 3) * r[2] * (1 - r[0])
    assert expected == F(15, 16) + F(1, 256)
    assert err([4, 0, 2], max_grade=4) == pytest.approx(float(expected), abs=1e-15)


def test_err_by_hand_increasing_grades():
    # grades 1, 2, 3 with g_max = 3: R = 1/8, 3/8, 7/8
    r1, r2, r3 = F(1, 8), F(3, 8), F(7, 8)
    expected = r1 + F(1, 2) * r2 * (1 - r1) + F(1, 3) * r3 * (1 - r1) * (1 - r2)
    # = 1/8 + 21/128 + 245/1536 = 192/1536 + 252/1536 + 245/1536 = 689/1536
    assert expected == F(689, 1536)
    assert err([1, 2, 3], max_grade=3) == pytest.approx(float(expected), abs=1e-15)
    # the reverse order is better: the satisfying document comes first
    reverse = r3 + F(1, 2) * r2 * (1 - r3) + F(1, 3) * r1 * (1 - r3) * (1 - r2)
    assert err([3, 2, 1], max_grade=3) == pytest.approx(float(reverse), abs=1e-15)
    assert reverse > expected


def test_err_cutoff():
    # ERR@2 of grades 1, 2, 3 (g_max 3): the first two terms only
    expected = F(1, 8) + F(1, 2) * F(3, 8) * F(7, 8)
    assert err([1, 2, 3], max_grade=3, k=2) == pytest.approx(float(expected), abs=1e-15)
    assert err([1, 2, 3], max_grade=3, k=20) == err([1, 2, 3], max_grade=3)


def test_err_binary():
    # max grade 1: R = 1/2 for a relevant document; [1, 1] -> 1/2 + 1/2 * 1/2 * 1/2
    assert err([1, 1], max_grade=1) == 0.625
    assert err([0, 0, 1], max_grade=1) == pytest.approx(1 / 6, abs=1e-15)


def test_err_unjudged_and_negative_grades_count_zero():
    assert err([None, -2, 1], max_grade=1) == pytest.approx(1 / 6, abs=1e-15)
    assert err([], max_grade=2) == 0.0


def test_err_best_possible_single_document():
    # a single document of the top grade: (2^g_max - 1) / 2^g_max, never quite 1
    assert err([4], max_grade=4) == 15 / 16


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [1, 1.0, -0.1, math.nan])
def test_rbp_bad_p_value(p):
    with pytest.raises(ValueError, match="p must be a persistence probability"):
        rbp([1, 0], p=p)


def test_rbp_bad_input():
    with pytest.raises(TypeError, match="p must be a persistence probability"):
        rbp([1, 0], p="0.8")
    with pytest.raises(ValueError, match=r"grades\[1\] \(rank 2\) is 3, above max_grade=2"):
        rbp([1, 3], max_grade=2)
    with pytest.raises(ValueError, match="max_grade must be"):
        rbp([1, 0], max_grade=0)
    with pytest.raises(TypeError, match="grades must be a sequence"):
        rbp("10")
    with pytest.raises(ValueError, match=r"grades\[0\] \(rank 1\) is .*inf.*finite"):
        rbp([math.inf])


def test_err_bad_input():
    with pytest.raises(ValueError, match="above max_grade=2"):
        err([3], max_grade=2)
    with pytest.raises(TypeError, match="max_grade must be"):
        err([1], max_grade=None)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        err([1], max_grade=1, k=0)
    with pytest.raises(TypeError, match=r"grades\[0\] \(rank 1\) must be a number"):
        err(["1"], max_grade=1)
    with pytest.raises(ValueError, match="one-dimensional"):
        err(np.ones((2, 2)), max_grade=1)
