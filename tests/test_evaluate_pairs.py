"""The judgments' look-up by hashed (query, doc id) pairs (:mod:`coursekit.evaluation.pairs`):
the grade it finds for each retrieved document against a Python dict of the qrels, with hashes
cut short so that different pairs share them; and when it hands over to the numbered path."""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest
from pairs_support import by_hand, expected_grades, ranked_run_and_qrels, shuffled

import coursekit as ck
from coursekit.evaluation import pairs
from coursekit.evaluation.encode import Task, evaluated_queries, halves

evaluate_module = importlib.import_module("coursekit.evaluation.matchers")  # not the function


def matched(match, run_half, qrels_half, missing_as_zero=False, precision="float64"):
    """``match(run, qrels, task)`` (a matcher) and the evaluated queries, or None."""
    queries = evaluated_queries(run_half.queries, qrels_half.queries, missing_as_zero)
    ranked = match(run_half, qrels_half, Task(queries, missing_as_zero, precision, False))
    return None if ranked is None else (ranked, queries)


@pytest.fixture(autouse=True)
def many_doc_ids(monkeypatch):
    """The test runs' 300 or so doc ids count as many (the hashed look-up's case), as a
    collection's millions do at full size."""
    monkeypatch.setattr(pairs, "FEW_DOC_IDS", 100)


def shared_hashes(run_half, qrels_half, queries: list[str], bits: int) -> int:
    """How many rows share their ``bits``-bit hash with a row of another pair."""
    index = pd.Index(queries)
    codes = [index.get_indexer(h.queries)[h.query] for h in (run_half, qrels_half)]
    ids = pairs._Ids.of(run_half, qrels_half, *codes, len(queries))
    full = np.r_[ids.hashes(0), ids.hashes(1)]
    short = full >> np.uint64(64 - bits)
    return len(full) - len(np.unique(short)) - (len(full) - len(np.unique(full)))


@pytest.mark.parametrize("look_up", ["sorted", "hashed"])
@pytest.mark.parametrize("ids", ["plain", "categorical"])
@pytest.mark.parametrize("hash_bits", [16, 62])
def test_hashed_look_up_finds_every_grade_even_when_pairs_share_hashes(
    look_up, ids, hash_bits, monkeypatch
):
    """With 16 hash bits (65,536 values for about 400 rows) some different pairs share a
    hash: every match is checked on the ids, so the grades are still those of a dict look-up;
    when the look-up cannot tell pairs apart (by one sort: three rows share a hash; by hash
    tables: two rows of one side do) the path hands over (None) rather than guess."""
    monkeypatch.setattr(pairs, "_MAX_HASH_BITS", hash_bits)
    monkeypatch.setattr(pairs, "_look_up", getattr(pairs, f"_look_up_{look_up}"))
    answered = shared = 0
    for seed in range(16):
        run, qrels = ranked_run_and_qrels(seed, n_queries=6)
        run = shuffled(run, seed)
        if ids == "categorical":
            run = run.astype({"query_id": "category", "doc_id": "category"})
            qrels = qrels.astype({"query_id": "category", "doc_id": "category"})
        for missing_as_zero in (False, True):
            run_half, qrels_half = halves(run, qrels)
            result = matched(
                pairs.hashed_rankings, run_half, qrels_half, missing_as_zero, "float64"
            )
            if result is None:
                assert hash_bits < 62  # only short hashes make rows share one
                continue
            answered += 1
            rankings, queries = result
            shared += shared_hashes(run_half, qrels_half, queries, hash_bits)
            expected = expected_grades(by_hand(run), qrels.astype(str), queries)
            assert rankings.grade.tolist() == expected
            assert rankings.n_queries == len(queries)
    assert answered >= (16 if look_up == "sorted" else 8)
    assert shared >= (3 if hash_bits < 62 else 0)  # the checks were put to work


def test_short_hashes_give_the_numbered_paths_numbers(monkeypatch):
    monkeypatch.setattr(pairs, "_MAX_HASH_BITS", 10)
    measures = ["AP", "P@5", "nDCG@10", "RR", "NumRelRet", "R@20"]
    for seed in range(6):
        run, qrels = ranked_run_and_qrels(seed, n_queries=5)
        run = shuffled(run, seed)
        fast = ck.evaluate(run, qrels, measures).table()
        reference = ck.evaluate(run, qrels, measures, fast=False).table()
        pd.testing.assert_frame_equal(fast, reference, check_exact=False, rtol=0, atol=1e-12)


def test_which_runs_are_looked_up_by_hash_in_dicts_or_numbered(monkeypatch):
    """A run with many distinct doc ids and no ties is looked up by hash, in trec_eval's order
    or not; nested dicts in the dicts; the numbered path (``sides``) runs for few doc ids
    (numbered, then looked up by direct addressing: faster), ties to break by doc id, a
    measure that needs doc codes."""
    calls = []
    numbered = evaluate_module.sides

    def counted(*args):
        calls.append(1)
        return numbered(*args)

    monkeypatch.setattr(evaluate_module, "sides", counted)
    run, qrels = ranked_run_and_qrels(0)
    as_dicts = (ck.run_to_dict(run), ck.qrels_to_dict(qrels))
    ck.evaluate(shuffled(run, 0), qrels, ["AP"])
    ck.evaluate(run, qrels, ["AP"])
    ck.evaluate(*as_dicts, ["AP", "nDCG@10"])
    assert calls == []
    tied = run.assign(score=run["score"].round(0))
    ck.evaluate(tied, qrels, ["AP"])
    ck.evaluate(shuffled(run, 0), qrels, ["Bpref"])
    monkeypatch.setattr(pairs, "FEW_DOC_IDS", 10_000)
    ck.evaluate(shuffled(run, 0), qrels, ["AP"])
    assert calls == [1, 1, 1]


def test_few_doc_ids_counted_or_estimated(monkeypatch):
    """Categories are counted; strings are counted for a few rows, else estimated from a
    sample: compared with the true number of distinct ids, drawn at random, either side of
    the threshold by a factor of two."""
    monkeypatch.setattr(pairs, "FEW_DOC_IDS", 5_000)
    rng = np.random.default_rng(8)
    for n_rows, n_ids in ((20_000, 2_500), (20_000, 10_000), (200_000, 2_500), (200_000, 10_000)):
        ids = np.array([f"doc{i}" for i in rng.integers(0, n_ids, n_rows)], dtype=object)
        distinct = len(set(ids.tolist()))
        for frame in (
            pd.DataFrame({"query_id": "q", "doc_id": ids, "score": 1.0}),
            pd.DataFrame({"query_id": "q", "doc_id": pd.Categorical(ids), "score": 1.0}),
        ):
            run_half = halves(
                frame, pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "relevance": [1]})
            )[0]
            assert pairs.few_doc_ids(run_half) == (distinct <= 5_000), (n_rows, n_ids)


@pytest.mark.parametrize("rows_given", ["shuffled", "in trec_eval's order"])
@pytest.mark.parametrize("form", ["frame", "dicts"])
def test_a_run_without_ties_is_ranked_and_looked_up_by_hash(form, rows_given, monkeypatch):
    """No two scores of a query equal, rows shuffled or already ranked: ranked on query and
    score alone, the judgments looked up by hash (``sides`` never called), each query's grades
    in rank order as sorting the run by hand gives them, and the measures those of the
    numbered path."""
    calls = []
    monkeypatch.setattr(evaluate_module, "sides", lambda *args: calls.append(1))
    measures = ["AP", "P@5", "nDCG@10", "RR", "R@20"]
    for seed in range(4):
        run, qrels = ranked_run_and_qrels(seed)
        rows = shuffled(run, seed) if rows_given == "shuffled" else run
        given = rows if form == "frame" else _dicts_as_listed(rows)
        qrels_given = qrels if form == "frame" else ck.qrels_to_dict(qrels)
        result = matched(pairs.hashed_rankings, *halves(given, qrels_given), False)
        assert result is not None
        rankings, queries = result
        # shuffled rows come query by query in code order; ranked rows stay as they are
        ranked = by_hand(rows) if rows_given == "shuffled" else rows
        assert rankings.grade.tolist() == expected_grades(ranked, qrels, queries)
        kept = ranked[ranked["query_id"].isin(queries)]
        assert rankings.rank.tolist() == (kept.groupby("query_id").cumcount() + 1).tolist()
        fast = ck.evaluate(given, qrels_given, measures).table()
        monkeypatch.undo()
        reference = ck.evaluate(rows, qrels, measures, fast=False).table()
        monkeypatch.setattr(evaluate_module, "sides", lambda *args: calls.append(1))
        monkeypatch.setattr(pairs, "FEW_DOC_IDS", 100)  # (undone with the rest)
        pd.testing.assert_frame_equal(fast, reference, check_exact=False, rtol=0, atol=1e-12)
    assert calls == []


def _dicts_as_listed(rows: pd.DataFrame) -> dict:
    """{query: {doc: score}}, each query's docs in the order the rows list them."""
    nested: dict = {}
    for q, d, score in rows[["query_id", "doc_id", "score"]].itertuples(index=False):
        nested.setdefault(q, {})[d] = score
    return nested


def test_a_pair_repeated_in_a_query_not_evaluated_is_still_refused():
    run, qrels = ranked_run_and_qrels(3)
    extra = pd.DataFrame({"query_id": ["zz", "zz"], "doc_id": ["a", "a"], "score": [2.0, 1.0]})
    with pytest.raises(ValueError, match="document 'a' is retrieved twice for query 'zz'"):
        ck.evaluate(pd.concat([run, extra], ignore_index=True), qrels, ["AP"])
    judged_twice = pd.DataFrame({"query_id": ["zz", "zz"], "doc_id": ["b", "b"], "relevance": 1})
    with pytest.raises(ValueError, match="document 'b' is judged twice for query 'zz'"):
        ck.evaluate(run, pd.concat([qrels, judged_twice], ignore_index=True), ["AP"])


def test_doc_ids_given_as_few_categories_are_numbered_not_hashed(monkeypatch):
    """Categoricals with few categories: numbering them costs little, so the hashed look-up
    steps aside; the numbers are those of plain strings, looked up by hash."""
    run, qrels = ranked_run_and_qrels(3, n_queries=60, per_query=50)

    def categorical(frame):
        return frame.astype({"query_id": "category", "doc_id": "category"})

    assert matched(pairs.hashed_rankings, *halves(shuffled(run, 3), qrels), False) is not None
    monkeypatch.setattr(pairs, "FEW_DOC_IDS", run["doc_id"].nunique())
    assert (
        matched(
            pairs.hashed_rankings, *halves(categorical(run), categorical(qrels)), False, "float64"
        )
        is None
    )
    measures = ["AP", "nDCG@10", "P@5"]
    monkeypatch.undo()
    monkeypatch.setattr(pairs, "FEW_DOC_IDS", 100)
    pd.testing.assert_frame_equal(
        ck.evaluate(categorical(run), categorical(qrels), measures).table(),
        ck.evaluate(run, qrels, measures).table(),
    )
