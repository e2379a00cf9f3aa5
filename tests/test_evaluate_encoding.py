"""The fast integer paths of ``evaluate`` (ids packed into integers, pairs matched by one sort,
ties broken in one sort) against the plain ones they replace, on the ids that could trip them:
ids of exactly 8, 16, 32 bytes and longer, non-ASCII ids, ids that differ only by trailing NULs,
and inputs that must keep being refused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import coursekit as ck
from coursekit.engine import counting, packed_codes
from coursekit.engine.order import _by_query_then_score, string_ranks, trec_order

TRICKY = [
    "d1",
    "",
    "a",
    "a\x00",
    "a\x00\x00",
    "abcdefgh",
    "abcdefgh\x00",
    "abcdefghi",
    "x" * 16,
    "x" * 17,
    "y" * 32,
    "é",
    "éé",
    "日本語",
    "clueweb09-en0000-00-00000",
]


def factorized(ids: list[str]) -> tuple[np.ndarray, list[str]]:
    codes, uniques = pd.factorize(np.array(ids, dtype=object))
    return codes, list(uniques)


@pytest.mark.parametrize("seed", range(5))
def test_packed_codes_equal_factorize(seed):
    rng = np.random.default_rng(seed)
    ids = list(rng.choice(np.array(TRICKY, dtype=object), size=500))
    ascii_only = [i for i in ids if i.isascii() and len(i) <= 32]
    for sample in (ids, ascii_only):
        packed = packed_codes(pa.array(sample, pa.string()))
        if packed is None:  # non-ASCII wider than the padding, or too long: strings hashed
            assert any(not i.isascii() for i in sample) or any(len(i) > 32 for i in sample)
            continue
        codes, distinct = packed
        expected, uniques = factorized(sample)
        assert codes.tolist() == expected.tolist()
        assert distinct.to_pylist() == list(uniques)
    assert packed_codes(pa.array(ascii_only, pa.string())) is not None


def test_packed_codes_refuse_long_ids_and_nulls():
    assert packed_codes(pa.array(["z" * 33, "a"], pa.string())) is None
    assert packed_codes(pa.array(["a", None], pa.string())) is None
    assert packed_codes(pa.array([], pa.string())) is None


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n_scores", [3, 1000])
@pytest.mark.parametrize("counted", [False, True])  # rows ordered by counting, or sorted
def test_trec_order_equals_sorting_by_hand(seed, n_scores, counted, monkeypatch):
    monkeypatch.setattr(counting, "MIN_ROWS", 1 if counted else 10**9)
    rng = np.random.default_rng(seed)
    ids = np.array(TRICKY + [f"d{i}" for i in range(40)], dtype=object)
    rows = [(q, d) for q in range(30) for d in rng.choice(len(ids), size=20, replace=False)]
    query = np.array([q for q, _ in rows])
    doc = np.array([d for _, d in rows])
    scores = rng.integers(0, n_scores, size=len(rows)) / 4 - 1
    perm = rng.permutation(len(rows))
    query, doc, scores = query[perm], doc[perm], scores[perm]
    order = trec_order(query, scores, lambda: string_ranks(ids), doc)
    by_hand = sorted(
        range(len(rows)),
        key=lambda i: (query[i], -scores[i], [-ord(c) for c in ids[doc[i]]] + [1]),
    )
    assert order.tolist() == by_hand


def test_tricky_ids_evaluate_alike_in_every_form():
    rng = np.random.default_rng(3)
    ids = [i for i in TRICKY if "\x00" not in i] + [f"doc{i}" for i in range(30)]
    run = {
        f"q{q}": {d: float(rng.integers(0, 4)) for d in rng.choice(ids, 25, replace=False)}
        for q in range(6)
    }
    qrels = {
        f"q{q}": {d: int(rng.integers(0, 3)) for d in rng.choice(ids, 15, replace=False)}
        for q in range(6)
    }
    measures = ["AP", "nDCG@10", "P@10", "Bpref"]
    expected = ck.evaluate(run, qrels, measures, fast=False).table()
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    qrows = [(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    qframe = pd.DataFrame(qrows, columns=["query_id", "doc_id", "relevance"])
    for dtype in (object, "string[pyarrow]", "category"):
        r = frame.astype({"query_id": dtype, "doc_id": dtype})
        q = qframe.astype({"query_id": dtype, "doc_id": dtype})
        pd.testing.assert_frame_equal(ck.evaluate(r, q, measures).table(), expected)
    pd.testing.assert_frame_equal(ck.evaluate(run, qrels, measures).table(), expected)
    pytrec_eval = pytest.importorskip("pytrec_eval")
    reference = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
    for q, values in reference.items():
        assert expected.loc[q, "AP"] == pytest.approx(values["map"], abs=1e-12)


def test_dict_values_are_still_checked():
    qrels = {"q": {"d": 1}}
    with pytest.raises(TypeError, match="must be a number"):
        ck.evaluate({"q": {"d": True}}, qrels, ["AP"])
    with pytest.raises(TypeError, match="must be a number"):
        ck.evaluate({"q": {"d": None, "e": 1.0}}, qrels, ["AP"])
    with pytest.raises(ValueError, match="not a finite number"):
        ck.evaluate({"q": {"d": float("nan")}}, qrels, ["AP"])
    # doc ids that are not strings are read as text, as pandas' astype(str) reads them
    assert ck.evaluate({"q": {7: 1.0}}, {"q": {"7": 1}}, ["AP"]).mean["AP"] == 1.0
    assert ck.evaluate({"q": {b"d": 1.0}}, {"q": {"d": 1}}, ["AP"]).mean["AP"] == 1.0
    assert ck.evaluate({"q": {"d": 2**70}}, qrels, ["AP"]).mean["AP"] == 1.0


def _forms(run: pd.DataFrame, value: str) -> dict[str, object]:
    """One run (or qrels) in the forms evaluate takes: a nested dict of the objects given, a
    DataFrame of them (object columns), and the same with categorical ids."""
    nested: dict = {}
    for q, d, v in zip(run["query_id"], run["doc_id"], run[value], strict=True):
        nested.setdefault(q, {})[d] = v
    return {
        "dict": nested,
        "object": run,
        "categorical": run.astype({"query_id": "category", "doc_id": "category"}),
    }


def test_ids_that_are_not_strings_read_alike_in_every_form():
    """Bytes, ints and floats as ids: the same text whether the run is a dict, a DataFrame or
    categoricals (bytes decoded as UTF-8, as pandas' astype(str) does; numbers as str()), so
    the same numbers; undecodable bytes refused, naming the id, in every form."""
    ids = pd.Series([b"d1", 7, 2.5, "d4", b"q\xc3\xa9"], dtype=object)
    run = pd.DataFrame(
        {
            "query_id": pd.Series([b"q1"] * 3 + ["q2"] * 2, dtype=object),
            "doc_id": ids,
            "score": [5.0, 4.0, 3.0, 2.0, 1.0],
        }
    )
    # judged as text: what each id reads as, written by hand
    qrels = pd.DataFrame(
        {
            "query_id": ["q1", "q1", "q2", "q2"],
            "doc_id": ["7", "2.5", "d4", "qé"],
            "relevance": [1, 1, 0, 1],
        }
    )
    # q1: relevant at ranks 2 and 3 of 3, 2 relevant: AP = (1/2 + 2/3) / 2;
    # q2: relevant at rank 2 of 2, 1 relevant: AP = 1/2
    expected = {"q1": (1 / 2 + 2 / 3) / 2, "q2": 1 / 2}
    for form, given in _forms(run, "score").items():
        for qrels_form, judged in _forms(qrels, "relevance").items():
            table = ck.evaluate(given, judged, ["AP"]).table()
            assert table["AP"].to_dict() == pytest.approx(expected), (form, qrels_form)
    bad = run.assign(doc_id=pd.Series([b"d1", b"\xff", 2.5, "d4", "d5"], dtype=object))
    for given in _forms(bad, "score").values():
        with pytest.raises(ValueError, match=r"doc id b'\\xff' is bytes that are not UTF-8"):
            ck.evaluate(given, qrels, ["AP"])
    with pytest.raises(ValueError, match=r"run row 1: the doc id b'\\xff'"):
        ck.evaluate(bad, qrels, ["AP"])


def test_object_query_ids_in_blocks():
    run = pd.DataFrame(
        {"query_id": ["1"] * 5 + [1] * 5, "doc_id": list("abcde") * 2, "score": range(10)}
    )
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    with pytest.raises(ValueError, match="twice"):  # 1 and "1" are one query, as before
        ck.evaluate(run, qrels, ["AP"])
    run["query_id"] = ["1"] * 5 + ["2"] * 5
    assert ck.evaluate(run, qrels, ["AP"]).mean["AP"] == pytest.approx(0.2)


@pytest.mark.parametrize("dtype", [object, "string[pyarrow]", "category"])
def test_large_shuffled_frames_agree_with_trec_eval(dtype):
    """Over 8192 rows: few distinct query ids (hashed as they are) and many doc ids (packed)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(11)
    pool = np.array([f"doc{i}" for i in range(3000)] + TRICKY[5:], dtype=object)
    rows, qrows = [], []
    for q in range(20):
        docs = rng.choice(pool, size=700, replace=False)
        scores = np.round(rng.normal(size=700), 1)  # ties
        rows += [(str(q), d, s) for d, s in zip(docs, scores, strict=True)]
        judged = rng.choice(docs, size=150, replace=False)
        qrows += [(str(q), d, int(rng.integers(-1, 3))) for d in judged]
    order = rng.permutation(len(rows))
    frame = pd.DataFrame([rows[i] for i in order], columns=["query_id", "doc_id", "score"])
    qframe = pd.DataFrame(qrows, columns=["query_id", "doc_id", "relevance"])
    run, qrels = {}, {}
    for q, d, s in rows:
        run.setdefault(q, {})[d] = s
    for q, d, g in qrows:
        qrels.setdefault(q, {})[d] = g
    cast = {"query_id": dtype, "doc_id": dtype}
    measures = ["AP", "nDCG@10", "P@10", "Bpref", "infAP"]
    got = ck.evaluate(frame.astype(cast), qframe.astype(cast), measures).table()
    reference = pytrec_eval.RelevanceEvaluator(
        qrels, {"map", "ndcg_cut_10", "P_10", "bpref", "infAP"}
    ).evaluate(run)
    names = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10", "Bpref": "bpref"}
    names["infAP"] = "infAP"
    for q, values in reference.items():
        for ours, theirs in names.items():
            assert got.loc[q, ours] == pytest.approx(values[theirs], abs=1e-12), (q, ours)


@pytest.mark.parametrize("shared", [True, False], ids=["shared objects", "one object a row"])
def test_object_query_blocks_equal_factorize(shared):
    """Query ids in blocks: found by object address when the rows of a block share one object
    (as pandas 2's read_csv gives), by comparing strings when each row has its own; a string
    held by two objects (q1, in the first and the last block) is one query either way."""
    from coursekit.evaluation.ids import query_codes

    values = []
    for name in ["q1", "q2", "q10", "q1"]:
        fresh = lambda n=name: "".join([n[:1], n[1:]])  # noqa: E731 - a new object each call
        values += [fresh()] * 300 if shared else [fresh() for _ in range(300)]
    column = pd.Series(np.array(values, dtype=object), dtype=object)
    distinct_objects = len({id(v) for v in values})
    assert distinct_objects == (4 if shared else 1200)
    codes, ids = query_codes(column, "run", "query id", blocks=True)
    expected_codes, expected_ids = pd.factorize(np.array(values, dtype=object))
    assert codes.tolist() == expected_codes.tolist()
    assert list(ids) == list(expected_ids)


def test_query_ids_in_any_order_numbered_equal_factorize():
    """Python strings in any order (few distinct: pandas' hash table of strings, sized for
    them): ids first seen late, and a missing id, give what ``pd.factorize`` gives; ids that
    are not all strings (7 beside "7") are read as their strings, as everywhere."""
    from coursekit.evaluation import ids as ids_module

    rng = np.random.default_rng(9)
    values = [f"q{i}" for i in rng.integers(0, 50, 20_000)] + [f"late{i % 3}" for i in range(99)]
    values = list(np.array(values, dtype=object)[rng.permutation(len(values))])
    column = pd.Series(np.array(values, dtype=object), dtype=object)
    assert ids_module._object_few(column.to_numpy()) is not None  # (the path tested)
    codes, ids = ids_module.query_codes(column, "run", "query id")
    expected_codes, expected_ids = pd.factorize(np.array(values, dtype=object))
    assert codes.tolist() == expected_codes.tolist()
    assert list(ids) == list(expected_ids)
    values[15_432] = None
    with pytest.raises(ValueError, match="run row 15432: the query id is missing"):
        ids_module.query_codes(pd.Series(values, dtype=object), "run", "query id")
    values[15_432] = 7
    values[15_433] = "7"
    codes, ids = ids_module.query_codes(pd.Series(values, dtype=object), "run", "query id")
    assert codes[15_432] == codes[15_433] and ids[codes[15_432]] == "7"
    assert codes[15_434] == list(ids).index(values[15_434])


def test_query_ids_in_any_order_with_a_lone_surrogate_named():
    """A lone surrogate (no UTF-8 for it) among Python strings in any order, taken by pandas'
    hash table of strings: the id is named, whichever row it is on, however often asked."""
    from coursekit.evaluation import ids as ids_module

    rng = np.random.default_rng(1)
    values = [f"q{i}" for i in rng.integers(0, 50, 20_000)]
    values[700] = "bad\ud800"
    column = pd.Series(np.array(values, dtype=object), dtype=object)
    for _ in range(3):
        with pytest.raises(ValueError, match=r"the id 'bad\\ud800' is not valid text"):
            ids_module.query_codes(column, "run", "query id")


@pytest.mark.parametrize("spread", [64, 2**40], ids=["near one another", "far apart"])
def test_rows_grouped_by_object_address_equal_numpys_unique(spread):
    """Objects allocated near one another are found by marking their addresses, objects far
    apart by a sort: either way, what ``np.unique`` says."""
    from coursekit.evaluation.ids import _objects_in_address_order

    rng = np.random.default_rng(8)
    objects = 2**32 + 16 * rng.choice(spread, size=50, replace=False)  # 16-byte aligned
    addresses = objects[rng.integers(0, 50, 5000)]
    first, rows = _objects_in_address_order(addresses.copy())
    distinct, expected_rows = np.unique(addresses, return_inverse=True)
    assert addresses[first].tolist() == distinct.tolist()
    assert rows.tolist() == expected_rows.tolist()


def test_shared_doc_id_objects_agree_with_trec_eval():
    """Doc ids whose rows share their string objects (as pandas 2's read_csv gives; over 32k
    rows, so that each object is converted once): the same numbers as pytrec_eval, a string
    held by two objects is one document, and a missing id is still named by its row."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(5)
    pool = np.array([f"doc{i}" for i in range(2000)], dtype=object)  # one object each
    twin = "".join(["doc", "7"])  # "doc7" again, another object
    rows, qrows = [], []
    for q in range(40):
        docs = list(pool[rng.choice(len(pool), size=900, replace=False)])
        docs = [twin if d == "doc7" and q % 2 else d for d in docs]
        scores = rng.normal(size=900)
        rows += [(str(q), d, float(s)) for d, s in zip(docs, scores, strict=True)]
        qrows += [
            (str(q), d, int(g)) for d, g in zip(docs[:60], rng.integers(0, 3, 60), strict=True)
        ]
        qrows.append((str(q), "doc7", 2))  # judged whether retrieved or not
    qrows = list({(q, d): (q, d, g) for q, d, g in qrows}.values())
    run = pd.DataFrame(
        {
            "query_id": pd.Series([q for q, _, _ in rows], dtype=object),
            "doc_id": pd.Series([d for _, d, _ in rows], dtype=object),  # the same objects
            "score": [s for _, _, s in rows],
        }
    )
    qrels = pd.DataFrame(qrows, columns=["query_id", "doc_id", "relevance"])
    assert run["doc_id"].dtype == object and len(run) > 32768
    assert len({id(d) for d in run["doc_id"]}) <= 2001  # shared objects
    result = ck.evaluate(run, qrels, ["AP", "nDCG@10"]).table()
    run_dict, qrels_dict = {}, {}
    for q, d, s in rows:
        run_dict.setdefault(q, {})[d] = s
    for q, d, g in qrows:
        qrels_dict.setdefault(q, {})[d] = g
    reference = pytrec_eval.RelevanceEvaluator(qrels_dict, {"map", "ndcg_cut_10"}).evaluate(
        run_dict
    )
    for q, values in reference.items():
        assert result.loc[q, "AP"] == pytest.approx(values["map"], abs=1e-12)
        assert result.loc[q, "nDCG@10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)
    run.loc[1234, "doc_id"] = None
    with pytest.raises(ValueError, match="run row 1234: the doc id is missing"):
        ck.evaluate(run, qrels, ["AP"])


@pytest.mark.parametrize(
    "scores",
    [
        "normal",
        "close",  # many scores within 1e-12 of another: they share an interval
        "outlier",  # one huge score: nearly every row in one interval (then sorted instead)
        "ties",
        "signed zeros",
        "subnormal",  # a spread so small that cutting it in intervals overflows
    ],
)
@pytest.mark.parametrize("counted", [False, True])
def test_rows_by_query_then_score_equal_a_lexsort(scores, counted, monkeypatch):
    monkeypatch.setattr(counting, "MIN_ROWS", 1 if counted else 10**9)
    rng = np.random.default_rng(11)
    n = 6000
    query = rng.integers(0, 40, n)
    values = {
        "normal": rng.normal(size=n),
        "close": np.repeat(rng.normal(size=n // 4), 4) + rng.integers(0, 3, n) * 1e-12,
        "outlier": np.r_[rng.normal(size=n - 1), 1e300],
        "ties": rng.integers(0, 5, n) / 2,
        "signed zeros": np.where(rng.random(n) < 0.5, 0.0, -0.0) + (rng.random(n) < 0.1),
        "subnormal": rng.integers(0, 1000, n) * 5e-324,
    }[scores]
    order, tied = _by_query_then_score(query, values)
    expected = np.lexsort((-values, query))  # ties in any order: compare what they hold
    assert query[order].tolist() == query[expected].tolist()
    assert values[order].tolist() == values[expected].tolist()
    q, s = query[expected], values[expected]
    assert tied.tolist() == ((q[1:] == q[:-1]) & (s[1:] == s[:-1])).tolist()


def test_ids_that_utf8_cannot_encode_are_refused_by_name():
    """A lone surrogate (Python allows it in a str, UTF-8 and so no TREC file can hold it):
    a ``ValueError`` naming the id, not pyarrow's or pandas' ``UnicodeEncodeError``; as doc
    id or query id, rows in blocks or in any order, frames or dicts."""
    bad = "d\ud800"
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["b"], "relevance": [1]})

    def frame(query_ids, doc_ids):
        n = len(query_ids)
        return pd.DataFrame(
            {
                "query_id": pd.Series(query_ids, dtype=object),
                "doc_id": pd.Series(doc_ids, dtype=object),
                "score": np.arange(n, 0, -1, dtype=float),
            }
        )

    n = 10_000  # (enough rows for the paths that sample them)
    runs = [
        frame(["q", "q"], [bad, "b"]),
        frame([bad, "q"], ["a", "b"]),
        frame(np.array([bad, "q"] * (n // 2), dtype=object), [f"d{i}" for i in range(n)]),
    ]
    for run in runs:
        with pytest.raises(ValueError, match=r"the id 'd\\ud800' is not valid text"):
            ck.evaluate(run, qrels, ["AP"])
    for run in ({"q": {bad: 1.0, "b": 1.0}}, {bad: {"b": 0.5}}):  # (a tie: doc ids read)
        with pytest.raises(ValueError, match=r"the id 'd\\ud800' is not valid text"):
            ck.evaluate(run, {"q": {"b": 1}}, ["AP"])
