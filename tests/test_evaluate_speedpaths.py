"""The faster paths of ``evaluate`` added for issue 14, each against an independent computation:
ids packed from arrow's buffers (exact for ids up to 8 bytes), the run's duplicate check done
by the judgments' look-up, nDCG@k summed over the rows within the cut-off only, tied scores
ranked by hashing, unsorted rows ranked on packed integers, and ``Measure.param`` (formerly
``cutoff``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import coursekit as ck
from coursekit.engine import byteorder, packed_codes
from coursekit.engine import codes as codes_module
from coursekit.engine import order as order_module
from coursekit.engine.order import string_ranks, trec_order, untied_order
from coursekit.registry import PARAM_KINDS, parse_measure


def factorized(ids: list[str]) -> tuple[list[int], list[str]]:
    codes, uniques = pd.factorize(np.array(ids, dtype=object))
    return codes.tolist(), list(uniques)


# an 8-byte id whose last byte is below 8 packs like a shorter id with that length: the packing
# must notice and fall back to the checked mixing
COLLIDING = ["abcdefg", "abcdefg\x07", "abc", "abc\x00\x00\x00\x00\x03", "", "\x00" * 8, "z"]


@pytest.mark.parametrize(
    "ids",
    [
        COLLIDING,
        ["doc1", "doc22", "doc333", "doc4444", "doc55555", "doc1", "doc22"],
        # at most 8 bytes, none ending below 8: exact keys, the ids read back from them
        ["", "\x00", "a\x00", "é", "日本", "abcdefgh", "ÿÿÿÿ", "a", "a\x00", "\x00"],
        ["é", "日本", "日本語", "e\u0301", "é", "a" * 8, "a" * 7],
        ["x" * 9, "x" * 16, "x" * 24, "x" * 31, "x" * 32, "x" * 9, "y" * 24],
    ],
)
@pytest.mark.parametrize("kind", [pa.string(), pa.large_string()])
def test_packed_codes_equal_factorize(ids, kind):
    rng = np.random.default_rng(len(ids))
    sample = list(rng.choice(np.array(ids, dtype=object), size=300)) + ids
    packed = packed_codes(pa.array(sample, kind))
    assert packed is not None
    codes, distinct = packed
    expected, uniques = factorized(sample)
    assert codes.tolist() == expected
    assert distinct.to_pylist() == uniques


def test_packed_codes_of_a_slice():
    """An arrow array that starts inside its buffers (a slice) is read from its own offset."""
    ids = [f"d{i % 7}" for i in range(50)]
    sliced = pa.array(["zzzzzzzzzz"] * 5 + ids + ["yy"] * 3, pa.string()).slice(5, 50)
    codes, distinct = packed_codes(sliced)
    assert codes.tolist() == factorized(ids)[0]
    assert distinct.to_pylist() == factorized(ids)[1]


@pytest.mark.parametrize("longest", [5, 8, 13, 32])
@pytest.mark.parametrize("sliced", [False, True])
@pytest.mark.parametrize("kind", ["string", "large_string", "in chunks"])
def test_words_are_each_ids_bytes_zero_padded(longest, sliced, kind, monkeypatch):
    """The words of the ids, by hand: each id's UTF-8 bytes, zero-padded to
    the width, as little-endian integers (ids with NUL bytes, multi-byte characters and the
    empty id among them; from a slice, from the slice's own offset on; 64-bit offsets; read
    64 rows at a time)."""
    if kind == "in chunks":
        monkeypatch.setattr(codes_module, "_CHUNK", 64)
    arrow_type = pa.large_string() if kind == "large_string" else pa.string()
    rng = np.random.default_rng(longest)
    alphabet = list("abcxyz09\x00") + ["é", "日"]
    ids = ["".join(rng.choice(alphabet, size=int(rng.integers(0, longest // 3 + 1)))) for _ in
           range(400)] + ["q" * longest, ""]  # fmt: skip
    array = pa.array(ids, arrow_type)
    if sliced:
        array = pa.array(["w" * 40] * 7 + ids + ["v" * 40] * 2, arrow_type).slice(7, len(ids))
    size = codes_module._sizes(array)
    width = max(8, -(-int(size.max()) // 8) * 8)
    words = [np.empty(len(ids), dtype=np.uint64) for _ in range(width // 8)]
    assert codes_module._words(array, words)
    for i, doc_id in enumerate(ids):
        padded = doc_id.encode("utf-8").ljust(width, b"\x00")
        expected = [int.from_bytes(padded[8 * c : 8 * c + 8], "little") for c in range(len(words))]
        assert [int(w[i]) for w in words] == expected, doc_id


def test_words_refused_when_arrow_pads_to_another_length(monkeypatch):
    """The words are taken as padded ids end to end only if every padded id is the width
    long. Were arrow to pad by characters (``utf8_rpad``), a multi-byte id would come out
    longer: the ids are then "not packed" and evaluate takes its string path, same values."""
    import pyarrow.compute as pc

    run = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["é", "b", "c"], "score": [3.0, 2, 1]})
    qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["c", "é"], "relevance": [1, 1]})
    expected = ck.evaluate(run, qrels, ["AP", "nDCG@10"]).table()
    array = pa.array(["é", "b"], pa.string())
    assert codes_module._words(array, [np.empty(2, dtype=np.uint64)])
    monkeypatch.setattr(pc, "ascii_rpad", pc.utf8_rpad)
    assert not codes_module._words(array, [np.empty(2, dtype=np.uint64)])
    assert codes_module.id_words([array]) is None
    assert packed_codes(array) is None and byteorder.sorted_codes([array]) is None
    assert codes_module._words(pa.array(["a", "b"]), [np.empty(2, dtype=np.uint64)])
    for dtype in (object, "string[pyarrow]", "category"):
        cast = {"query_id": dtype, "doc_id": dtype}
        result = ck.evaluate(run.astype(cast), qrels.astype(cast), ["AP", "nDCG@10"]).table()
        pd.testing.assert_frame_equal(result, expected)
    assert expected.loc["q", "AP"] == pytest.approx((1 / 1 + 2 / 3) / 2)  # é at 1, c at 3


def test_ids_over_32_bytes_are_not_packed():
    assert packed_codes(pa.array(["é" * 17, "a"], pa.string())) is None  # 34 bytes


def test_colliding_ids_evaluate_as_distinct_documents():
    # as pytrec_eval: d1 "abcdefg" (relevant) at rank 2, so AP = 1/2
    run = pd.DataFrame(
        {"query_id": ["q"] * 2, "doc_id": ["abcdefg\x07", "abcdefg"], "score": [2.0, 1.0]}
    )
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["abcdefg"], "relevance": [1]})
    for dtype in (object, "string[pyarrow]"):
        cast = {"query_id": dtype, "doc_id": dtype}
        result = ck.evaluate(run.astype(cast), qrels.astype(cast), ["AP"])
        assert result.mean["AP"] == 0.5


@pytest.mark.parametrize("evaluated", [True, False])
def test_run_duplicates_are_refused_in_any_query(evaluated):
    """The check is done with the judgments' look-up for the evaluated queries, and again on
    every row when some query of the run is not evaluated."""
    run = pd.DataFrame(
        {
            "query_id": ["q1", "q1", "q2", "q2", "q2"],
            "doc_id": ["a", "b", "a", "c", "a"],
            "score": [3.0, 2.0, 3.0, 2.0, 1.0],
        }
    )
    judged = ["q1", "q2"] if evaluated else ["q1"]
    qrels = pd.DataFrame({"query_id": judged, "doc_id": ["a"] * len(judged), "relevance": 1})
    with pytest.raises(ValueError, match=r"run row 4: document 'a' is retrieved twice for query"):
        ck.evaluate(run, qrels, ["AP"])
    nested = {"q1": {"a": 3.0}, "q2": {"a": 3.0}}
    assert ck.evaluate(nested, qrels, ["AP"]).mean["AP"] == 1.0  # a dict cannot repeat


def dcg_by_hand(gains: list[float], k: int, variant: str) -> float:
    """DCG@k: gain / log2(rank + 1), the gain being the grade (trec_eval) or 2^grade - 1
    (Burges et al., "Learning to rank using gradient descent", 2005)."""
    total = 0.0
    for rank, gain in enumerate(gains[:k], start=1):
        g = 2.0**gain - 1.0 if variant == "burges" else gain
        total += g / np.log2(rank + 1)
    return total


@pytest.mark.parametrize("variant", ["trec", "burges"])
@pytest.mark.parametrize("k", [1, 3, 50])
def test_ndcg_at_k_by_hand(variant, k):
    """Grades 3, 2, 1, 0, -1 and unjudged; k deeper than the ranking too. A negative grade
    gains as 0 (trec_eval's rule, in every variant)."""
    run = {"q": {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0, "e": 1.0}}
    qrels = {"q": {"a": 0, "b": 3, "d": -1, "f": 2, "g": 1}}
    gains = [0, 3, 0, -1, 0]  # c and e unjudged
    ideal = [3, 2, 1, 0, -1]
    gains, ideal = [max(g, 0) for g in gains], [max(g, 0) for g in ideal]
    expected = dcg_by_hand(gains, k, variant) / dcg_by_hand(ideal, k, variant)
    result = ck.evaluate(run, qrels, [f"nDCG@{k}"], ndcg_variant=variant)
    assert result.mean[f"nDCG@{k}"] == pytest.approx(expected, rel=1e-12)


def test_ndcg_agrees_with_trec_eval_with_negative_grades():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(5)
    docs = [f"d{i}" for i in range(60)]
    run = {f"q{q}": {d: float(rng.normal()) for d in docs[:40]} for q in range(8)}
    qrels = {f"q{q}": {d: int(rng.integers(-2, 4)) for d in docs[10:55]} for q in range(8)}
    got = ck.evaluate(run, qrels, ["nDCG@10", "nDCG"]).table()
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10", "ndcg"}).evaluate(run)
    for q, values in reference.items():
        assert got.loc[q, "nDCG@10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)
        assert got.loc[q, "nDCG"] == pytest.approx(values["ndcg"], abs=1e-12)


def test_tied_scores_with_signed_zeros_sort_by_hand():
    """Few distinct scores (so they are hashed, not sorted), 0.0 and -0.0 among them: equal,
    as trec_eval compares them, so tied and ordered by doc id descending."""
    rng = np.random.default_rng(2)
    ids = np.array([f"d{i}" for i in range(50)], dtype=object)
    query = np.repeat(np.arange(4), 50)
    doc = np.tile(np.arange(50), 4)
    scores = rng.choice(np.array([-0.0, 0.0, 1.5, -2.0]), size=200)
    perm = rng.permutation(200)
    query, doc, scores = query[perm], doc[perm], scores[perm]
    order = trec_order(query, scores, lambda: string_ranks(ids), doc)
    by_hand = sorted(
        range(200), key=lambda i: (query[i], -scores[i], [-ord(c) for c in ids[doc[i]]] + [1])
    )
    assert order.tolist() == by_hand


@pytest.mark.parametrize(
    "layout", ["ranked", "ranked with ties", "grouped", "shuffled", "few scores", "heavy ties"]
)
def test_the_queries_in_trec_order_are_the_queries_of_the_ordered_rows(layout):
    """``trec_order_and_queries`` finds ``query[order]`` without gathering it: compared with
    the gather, for rows already ranked (queries in any order), grouped or not, with ties, with
    few distinct scores, above and below the rows that counting needs."""
    for n_rows in (300, 3 * order_module.MIN_ROWS):
        rng = np.random.default_rng(n_rows)
        n_docs = n_rows // 6
        ids = np.array([f"d{i}" for i in range(n_docs)], dtype=object)
        query = np.repeat(rng.permutation(6), n_docs)  # (queries not in code order)
        doc = np.concatenate([rng.permutation(n_docs) for _ in range(6)])
        scores = rng.normal(size=n_rows)
        if layout in ("few scores", "heavy ties", "ranked with ties"):
            scores = rng.choice(np.array([0.5, -0.0, 0.0, 2.0]), size=n_rows)
        if layout.startswith("ranked"):
            by_score = np.lexsort((-scores, np.repeat(np.arange(6), n_docs)))
            doc, scores = doc[by_score], scores[by_score]
        elif layout in ("shuffled", "heavy ties"):
            perm = rng.permutation(n_rows)
            query, doc, scores = query[perm], doc[perm], scores[perm]
        order, queries = order_module.trec_order_and_queries(
            query, scores, lambda ids=ids: string_ranks(ids), doc
        )
        assert queries.tolist() == query[order].tolist()
        assert sorted(order.tolist()) == list(range(n_rows))


def close_scores(rng: np.random.Generator, n: int) -> np.ndarray:
    """Scores that differ only in their last bits (they share their leading bits, so the
    packed sort must finish on the whole scores), with signed zeros, negatives and extremes."""
    base = rng.choice(np.array([1.0, -3.5, 0.0, 2.0**-1000, -(2.0**900)]), size=n)
    close = base + base * rng.integers(-40, 40, size=n) * 2.0**-50
    return np.where(rng.random(n) < 0.1, rng.choice(np.array([0.0, -0.0, 7.25]), size=n), close)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("query_scale", [1, 2**40])  # huge codes: too few bits, an argsort
def test_rows_by_query_then_score_sort_by_hand(seed, query_scale):
    rng = np.random.default_rng(seed)
    n = 400
    query = rng.integers(0, 7, size=n) * query_scale
    scores = close_scores(rng, n)
    order, tied = order_module._by_query_then_score(query, scores)
    assert sorted(order.tolist()) == list(range(n))
    by_hand = sorted(range(n), key=lambda i: (query[i], -scores[i]))
    # tied rows may come in any order: compare the (query, score) sequence
    expected = [(query[i], scores[i]) for i in by_hand]
    assert [(query[i], scores[i]) for i in order] == expected
    assert tied.tolist() == [a == b for a, b in zip(expected[:-1], expected[1:], strict=True)]
    assert tied.any()  # (ties among them: 0.0, -0.0 and 7.25 repeat)


def test_untied_order_only_when_no_query_has_two_equal_scores():
    rng = np.random.default_rng(4)
    query = np.repeat(np.arange(50), 40)
    scores = np.tile(rng.permutation(40) + rng.random(40) * 1e-9, 50)  # equal across queries
    perm = rng.permutation(query.size)
    query, scores = query[perm], scores[perm]
    order = untied_order(query, scores)
    by_hand = sorted(range(query.size), key=lambda i: (query[i], -scores[i]))
    assert order is not None and order.tolist() == by_hand
    scores[np.flatnonzero(query == 7)[:2]] = 0.5  # two rows of query 7 tie
    assert untied_order(query, scores) is None
    zeros = np.array([0.0, -0.0, 1.0])  # 0.0 and -0.0 are equal scores: a tie
    assert untied_order(np.zeros(3, dtype=np.int64), zeros) is None
    # scores such as -rank: equal across queries, never within one
    query, scores = np.repeat(np.arange(50), 40)[perm], np.tile(-np.arange(40.0), 50)[perm]
    order = untied_order(query, scores)
    assert order is not None
    assert order.tolist() == sorted(range(query.size), key=lambda i: (query[i], -scores[i]))


def test_measure_param_and_its_kind():
    expected = {
        "P@10": (10, "k"),
        "nDCG@5": (5, "k"),
        "ERR@20": (20, "k"),
        "PRES@100": (100, "n_max"),
        "MOR@50": (50, "n_max"),
        "IPrec@0.3": (0.3, "level"),
        "RBP(p=0.95)": (0.95, "p"),
        "RBP": (0.8, "p"),
        "AP": (None, None),
        "nDCG": (None, None),
    }
    for name, (param, kind) in expected.items():
        measure = parse_measure(name)
        assert (measure.param, measure.param_kind) == (param, kind), name
        assert measure.cutoff == param  # the former name, read-only
        assert kind is None or kind in PARAM_KINDS
    with pytest.raises(AttributeError):
        parse_measure("P@10").cutoff = 5  # type: ignore[misc]
