"""(query, doc) pairs found by direct addressing (:mod:`coursekit.engine.addressing`) are those a
Python dict finds."""

from __future__ import annotations

import numpy as np
import pytest

from coursekit.engine import addressing


@pytest.fixture(
    params=[(1 << 20, 3), (64, 1), (64, 3), (450, 3)],
    ids=["one block", "a block per query", "three queries a block", "table of two, blocks of 3"],
)
def cells(request, monkeypatch):
    """The table's cells and the fewest queries a block (:data:`addressing._MIN_QUERIES`:
    with many doc ids, a block holds that many queries whatever the table's size)."""
    cells, min_queries = request.param
    monkeypatch.setattr(addressing, "TABLE_CELLS", cells)
    monkeypatch.setattr(addressing, "_MIN_QUERIES", min_queries)
    return cells


def pairs(rng, n_rows, n_queries, n_docs, distinct=True):
    """Random (query, doc) codes, in any order, the queries as int8 (as a small categorical's)."""
    if distinct:
        keys = rng.choice(n_queries * n_docs, size=n_rows, replace=False)
    else:
        keys = rng.integers(0, n_queries * n_docs, n_rows)
    return (keys // n_docs).astype(np.int8), keys % n_docs


def grouped(run, rng=None):
    """The rows with each query's together: queries in code order, or (``rng``) in a random
    order (as a run read as written, query "10" before "9")."""
    keys = run[0] if rng is None else rng.permutation(40)[run[0]]
    by_query = np.argsort(keys, kind="stable")
    return run[0][by_query], run[1][by_query]


@pytest.mark.parametrize("order", ["any", "by query", "together"])
def test_match_by_address_equals_a_dict_look_up(cells, order):
    rng = np.random.default_rng(1)
    run, qrels = pairs(rng, 3000, 40, 200), pairs(rng, 700, 40, 200)
    if order != "any":
        run = grouped(run, rng if order == "together" else None)
    position = {(int(q), int(d)): i for i, (q, d) in enumerate(zip(*qrels, strict=True))}
    expected = [position.get((int(q), int(d)), -1) for q, d in zip(*run, strict=True)]
    for qrels_distinct in (False, True):  # (True: the qrels' repeats not looked for)
        for run_distinct in (False, True):  # (True: the run's cells read, not written)
            found, run_twice, qrels_twice = addressing.match_by_address(
                run, qrels, 40, 200, qrels_distinct, run_distinct
            )
            assert found.tolist() == expected
            assert not run_twice and not qrels_twice


def test_match_by_address_tells_which_side_repeats_a_pair(cells):
    rng = np.random.default_rng(2)
    run, qrels = pairs(rng, 3000, 40, 200), pairs(rng, 700, 40, 200)
    twice = tuple(np.r_[codes, codes[1234:1235]] for codes in run)  # a pair again, at the end
    assert addressing.match_by_address(twice, qrels, 40, 200)[1:] == (True, False)
    assert addressing.match_by_address(twice, qrels, 40, 200, qrels_distinct=True)[1]
    together = grouped(twice, rng)  # queries together, not in code order
    assert addressing.match_by_address(together, qrels, 40, 200, qrels_distinct=True)[1]
    assert not addressing.match_by_address(grouped(run, rng), qrels, 40, 200)[1]
    twice = tuple(np.r_[codes[:1], codes] for codes in qrels)
    assert addressing.match_by_address(run, twice, 40, 200)[1:] == (False, True)
    assert addressing.match_by_address(run, twice, 40, 200, run_distinct=True)[1:] == (False, True)


@pytest.mark.parametrize("seed", range(4))
def test_repeated_by_address_equals_a_set(cells, seed):
    rng = np.random.default_rng(seed)
    query, doc = pairs(rng, 150, 30, 40, distinct=seed % 2 == 0)
    as_pairs = list(zip(query.tolist(), doc.tolist(), strict=True))
    assert addressing.repeated_by_address(query, doc, 30, 40) == (len(set(as_pairs)) < 150)
    together = np.argsort(rng.permutation(30)[query], kind="stable")  # not in code order
    assert addressing.repeated_by_address(query[together], doc[together], 30, 40) == (
        len(set(as_pairs)) < 150
    )


def test_addressing_only_where_the_table_holds_a_query_and_blocks_are_full():
    assert addressing.addressable(1_000_000, 1000, 100_000)
    assert addressing.addressable(1_000_000, 1000, 650_000)  # (3 queries a block: 334 blocks)
    assert addressing._per_block(650_000) == 3 and addressing._per_block(100_000) == 10
    assert not addressing.addressable(1_000_000, 1000, addressing.TABLE_CELLS + 1)
    assert not addressing.addressable(1000, 1000, 100_000)  # a block per query: 1 row each
