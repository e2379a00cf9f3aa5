"""The 'labatut-iap' example: five queries, interpolated precision averaged over queries.

Expected values are derived by hand (fractions written out), never taken from coursekit.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

import coursekit as ck
from coursekit import course

EX = course.example("labatut-iap")

# Interpolated precision at 0.0, 0.1, ..., 1.0, by hand from the trusted relevant ranks:
# the best precision at or after the first rank whose recall reaches the level.
HAND = {
    # ranks 1 2 4 5 6 8 10 13 15 of 9: best later precisions 5/6 (rank 6), 3/4 (rank 8),
    # 7/10 (rank 10), 8/13 (rank 13), 9/15 (rank 15)
    "q1": [1, 1, 1, F(5, 6), F(5, 6), F(5, 6), F(3, 4), F(7, 10), F(8, 13), F(3, 5), F(3, 5)],
    # ranks 1 2 3 7 8 9 10 12 13 16 of 10
    "q2": [1, 1, 1, 1, F(7, 10), F(7, 10), F(7, 10), F(7, 10), F(9, 13), F(9, 13), F(5, 8)],
    # ranks 2 4 6 7 8 9 11 13 14 15 of 10: 10/15 is the best precision anywhere
    "q3": [F(2, 3)] * 11,
    # ranks 1 2 6 7 8 13 14 15 of 8
    "q4": [1, 1, 1, F(5, 8), F(5, 8), F(5, 8), F(5, 8), F(8, 15), F(8, 15), F(8, 15), F(8, 15)],
    # ranks 1 2 5 6 7 8 of 6: 6/8 at rank 8 is the best from rank 3 on
    "q5": [1, 1, 1, 1] + [F(3, 4)] * 7,
}


def test_shape_of_the_example():
    assert EX.source == "labatut"
    assert EX.data["length"] == 20
    assert sorted(EX.data["relevant_ranks"]) == ["q1", "q2", "q3", "q4", "q5"]
    for q, ranks in EX.data["relevant_ranks"].items():
        # every query finds all its relevant documents within the 20 ranks (Rec row ends at 1)
        assert len(ranks) == EX.data["n_relevant"][q]
        assert list(ranks) == sorted(set(ranks)) and ranks[-1] <= 20
    assert len(EX.printed["IAP"]) == 11
    for row in EX.printed["interpolated"].values():
        assert len(row) == 11


@pytest.mark.parametrize("q", ["q1", "q2", "q3", "q4", "q5"])
def test_interpolated_precision_by_hand(q):
    rels = ck.rels_from_ranks(EX.data["relevant_ranks"][q], EX.data["length"])
    got = ck.interpolated_precision(rels, EX.data["n_relevant"][q])
    assert got.tolist() == pytest.approx([float(x) for x in HAND[q]])


def test_printed_rows_of_q2_and_q3_match_the_trusted_ranks():
    for q in ("q2", "q3"):
        assert EX.printed["interpolated"][q] == pytest.approx(
            [float(x) for x in HAND[q]], abs=0.005 + 1e-9
        )


def test_iap_by_hand():
    iap = [sum(F(HAND[q][i]) for q in HAND) / 5 for i in range(11)]
    got = [
        sum(
            ck.interpolated_precision(
                ck.rels_from_ranks(EX.data["relevant_ranks"][q], 20), EX.data["n_relevant"][q]
            )[i]
            for q in HAND
        )
        / 5
        for i in range(11)
    ]
    assert got == pytest.approx([float(x) for x in iap])
    # level 0.3: (5/6 + 1 + 2/3 + 5/8 + 1) / 5
    assert float(iap[3]) == pytest.approx((5 / 6 + 1 + 2 / 3 + 5 / 8 + 1) / 5)
