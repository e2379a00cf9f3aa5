"""Doc ids numbered in byte order (:mod:`coursekit.engine.byteorder`, issue 38's heavy ties at
a million ids): the codes against Python's own string order (``strcmp``'s for UTF-8), on ids
of 9 bytes and more, ids sharing their first 8 bytes, non-ASCII ids, NUL bytes, arrays that
are slices; and ``evaluate`` on tied scores that such ids break, against pytrec_eval."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import coursekit as ck
from coursekit.engine import byteorder
from coursekit.evaluation import encode, matchers
from coursekit.evaluation.ids import DocsLater

#: ids that 8-byte words tell apart only with their second word or their length
AWKWARD = [
    "doc12345", "doc123456", "doc123457", "doc1234567", "doc12345\x00", "doc1234",
    "doc12345é", "doc12345ü", "é", "ü" * 5, "日本語のid", "a" * 32, "a" * 31 + "b",
    "", "\x00", "z", "doc0", "doc9", "doc10", "doc100000", "doc99999",
]  # fmt: skip


def expected_codes(parts: list[list[str]]) -> tuple[list[list[int]], list[str]]:
    """The codes by a plain sort of the distinct ids (Python compares code points, which for
    UTF-8 is the bytes' order)."""
    distinct = sorted({x for part in parts for x in part})
    rank = {x: i for i, x in enumerate(distinct)}
    return [[rank[x] for x in part] for part in parts], distinct


def some_parts(seed: int, alphabet: list[str]) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    made = ["".join(rng.choice(alphabet, size=rng.integers(1, 12))) for _ in range(300)]
    ids = AWKWARD + made
    return [list(rng.choice(ids, size=n)) for n in (500, 120)]


@pytest.mark.parametrize("counted", [True, False], ids=["counted", "sorted 16 bits at a time"])
@pytest.mark.parametrize("seed", range(3))
def test_codes_in_byte_order_are_the_ranks_of_a_plain_sort(counted, seed, monkeypatch):
    if not counted:  # every key space too large to count: the sort by counting passes
        monkeypatch.setattr(byteorder, "_COUNTED", 1)
    alphabet = ["0", "1", "9", "é", "d", "\x00"] if seed else list("doc0123456789")
    parts = some_parts(seed, alphabet)
    codes, ids = byteorder.sorted_codes([pa.array(p) for p in parts])
    expected, distinct = expected_codes(parts)
    assert ids.to_pylist() == distinct
    assert [c.tolist() for c in codes] == expected
    # ``later``: the number of ids now, the ids when asked
    codes, (n, later) = byteorder.sorted_codes([pa.array(p) for p in parts], later=True)
    assert n == len(distinct) and later().to_pylist() == distinct
    assert [c.tolist() for c in codes] == expected


def test_codes_of_sliced_arrays_and_ids_over_32_bytes():
    """Arrays that are slices of others (their bytes start past the buffer's first) are
    numbered as copies would be; over 32 bytes, the hashed codes are renumbered in order."""
    whole = pa.array(["x\x00", "doc123456", "doc12345", "x", "doc12345\x00", "é"])
    parts = [whole.slice(1, 3), whole.slice(4)]
    codes, ids = byteorder.codes_in_byte_order(parts)
    expected, distinct = expected_codes([p.to_pylist() for p in parts])
    assert ids.to_pylist() == distinct and [c.tolist() for c in codes] == expected
    long = ["doc" + "9" * 40, "doc" + "9" * 39, "doc1"]
    codes, (n, later) = byteorder.codes_in_byte_order([pa.array(long)], later=True)
    expected, distinct = expected_codes([long])
    assert n == 3 and later().to_pylist() == distinct and codes[0].tolist() == expected[0]


def test_the_distinct_ids_are_taken_only_when_read():
    taken = []

    def ids():
        taken.append(True)
        return pa.array(["a", "b"])

    docs = DocsLater(2, ids)
    assert len(docs) == 2 and not taken
    assert docs[1] == "b" and docs.index.tolist() == ["a", "b"] and taken == [True]


def heavy_ties(seed: int, n_queries: int = 12, n_docs: int = 60):
    """A run whose scores tie within each query (one decimal), its doc ids the awkward ones
    and "doc" numbers (9 bytes and more), with qrels judging some retrieved and some not."""
    rng = np.random.default_rng(seed)
    pool = AWKWARD[:-1] + [f"doc{i}" for i in rng.choice(10**7, 400, replace=False)]
    rows, judged = [], []
    for q in range(n_queries):
        docs = rng.choice(pool, size=n_docs, replace=False)
        rows += [(f"q{q}", d, float(rng.integers(0, 4)) / 10) for d in docs]
        judged += [(f"q{q}", d, int(rng.integers(0, 3))) for d in docs[:20]]
        judged += [(f"q{q}", f"unretrieved{q}-{i}", 1) for i in range(3)]
    run = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    run = run.iloc[rng.permutation(len(run))].reset_index(drop=True)
    return run, pd.DataFrame(judged, columns=["query_id", "doc_id", "relevance"])


@pytest.mark.parametrize("form", ["object", "dicts", "categorical"])
@pytest.mark.parametrize("seed", range(3))
def test_heavy_ties_broken_in_byte_order_agree_with_pytrec_eval(form, seed, monkeypatch):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    monkeypatch.setattr(matchers, "BYTE_ORDER_DOC_IDS", 0)  # many ids: numbered in byte order
    numbered = []

    def spy(*args, **kwargs):
        numbered.append(True)
        return byteorder.codes_in_byte_order(*args, **kwargs)

    monkeypatch.setattr(encode, "codes_in_byte_order", spy)
    run, qrels = heavy_ties(seed)
    run_dict, qrels_dict = ck.run_to_dict(run), ck.qrels_to_dict(qrels)
    if form == "dicts":
        given = run_dict, qrels_dict
    else:
        kind = object if form == "object" else "category"
        ids = {"query_id": kind, "doc_id": kind}
        given = run.astype(ids), qrels.astype(ids)
    ours = ck.evaluate(*given, ["AP", "nDCG@10", "P@10", "RR"]).table()
    assert numbered  # (the path under test was taken)
    measures = {"map", "ndcg_cut_10", "P_10", "recip_rank"}
    theirs = pytrec_eval.RelevanceEvaluator(qrels_dict, measures).evaluate(run_dict)
    for query, values in theirs.items():
        for name, key in (("AP", "map"), ("nDCG@10", "ndcg_cut_10"), ("P@10", "P_10")):
            assert ours.loc[query, name] == pytest.approx(values[key], abs=1e-9), (query, name)
        assert ours.loc[query, "RR"] == pytest.approx(values["recip_rank"], abs=1e-9)


def test_a_repeated_pair_is_named_when_the_ids_are_taken_later(monkeypatch):
    """The error message reads the distinct ids (numbered in byte order, taken when read)."""
    monkeypatch.setattr(matchers, "BYTE_ORDER_DOC_IDS", 0)
    run, qrels = heavy_ties(0)
    twice = pd.concat([run, run.iloc[[5]]], ignore_index=True)
    with pytest.raises(ValueError, match=f"document '{run.doc_id[5]}' is retrieved twice"):
        ck.evaluate(twice.astype({"doc_id": object}), qrels, ["AP"])


@pytest.mark.parametrize("n_ids", [1_000, 60_000])
def test_ties_are_broken_in_byte_order_from_many_doc_ids_on(n_ids, monkeypatch):
    """Over :data:`matchers.BYTE_ORDER_DOC_IDS` distinct doc ids (estimated from a sample of
    the run's rows), the ids are numbered in byte order; below, hashed then ranked."""
    numbered = []

    def spy(*args, **kwargs):
        numbered.append(True)
        return byteorder.codes_in_byte_order(*args, **kwargs)

    monkeypatch.setattr(encode, "codes_in_byte_order", spy)
    rng = np.random.default_rng(3)
    n_rows = 60_000
    run = pd.DataFrame(
        {
            "query_id": np.repeat([f"q{i}" for i in range(60)], 1000),
            "doc_id": [f"doc{i}" for i in rng.permutation(n_rows) % n_ids],
            "score": rng.integers(0, 5, n_rows) / 10,
        }
    ).drop_duplicates(["query_id", "doc_id"])
    qrels = run.iloc[::7][["query_id", "doc_id"]].assign(relevance=1)
    run = run.iloc[rng.permutation(len(run))]
    ours = ck.evaluate(run, qrels, ["AP"]).table()
    assert bool(numbered) == (n_ids > matchers.BYTE_ORDER_DOC_IDS)
    reference = ck.evaluate(run, qrels, ["AP"], fast=False).table()
    assert np.allclose(ours.to_numpy(), reference.to_numpy(), atol=1e-12)
