"""Unit tests of coursekit: positions, Spearman's rho, Kendall's tau, pair lists."""

from __future__ import annotations

import pytest
from scipy import stats

import coursekit as ck


def _scipy_inputs(a: dict, b: dict) -> tuple[list, list]:
    items = sorted(a)
    return [a[i] for i in items], [b[i] for i in items]


# --- positions -----------------------------------------------------------------------------------


def test_positions_of_an_ordering():
    assert ck.positions(["b", "a", "c"]) == {"b": 1.0, "a": 2.0, "c": 3.0}


def test_positions_of_scores_higher_first_ties_averaged():
    # x and z tie for positions 1 and 2 -> 1.5 each; y is 3rd
    assert ck.positions({"x": 0.9, "y": 0.5, "z": 0.9}) == {"x": 1.5, "y": 3.0, "z": 1.5}


def test_positions_three_way_tie():
    assert ck.positions({"a": 1, "b": 2, "c": 2, "d": 2}) == {
        "a": 4.0,
        "b": 2.0,
        "c": 2.0,
        "d": 2.0,
    }


def test_positions_rejects_repeated_item():
    with pytest.raises(ValueError, match="ranking: item 'a' appears twice .ranks 1 and 3"):
        ck.positions(["a", "b", "a"])


def test_positions_rejects_a_string():
    with pytest.raises(TypeError, match="sequence of distinct items"):
        ck.positions("abc")


def test_positions_rejects_non_finite_score():
    with pytest.raises(ValueError, match="finite"):
        ck.positions({"a": float("nan"), "b": 1.0})


# --- spearman_rho --------------------------------------------------------------------------------


def test_spearman_no_ties_formula():
    # positions d1: 1 vs 2, d2: 2 vs 1, d3, d4 equal: sum d^2 = 2, K = 4
    value = ck.spearman_rho(["d1", "d2", "d3", "d4"], ["d2", "d1", "d3", "d4"])
    assert value == pytest.approx(1 - 6 * 2 / (4 * (4**2 - 1)))


def test_spearman_no_ties_five_items():
    a = ["a", "b", "c", "d", "e"]
    b = ["c", "a", "b", "e", "d"]
    # positions a: 1 vs 2, b: 2 vs 3, c: 3 vs 1, d: 4 vs 5, e: 5 vs 4 -> 1 + 1 + 4 + 1 + 1 = 8
    assert ck.spearman_rho(a, b) == pytest.approx(1 - 6 * 8 / (5 * 24))


def test_spearman_no_ties_matches_scipy_on_scores():
    a = {"s1": 0.31, "s2": 0.25, "s3": 0.40, "s4": 0.12, "s5": 0.22}
    b = {"s1": 0.29, "s2": 0.30, "s3": 0.35, "s4": 0.10, "s5": 0.05}
    x, y = _scipy_inputs(a, b)
    assert ck.spearman_rho(a, b) == pytest.approx(stats.spearmanr(x, y).statistic)


def test_spearman_with_ties_matches_scipy():
    a = {"A": 3, "B": 2, "C": 2, "D": 1, "E": 1}
    b = {"A": 0.5, "B": 0.7, "C": 0.2, "D": 0.2, "E": 0.1}
    x, y = _scipy_inputs(a, b)
    assert ck.spearman_rho(a, b) == pytest.approx(stats.spearmanr(x, y).statistic)


def test_spearman_tie_in_one_ranking_only():
    a = {"a": 1, "b": 1, "c": 2}
    b = {"a": 1, "b": 2, "c": 3}
    x, y = _scipy_inputs(a, b)
    # positions a: (2.5, 2.5, 1) vs (3, 2, 1): Pearson gives sqrt(3)/2
    assert ck.spearman_rho(a, b) == pytest.approx(3**0.5 / 2)
    assert ck.spearman_rho(a, b) == pytest.approx(stats.spearmanr(x, y).statistic)


def test_spearman_ordering_against_mapping():
    # ordering a, b, c against scores giving c, b, a: reversed
    assert ck.spearman_rho(["a", "b", "c"], {"a": 1, "b": 2, "c": 3}) == pytest.approx(-1.0)


# --- kendall_tau ---------------------------------------------------------------------------------


def test_kendall_one_swap_of_four():
    # 6 pairs, one discordant (d1, d2): (5 - 1) / 6
    a, b = ["d1", "d2", "d3", "d4"], ["d2", "d1", "d3", "d4"]
    assert ck.kendall_tau(a, b) == pytest.approx((5 - 1) / 6)
    assert ck.kendall_tau(a, b, variant="a") == pytest.approx((5 - 1) / 6)


def test_kendall_no_ties_matches_scipy():
    a = {"s1": 0.31, "s2": 0.25, "s3": 0.40, "s4": 0.12, "s5": 0.22}
    b = {"s1": 0.29, "s2": 0.30, "s3": 0.35, "s4": 0.10, "s5": 0.05}
    x, y = _scipy_inputs(a, b)
    assert ck.kendall_tau(a, b) == pytest.approx(stats.kendalltau(x, y).statistic)


def test_kendall_tau_a_with_ties_counts_every_pair():
    # pairs AB, AC concordant; BC tied in the first only: (2 - 0) / 3
    a = {"A": 3, "B": 2, "C": 2}
    b = {"A": 3, "B": 2, "C": 1}
    assert ck.kendall_tau(a, b, variant="a") == pytest.approx(2 / 3)


def test_kendall_tau_b_with_ties_hand_derived():
    # same as above: C = 2, D = 0, T_a = 1, T_b = 0 -> 2 / sqrt(3 * 2)
    a = {"A": 3, "B": 2, "C": 2}
    b = {"A": 3, "B": 2, "C": 1}
    assert ck.kendall_tau(a, b, variant="b") == pytest.approx(2 / 6**0.5)


def test_kendall_tau_b_with_ties_matches_scipy():
    a = {"A": 3, "B": 2, "C": 2, "D": 1, "E": 1, "F": 0}
    b = {"A": 0.5, "B": 0.7, "C": 0.2, "D": 0.2, "E": 0.1, "F": 0.7}
    x, y = _scipy_inputs(a, b)
    expected = stats.kendalltau(x, y, variant="b").statistic
    assert ck.kendall_tau(a, b) == pytest.approx(expected)
    assert ck.kendall_tau(a, b, variant="b") == pytest.approx(expected)


def test_kendall_tau_a_below_b_with_ties():
    a = {"A": 3, "B": 2, "C": 2, "D": 1}
    b = {"A": 3, "B": 2, "C": 1, "D": 1}
    # pairs: AB c, AC c, AD c, BC tied a, BD c, CD tied b -> C = 4, D = 0
    assert ck.kendall_tau(a, b, variant="a") == pytest.approx(4 / 6)
    assert ck.kendall_tau(a, b, variant="b") == pytest.approx(4 / (5 * 5) ** 0.5)


def test_kendall_pair_tied_in_both_is_skipped():
    a = {"A": 2, "B": 1, "C": 1}
    b = {"A": 2, "B": 1, "C": 1}
    # AB, AC concordant; BC tied in both: tau_b = 2 / sqrt(2 * 2) = 1, tau_a = 2 / 3
    assert ck.kendall_tau(a, b) == pytest.approx(1.0)
    assert ck.kendall_tau(a, b, variant="a") == pytest.approx(2 / 3)
    x, y = _scipy_inputs(a, b)
    assert ck.kendall_tau(a, b) == pytest.approx(stats.kendalltau(x, y).statistic)


def test_kendall_rejects_unknown_variant():
    with pytest.raises(ValueError, match="unknown Kendall tau variant 'c'"):
        ck.kendall_tau(["a", "b"], ["a", "b"], variant="c")


def test_kendall_rejects_single_item():
    with pytest.raises(ValueError, match="at least two items"):
        ck.kendall_tau(["a"], ["a"])


def test_kendall_b_undefined_when_all_tied():
    with pytest.raises(ValueError, match="undefined"):
        ck.kendall_tau({"a": 1, "b": 1}, {"a": 1, "b": 2})


def test_spearman_undefined_when_all_tied():
    with pytest.raises(ValueError, match="undefined"):
        ck.spearman_rho({"a": 1, "b": 1, "c": 1}, {"a": 1, "b": 2, "c": 3})


# --- concordant_pairs ----------------------------------------------------------------------------


def test_concordant_pairs_verdicts():
    table = ck.concordant_pairs(["x", "y", "z"], ["y", "x", "z"])
    assert list(table.columns) == ["item_1", "item_2", "a_1", "a_2", "b_1", "b_2", "verdict"]
    rows = {(r.item_1, r.item_2): r.verdict for r in table.itertuples()}
    assert rows == {
        ("x", "y"): "discordant",
        ("x", "z"): "concordant",
        ("y", "z"): "concordant",
    }
    first = table.iloc[0]
    assert (first.a_1, first.a_2, first.b_1, first.b_2) == (1.0, 2.0, 2.0, 1.0)


def test_concordant_pairs_with_ties():
    table = ck.concordant_pairs({"A": 3, "B": 2, "C": 2}, {"A": 3, "B": 2, "C": 1})
    verdicts = {(r.item_1, r.item_2): r.verdict for r in table.itertuples()}
    assert verdicts == {("A", "B"): "concordant", ("A", "C"): "concordant", ("B", "C"): "tied"}


def test_concordant_pairs_count_gives_tau_a():
    a = ["a", "b", "c", "d", "e"]
    b = ["b", "a", "d", "c", "e"]
    table = ck.concordant_pairs(a, b)
    assert len(table) == 5 * 4 // 2
    counts = table["verdict"].value_counts()
    c, d = counts.get("concordant", 0), counts.get("discordant", 0)
    assert (c, d) == (8, 2)
    assert ck.kendall_tau(a, b, variant="a") == pytest.approx((c - d) / 10)


def test_kendall_tau_of_long_rankings_by_hand():
    # beyond 2000 items the pairs are counted from the ties and scipy's C − D, not compared
    # one by one (which takes K² memory: 80 GB for 100,000 items); expected values by hand
    k = 100_000
    n0 = k * (k - 1) // 2
    items = list(range(k))
    assert ck.kendall_tau(items, items) == 1.0
    assert ck.kendall_tau(items, items[::-1]) == -1.0
    swapped = items[:10] + [items[11], items[10]] + items[12:]  # one discordant pair
    assert ck.kendall_tau(items, swapped) == pytest.approx((n0 - 2) / n0, abs=1e-15)
    # b scores items in pairs of equal values: k / 2 pairs tied in b only, every other pair
    # concordant; tau_a = C / n0, tau_b = C / sqrt(n0 (n0 − k/2))
    a = {i: float(-i) for i in range(k)}
    b = {i: float(-(i // 2)) for i in range(k)}
    concordant = n0 - k // 2
    assert ck.kendall_tau(a, b, variant="a") == pytest.approx(concordant / n0, abs=1e-15)
    assert ck.kendall_tau(a, b) == pytest.approx(concordant / (n0 * (n0 - k // 2)) ** 0.5)
