"""Hash table or sort (:func:`coursekit.engine.use_hash_tables`, a rule on the number of keys
since 2026-11-27, no longer a timing of the machine), and the pairs of codes matched by direct
addressing (:func:`coursekit.engine.match_pairs`): each place that chooses gives, either way,
what a Python dict, a loop written here or the reference look-up gives."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pairs_support import ranked_run_and_qrels, shuffled

import coursekit as ck
from coursekit.engine import counting, matching
from coursekit.evaluation import pairs


def always(monkeypatch, module, hashing: bool) -> None:
    """Make ``module`` choose hash tables (or the sort) whatever the input's size."""
    monkeypatch.setattr(module, "use_hash_tables", lambda n_keys: hashing)


def test_hash_tables_for_mid_sized_arrays_only_whatever_the_machine():
    sizes = [1000, 2**18 - 1, 2**18, 10**6, 2**20, 2**20 + 1, 10**7]
    assert [matching.use_hash_tables(n) for n in sizes] == [
        False, False, True, True, True, False, False
    ]  # fmt: skip
    assert not hasattr(matching, "hashing_beats_sorting")  # (no timing of the machine)


@pytest.mark.parametrize("fits", [True, False])
def test_match_pairs_equals_a_dict_look_up_and_the_reference(fits, monkeypatch):
    if not fits:
        monkeypatch.setattr(matching, "addressable", lambda *sizes: False)
    rng = np.random.default_rng(5)
    n_docs = 100
    qrels_key = rng.choice(5000, size=800, replace=False)
    run_key = rng.choice(5000, size=3000, replace=False)

    def pairs_of(keys):
        return keys // n_docs, keys % n_docs

    position = {k: i for i, k in enumerate(qrels_key.tolist())}
    expected = [position.get(k, -1) for k in run_key.tolist()]
    reference = matching.reference_match(pairs_of(run_key), pairs_of(qrels_key), n_docs)
    assert reference.tolist() == expected
    matched = matching.match_pairs(pairs_of(run_key), pairs_of(qrels_key), n_docs)
    if not fits:
        assert matched is None  # the caller takes the reference
        return
    found, run_repeated, qrels_repeated = matched
    assert found.tolist() == expected
    assert not run_repeated and not qrels_repeated
    twice = pairs_of(np.r_[run_key, run_key[:1]])
    assert matching.match_pairs(twice, pairs_of(qrels_key), n_docs)[1]
    twice = pairs_of(np.r_[qrels_key, qrels_key[-1:]])
    assert matching.match_pairs(pairs_of(run_key), twice, n_docs)[2]


def test_reference_match_widens_32_bit_codes_before_pairing_them():
    """Codes come as 32-bit integers (arrow's); a pair, ``query * n_docs + doc``, may need
    more bits: computed in 32 bits, (2024, 5) and (1000, 5) would wrap to one key with
    2**22 docs (2024 - 1000 = 1024 = 2**32 / 2**22)."""
    n_docs = 2**22  # (too many for direct addressing)

    def codes(*pairs):
        query, doc = zip(*pairs, strict=True)
        return np.array(query, dtype=np.int32), np.array(doc, dtype=np.int32)

    run = codes((2024, 5), (1000, 7), (3, 5))
    qrels = codes((1000, 5), (3, 5), (1000, 7))
    assert matching.match_pairs(run, qrels, n_docs) is None
    assert matching.reference_match(run, qrels, n_docs).tolist() == [-1, 2, 1]


@pytest.mark.parametrize("hashing", [False, True])
def test_first_repeated_either_way_equals_a_loop(hashing, monkeypatch):
    always(monkeypatch, matching, hashing)
    rng = np.random.default_rng(6)
    for keys in (rng.choice(10_000, 500, replace=False), rng.integers(0, 2000, 500)):
        seen, expected = set(), None
        for i, k in enumerate(keys.tolist()):
            if k in seen:
                expected = i
                break
            seen.add(k)
        assert matching.first_repeated(keys) == expected


@pytest.mark.parametrize("hashing", [False, True])
def test_evaluate_either_way_gives_the_readable_paths_numbers(hashing, monkeypatch):
    always(monkeypatch, pairs, hashing)
    monkeypatch.setattr(pairs, "FEW_DOC_IDS", 100)  # (the runs' 300 doc ids: many)
    chosen = []
    for name in ("_look_up_hashed", "_look_up_sorted"):
        real = getattr(pairs, name)
        monkeypatch.setattr(
            pairs, name, lambda ids, real=real, name=name: (chosen.append(name), real(ids))[1]
        )
    measures = ["AP", "P@5", "nDCG@10", "RR", "R@20"]
    for seed in range(3):
        run, qrels = ranked_run_and_qrels(seed)
        run = shuffled(run, seed)  # (a ranked run is numbered)
        fast = ck.evaluate(run, qrels, measures).table()
        reference = ck.evaluate(run, qrels, measures, fast=False).table()
        pd.testing.assert_frame_equal(fast, reference, check_exact=False, rtol=0, atol=1e-12)
    assert set(chosen) == {"_look_up_hashed" if hashing else "_look_up_sorted"}


@pytest.mark.parametrize("hashing", [False, True])
def test_a_repeated_pair_is_refused_either_way(hashing, monkeypatch):
    for module in (pairs, matching):
        always(monkeypatch, module, hashing)
    run, qrels = ranked_run_and_qrels(3)
    twice = pd.concat([run, run.iloc[[5]]], ignore_index=True)
    doc, query = run["doc_id"].iloc[5], run["query_id"].iloc[5]
    with pytest.raises(
        ValueError, match=f"document '{doc}' is retrieved twice for query '{query}'"
    ):
        ck.evaluate(twice, qrels, ["AP"])
    judged_twice = pd.concat([qrels, qrels.iloc[[7]]], ignore_index=True)
    doc, query = qrels["doc_id"].iloc[7], qrels["query_id"].iloc[7]
    with pytest.raises(ValueError, match=f"document '{doc}' is judged twice for query '{query}'"):
        ck.evaluate(run, judged_twice, ["AP"])


@pytest.mark.parametrize("way", ["addressing", "counting", "sort"])
@pytest.mark.parametrize("rows", ["in any order", "by query", "in blocks of a query"])
def test_first_repeated_pair_every_way_equals_a_loop(way, rows, monkeypatch):
    if way != "addressing":
        monkeypatch.setattr(matching, "addressable", lambda *sizes: False)
    monkeypatch.setattr(counting, "MIN_ROWS", 1 if way == "counting" else 10**9)
    rng = np.random.default_rng(7)
    for n_pairs in (10_000, 600):  # all distinct (almost surely not with 600), then repeats
        query, doc = rng.integers(0, 20, 500), rng.integers(0, n_pairs // 20, 500)
        if n_pairs == 10_000:
            distinct = rng.choice(n_pairs, 500, replace=False)
            query, doc = distinct // 500, distinct % 500
        if rows != "in any order":  # each query's rows together (counted: by doc alone)
            by_query = np.argsort(query, kind="stable")
            query, doc = query[by_query], doc[by_query]
            if rows == "in blocks of a query":  # the blocks in another order than the codes
                query = rng.permutation(20)[query]
        seen, expected = set(), None
        for i, pair in enumerate(zip(query.tolist(), doc.tolist(), strict=True)):
            if pair in seen:
                expected = i
                break
            seen.add(pair)
        assert (expected is None) == (n_pairs == 10_000)
        assert matching.first_repeated_pair(query, doc, 500) == expected
