"""Rows ordered by counting (:mod:`coursekit.engine.counting`) are in numpy's stable order."""

from __future__ import annotations

import numpy as np
import pytest

from coursekit.engine import counting


@pytest.fixture(params=["counting", "numpy"])
def way(request, monkeypatch):
    """Each test runs with the counting pass, and with numpy's stable sort in its place."""
    monkeypatch.setattr(counting, "MIN_ROWS", 1)
    if request.param == "numpy":
        monkeypatch.setattr(counting, "_groupsort_indexer", None)
    return request.param


@pytest.mark.parametrize("n_rows, n_keys", [(1, 1), (10, 3), (5000, 7), (5000, 9000)])
def test_stable_order_is_numpys_stable_argsort(way, n_rows, n_keys):
    keys = np.random.default_rng(n_rows).integers(0, n_keys, n_rows)
    assert counting.stable_order(keys, n_keys).tolist() == np.argsort(keys, kind="stable").tolist()


def test_stable_order_refuses_keys_out_of_range():
    counting.MIN_ROWS, before = 1, counting.MIN_ROWS
    try:
        if counting._groupsort_indexer is not None:
            with pytest.raises(ValueError, match=r"range\(3\)"):
                counting.stable_order(np.array([0, 3, 1]), 3)
            with pytest.raises(ValueError, match=r"range\(3\)"):
                counting.stable_order(np.array([0, -1, 1]), 3)
    finally:
        counting.MIN_ROWS = before


def test_order_by_is_lexsort_of_the_keys_reversed(way):
    rng = np.random.default_rng(3)
    a, b, c = rng.integers(0, 40, 6000), rng.integers(0, 3, 6000), rng.integers(0, 9000, 6000)
    order = counting.order_by([(a, 40), (b, 3), (c, 9000)])
    assert order.tolist() == np.lexsort((c, b, a)).tolist()


def test_order_by_gives_up_on_keys_with_too_many_values():
    keys = np.zeros(counting.MIN_ROWS, dtype=np.int64)
    assert counting.order_by([(keys, 10**9)]) is None
    assert counting.order_by([(keys, 10), (keys, 10**9)]) is None
    few = np.array([3, 1, 2])  # a few rows: sorted whatever their range
    assert counting.order_by([(few, 10**9)]).tolist() == [1, 2, 0]


def test_counting_only_with_not_many_more_keys_than_rows():
    assert counting.countable(1000, 2000)
    assert not counting.countable(1000, 2001)


def test_a_changed_pandas_counting_pass_falls_back_to_numpys_sort(monkeypatch):
    monkeypatch.setattr(counting, "MIN_ROWS", 1)
    monkeypatch.setattr(counting, "_groupsort_indexer", lambda keys, n: keys.argsort())  # 1 array
    keys = np.array([2, 0, 2, 1, 0])
    assert counting.stable_order(keys, 3).tolist() == [1, 4, 3, 0, 2]
