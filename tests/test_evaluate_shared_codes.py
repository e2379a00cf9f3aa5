"""Doc ids numbered once for the run and the qrels together (issue 14, third round), and the
reader's plain-layout path; each against an independent computation (pandas' factorize, hand
derivations, trec_eval's reading rules)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import coursekit as ck
from coursekit.engine.byteorder import codes_in_byte_order
from coursekit.engine.codes import string_codes
from coursekit.engine.order import string_ranks

LONG = "x" * 40  # over 32 bytes: not packed, the strings are hashed instead
COLLIDING = ["abcdefg", "abcdefg\x07", "abc", "abc\x00\x00\x00\x00\x03", "", "z"]


@pytest.mark.parametrize(
    "parts",
    [
        [["d1", "d2", "d1"], ["d3", "d1"]],
        [["d1"], [], ["d2", "d1"]],
        [COLLIDING, list(reversed(COLLIDING))],
        [["a", LONG, "b"], ["b", LONG]],
        [["é", "日本語"], ["日本語", "e\u0301", "é"]],
    ],
)
@pytest.mark.parametrize("kinds", [(pa.string(), pa.string()), (pa.string(), pa.large_string())])
def test_string_codes_of_several_arrays_equal_factorize_of_their_concatenation(parts, kinds):
    arrays = [pa.array(p, kinds[i % 2]) for i, p in enumerate(parts)]
    codes, ids = string_codes(arrays)
    everything = [x for p in parts for x in p]
    expected, uniques = pd.factorize(np.array(everything, dtype=object))
    assert np.concatenate(codes).tolist() == expected.tolist()
    assert [len(c) for c in codes] == [len(p) for p in parts]
    assert ids.to_pylist() == list(uniques)


def test_string_codes_of_blocks_equal_factorize():
    ids = ["q2"] * 50 + ["q1"] * 30 + ["q2"] * 20 + [None] * 5
    (codes,), distinct = string_codes(pa.array(ids), blocks=True)
    assert codes.tolist() == [0] * 50 + [1] * 30 + [0] * 20 + [-1] * 5
    assert distinct.to_pylist() == ["q2", "q1"]


RUN = {"q": {"7": 3.0, "x": 2.0, "y": 1.0}}
QRELS = {"q": {"7": 0, "y": 2, "z": 1}}
# by hand: ranking 7 (grade 0), x (unjudged), y (grade 2); 2 relevant documents (y, z):
# AP = (1/3) / 2; P@2 = 0; R-precision (R = 2, top 2: none relevant) = 0
EXPECTED = {"AP": 1 / 6, "P@2": 0.0, "Rprec": 0.0}


def frame(nested: dict, value: str) -> pd.DataFrame:
    rows = [(q, d, v) for q, docs in nested.items() for d, v in docs.items()]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", value])


def forms(nested: dict, value: str) -> dict:
    base = frame(nested, value)
    as_int = base.copy()
    as_int["doc_id"] = [int(d) if d.isdigit() else d for d in as_int["doc_id"]]
    return {
        "dict": nested,
        "object": base,
        "categorical": base.astype({"query_id": "category", "doc_id": "category"}),
        "arrow": base.astype({"query_id": "string[pyarrow]", "doc_id": "string[pyarrow]"}),
        "int categorical": as_int.astype({"doc_id": "category"}),
        "int object": as_int,
    }


@pytest.mark.parametrize("run_form", list(forms(RUN, "score")))
@pytest.mark.parametrize("qrels_form", list(forms(QRELS, "relevance")))
def test_every_pair_of_input_forms_matches_the_same_documents(run_form, qrels_form):
    """Doc 7 given as the integer 7 on one side and the string "7" on the other is one
    document, whatever form each side takes."""
    run = forms(RUN, "score")[run_form]
    qrels = forms(QRELS, "relevance")[qrels_form]
    result = ck.evaluate(run, qrels, list(EXPECTED))
    for name, value in EXPECTED.items():
        assert result.mean[name] == pytest.approx(value, abs=1e-12), (name, run_form, qrels_form)


def test_duplicate_judgment_is_still_refused_with_shared_codes():
    qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d", "d"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "score": [1.0]})
    with pytest.raises(ValueError, match="qrels row 1: document 'd' is judged twice"):
        ck.evaluate(run, qrels, ["AP"])


def test_missing_doc_id_in_a_categorical_is_named():
    run = pd.DataFrame(
        {"query_id": ["q", "q"], "doc_id": pd.Categorical(["d", None]), "score": [1.0, 0.5]}
    )
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "relevance": [1]})
    with pytest.raises(ValueError, match="run row 1: the doc id is missing"):
        ck.evaluate(run, qrels, ["AP"])


CLEAN = "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\nq2 Q0 d1 1 0.5 r\n"


@pytest.mark.parametrize(
    "text",
    [
        "q1 Q0 d1 1 2.5 r\nq1  Q0 d2 2 1.5 r\nq2 Q0 d1 1 0.5 r\n",  # two spaces
        "q1 Q0 d1 1 2.5 r \nq1 Q0 d2 2 1.5 r\nq2 Q0 d1 1 0.5 r\n",  # a space at the end
        " q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\nq2 Q0 d1 1 0.5 r\n",  # a space at the start
        "q1 Q0 d1 1 2.5 r\n\nq1 Q0 d2 2 1.5 r\nq2 Q0 d1 1 0.5 r\n",  # a blank line
        "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\nq2 Q0 d1 1 0.5 r",  # no final line end
    ],
)
def test_run_files_not_quite_plain_read_as_trec_eval_reads_them(tmp_path, text):
    """trec_eval splits on any run of white space and skips blank lines."""
    (tmp_path / "clean").write_text(CLEAN)
    (tmp_path / "odd").write_text(text)
    expected = ck.read_run(tmp_path / "clean")
    pd.testing.assert_frame_equal(ck.read_run(tmp_path / "odd"), expected)


def test_empty_field_between_two_spaces_reports_the_field_count(tmp_path):
    """'q1 Q0  d2 2 1.5' has five fields for trec_eval (not an empty doc id and a rank 'd2')."""
    path = tmp_path / "run"
    path.write_text("q1 Q0 d1 1 2.5 r\n\nq1 Q0  d2 2 1.5\n")
    with pytest.raises(ValueError, match=r"run, line 3: a run line has 6 fields .* has 5"):
        ck.read_run(path)


ALPHABET = ["a", "b", "\x00", "\x01", "é", "日", "z", "A", "\x7f", "\U0001f600"]


@pytest.mark.parametrize("longest", [3, 8, 9, 17, 30, 40])
def test_string_ranks_from_packed_words_follow_python_string_order(longest):
    """Python compares strings by code point, as strcmp compares UTF-8 bytes; ids with NUL
    bytes and ids that are prefixes of others are where zero padding could go wrong."""
    rng = np.random.default_rng(longest)
    for _ in range(50):
        ids = {"".join(rng.choice(ALPHABET, size=rng.integers(0, longest))) for _ in range(40)}
        ids = sorted(ids | {"ab", "ab\x00", "ab\x00\x00", "a"}, key=lambda _: rng.random())
        expected = np.empty(len(ids), dtype=np.int64)
        expected[sorted(range(len(ids)), key=ids.__getitem__)] = np.arange(len(ids))
        assert string_ranks(np.array(ids, dtype=object)).tolist() == expected.tolist()


@pytest.mark.parametrize("longest", [3, 8, 9, 17, 30, 40])
def test_codes_in_byte_order_number_the_ids_as_python_sorts_them(longest):
    """``codes_in_byte_order``: the distinct ids in Python's string order
    (strcmp's), each row's code its id's rank, whether counted (few values in each byte that
    varies), sorted 16 bits at a time (many: the alphabet's code points), or, over 32 bytes,
    hashed and then sorted; repeated ids, NUL bytes and prefixes included."""
    rng = np.random.default_rng(longest)
    for few in (True, False):
        alphabet = ["0", "1", "\x00"] if few else ALPHABET
        for _ in range(20):
            parts = [
                ["".join(rng.choice(alphabet, size=rng.integers(0, longest))) for _ in range(n)]
                for n in rng.integers(0, 60, size=rng.integers(1, 4))
            ]
            parts[0] += ["ab", "ab\x00", "a", "ab"]
            codes, ids = codes_in_byte_order([pa.array(p) for p in parts])
            expected = sorted({x for p in parts for x in p})
            assert ids.to_pylist() == expected
            for part, code in zip(parts, codes, strict=True):
                assert [expected[c] for c in code.tolist()] == part


def test_codes_in_byte_order_of_a_million_ids_are_counted_and_exact():
    """The ids of ``bench_evaluate.py --pool 1000000`` ("doc0" to "doc999999"): counted."""
    rng = np.random.default_rng(7)
    ids = np.array([f"doc{i}" for i in rng.choice(1_000_000, 20_000)], dtype=object)
    (codes,), distinct = codes_in_byte_order([pa.array(ids)])
    expected = sorted(set(ids))
    assert distinct.to_pylist() == expected
    assert np.array_equal(np.asarray(distinct.take(codes)).astype(object), ids)
