"""Diversity and novelty (chapter 11): alpha-nDCG, ERR-IA, NRBP, S-recall and the intent-aware
measures, the diversity qrels files, and evaluate_diversity().

Expected values come from hand derivations written out in each test, from ndeval (the TREC Web
track's tool, through pyndeval) and, for nDCG-IA, which ndeval lacks, from trec_eval's nDCG
(pytrec_eval) computed subtopic by subtopic.
"""

from __future__ import annotations

import gzip
import math

import numpy as np
import pandas as pd
import pytest
from files_support import at_line, write_file

import coursekit as ck
from coursekit.evaluation.diversity import known_diversity_measures, parse_diversity_measure
from coursekit.measures import judged_subtopics
from coursekit.registry import DIVERSITY_FAMILIES

pyndeval = pytest.importorskip("pyndeval")
pytrec_eval = pytest.importorskip("pytrec_eval")

# Two subtopics a and b; d1 covers both, d2 only a, d3 only b, d4 is judged for none.
JUDGMENTS = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
RANKING = ["d2", "d1", "d4", "d3"]
LOG2_3, LOG2_5 = math.log2(3), math.log2(5)


# --- hand derivations (alpha = beta = 0.5) --------------------------------------------------------


def test_novelty_gains_discount_a_subtopic_seen_before():
    # d2: a new (1); d1: a seen once (0.5) + b new (1); d4: nothing; d3: b seen once (0.5)
    assert ck.novelty_gains(RANKING, JUDGMENTS).tolist() == [1.0, 1.5, 0.0, 0.5]
    # alpha = 0: no novelty discount, a gain counts the subtopics; alpha = 1: only new ones
    assert ck.novelty_gains(RANKING, JUDGMENTS, alpha=0.0).tolist() == [1.0, 2.0, 0.0, 1.0]
    assert ck.novelty_gains(RANKING, JUDGMENTS, alpha=1.0).tolist() == [1.0, 1.0, 0.0, 0.0]


def test_greedy_ideal_takes_the_document_covering_both_first_and_breaks_ties_by_doc_id():
    # rank 1: d1 gains 2; rank 2: d2 and d3 gain 0.5 each, d3 (sorting last) wins; then d2, d4
    assert ck.ideal_diversity_ranking(JUDGMENTS) == ["d1", "d3", "d2", "d4"]
    assert ck.ideal_diversity_ranking(JUDGMENTS, depth=2) == ["d1", "d3"]


def test_alpha_dcg_and_alpha_ndcg_by_hand():
    dcg = 1 + 1.5 / LOG2_3 + 0 / 2 + 0.5 / LOG2_5
    ideal = 2 + 0.5 / LOG2_3 + 0.5 / 2 + 0 / LOG2_5
    assert ck.alpha_dcg(RANKING, JUDGMENTS, k=4) == pytest.approx(dcg, abs=1e-12)
    assert ck.alpha_ndcg(RANKING, JUDGMENTS, k=4) == pytest.approx(dcg / ideal, abs=1e-12)
    assert ck.alpha_ndcg(RANKING, JUDGMENTS, k=1) == pytest.approx(1 / 2, abs=1e-12)
    assert ck.alpha_ndcg(RANKING, JUDGMENTS) == pytest.approx(dcg / ideal, abs=1e-12)


def test_err_ia_and_nerr_ia_by_hand():
    numerator = 1 / 1 + 1.5 / 2 + 0 / 3 + 0.5 / 4
    best_per_subtopic = 1 + 0.5 / 2 + 0.25 / 3 + 0.125 / 4  # every document relevant
    assert ck.err_ia(RANKING, JUDGMENTS, k=4) == pytest.approx(
        numerator / (2 * best_per_subtopic), abs=1e-12
    )
    ideal = 2 / 1 + 0.5 / 2 + 0.5 / 3 + 0 / 4
    assert ck.nerr_ia(RANKING, JUDGMENTS, k=4) == pytest.approx(numerator / ideal, abs=1e-12)
    # one subtopic of two at rank 1
    assert ck.err_ia(RANKING, JUDGMENTS, k=1) == pytest.approx(0.5, abs=1e-12)


def test_nrbp_and_nnrbp_by_hand():
    weighted = 1 + 0.5 * 1.5 + 0.25 * 0 + 0.125 * 0.5
    assert ck.nrbp(RANKING, JUDGMENTS) == pytest.approx((1 - 0.5 * 0.5) / 2 * weighted)
    ideal = 2 + 0.5 * 0.5 + 0.25 * 0.5 + 0.125 * 0
    assert ck.nnrbp(RANKING, JUDGMENTS) == pytest.approx(weighted / ideal, abs=1e-12)
    # beta = 0.8: (1 - 0.5 * 0.8) / 2 * (1 + 0.8 * 1.5 + 0.64 * 0 + 0.512 * 0.5)
    assert ck.nrbp(RANKING, JUDGMENTS, beta=0.8) == pytest.approx(0.3 * 2.456, abs=1e-12)


def test_intent_aware_measures_by_hand():
    assert ck.subtopic_recall(RANKING, JUDGMENTS, k=1) == 0.5  # a only
    assert ck.subtopic_recall(RANKING, JUDGMENTS, k=2) == 1.0
    assert ck.precision_ia(RANKING, JUDGMENTS, k=2) == (1 + 2) / (2 * 2)
    assert ck.precision_ia(RANKING, JUDGMENTS, k=8) == (1 + 2 + 0 + 1) / (8 * 2)
    # a: d2, d1 at ranks 1, 2 -> AP 1; b: d1, d3 at ranks 2, 4 -> (1/2 + 2/4) / 2
    assert ck.ap_ia(RANKING, JUDGMENTS) == (1 + 0.5) / 2
    # nDCG-IA: a is ideal (1); b: (1/log2 3 + 1/log2 5) / (1 + 1/log2 3)
    b = (1 / LOG2_3 + 1 / LOG2_5) / (1 + 1 / LOG2_3)
    assert ck.ndcg_ia(RANKING, JUDGMENTS, k=4) == pytest.approx((1 + b) / 2, abs=1e-12)


def test_ndcg_ia_counts_a_redundant_document_fully_where_alpha_ndcg_discounts_it():
    judgments = {"x": {"a": 1}, "y": {"a": 1}, "z": {"b": 1}}
    # nDCG-IA@2 of [x, y]: a: 1 (ideal), b: 0 -> 0.5; alpha-nDCG@2: 1 + 0.5/log2 3 over 1 + 1/log2 3
    assert ck.ndcg_ia(["x", "y"], judgments, k=2) == pytest.approx(0.5, abs=1e-12)
    expected = (1 + 0.5 / LOG2_3) / (1 + 1 / LOG2_3)
    assert ck.alpha_ndcg(["x", "y"], judgments, k=2) == pytest.approx(expected, abs=1e-12)


def test_graded_subtopic_grades_are_binary_for_alpha_ndcg_and_gains_for_ndcg_ia():
    judgments = {"x": {"a": 2}, "y": {"a": 1}}
    # alpha-nDCG: grade 2 and 1 both relevant; [y, x] is as good as [x, y]
    assert ck.alpha_ndcg(["y", "x"], judgments, k=2) == 1.0
    # nDCG-IA: gains 1, 2 against the ideal 2, 1
    expected = (1 + 2 / LOG2_3) / (2 + 1 / LOG2_3)
    assert ck.ndcg_ia(["y", "x"], judgments, k=2) == pytest.approx(expected, abs=1e-12)


def test_the_greedy_ideal_is_not_always_the_best_so_alpha_ndcg_can_pass_one():
    # p, q and r each gain 2 at rank 1: ndeval takes r (the last doc id), then q and p gain
    # 1.5 each: ideal gains [2, 1.5, 1.5]. The ranking [p, q, r] gains [2, 2, 1].
    judgments = {"p": {"a": 1, "b": 1}, "q": {"c": 1, "d": 1}, "r": {"a": 1, "c": 1}}
    assert ck.ideal_diversity_ranking(judgments) == ["r", "q", "p"]
    expected = (2 + 2 / LOG2_3 + 1 / 2) / (2 + 1.5 / LOG2_3 + 1.5 / 2)
    assert expected > 1
    assert ck.alpha_ndcg(["p", "q", "r"], judgments, k=3) == pytest.approx(expected, abs=1e-12)
    qrels = [("1", s, d, g) for d, grades in judgments.items() for s, g in grades.items()]
    run = [("1", d, 3.0 - i) for i, d in enumerate(["p", "q", "r"])]
    ndeval = pyndeval.ndeval(qrels, run, measures=["alpha-nDCG@3"])["1"]["alpha-nDCG@3"]
    assert ndeval == pytest.approx(expected, abs=1e-12)


def test_a_query_without_relevant_document_scores_zero():
    judgments = {"d1": {"a": 0}, "d2": {}}
    for function in (ck.alpha_ndcg, ck.err_ia, ck.nerr_ia, ck.ndcg_ia, ck.subtopic_recall):
        assert function(["d1", "d2"], judgments, 2) == 0.0
    for function in (ck.nrbp, ck.nnrbp, ck.ap_ia):
        assert function(["d1", "d2"], judgments) == 0.0
    assert ck.precision_ia(["d1"], judgments, 1) == 0.0
    assert ck.ideal_diversity_ranking(judgments) == ["d2", "d1"]


def test_a_document_judged_for_no_subtopic_is_as_one_judged_zero():
    empty = {**JUDGMENTS, "d4": {}}
    for function in (ck.alpha_ndcg, ck.err_ia, ck.nerr_ia, ck.ndcg_ia, ck.subtopic_recall):
        assert function(RANKING, empty, 3) == function(RANKING, JUDGMENTS, 3)
    assert ck.nnrbp(RANKING, empty) == ck.nnrbp(RANKING, JUDGMENTS)


def test_an_empty_ranking_scores_zero():
    assert ck.alpha_ndcg([], JUDGMENTS, k=5) == 0.0
    assert ck.err_ia([], JUDGMENTS) == 0.0
    assert ck.nrbp([], JUDGMENTS) == 0.0


# --- names ----------------------------------------------------------------------------------------


def test_names_are_ir_measures_and_canonical():
    assert parse_diversity_measure("alpha_nDCG@010").name == "alpha_nDCG@10"
    assert parse_diversity_measure("alpha_nDCG(alpha=0.5)@10").name == "alpha_nDCG@10"
    assert parse_diversity_measure("alpha_nDCG(alpha=0.30)@10").name == "alpha_nDCG(alpha=0.3)@10"
    m = parse_diversity_measure("NRBP(beta=0.8, alpha=0.5)")
    assert (m.name, m.param, m.param_kind) == ("NRBP(beta=0.8)", None, None)
    for name in ("ERR_IA@20", "nERR_IA@20", "nDCG_IA@20", "StRecall@10", "P_IA@5", "AP_IA"):
        assert parse_diversity_measure(name).name == name
    listed = {
        line.split()[0].split("@")[0].rstrip(",")
        for line in known_diversity_measures().splitlines()
    }
    assert listed == set(DIVERSITY_FAMILIES)


def test_a_named_measure_computes_its_function():
    m = parse_diversity_measure("alpha_nDCG(alpha=0.3)@3")
    assert m(RANKING, None, JUDGMENTS) == ck.alpha_ndcg(RANKING, JUDGMENTS, k=3, alpha=0.3)
    m = parse_diversity_measure("NRBP(alpha=0.2, beta=0.9)")
    assert m(RANKING, None, JUDGMENTS) == ck.nrbp(RANKING, JUDGMENTS, alpha=0.2, beta=0.9)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("alpha_nDCG", "needs a cut-off"),
        ("AP_IA@10", "takes no @ cut-off"),
        ("alpha_nDCG@0", "positive integer"),
        ("alpha_nDCG(alpha=1.5)@10", r"alpha must be a number in \[0, 1\]"),
        ("alpha_nDCG(beta=0.5)@10", r"alpha_nDCG\(alpha=0.5\)"),
        ("alpha_nDCG(alpha=0.5, alpha=0.3)@10", "write its parameters"),
        ("alpha_nDCG(alpha=x)@10", "alpha must be a number"),
        ("StRecall(alpha=0.5)@10", "takes no"),
        ("alpha_DCG@10", "no such measure"),
        ("AP", "an ordinary measure: coursekit.evaluate computes it"),
    ],
)
def test_bad_diversity_measure_names(name, message):
    with pytest.raises(ValueError, match=message):
        parse_diversity_measure(name)


def test_parse_measure_and_evaluate_send_diversity_names_to_evaluate_diversity():
    with pytest.raises(ValueError, match=r"evaluate_diversity\(run, subtopic_qrels"):
        ck.parse_measure("alpha_nDCG@10")
    with pytest.raises(ValueError, match="is a diversity measure"):
        ck.evaluate({"q": {"d": 1.0}}, {"q": {"d": 1}}, ["ERR_IA@20"])


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: ck.alpha_ndcg({"d1", "d2"}, JUDGMENTS, 2),
            TypeError,
            "ranking .* set has no rank",
        ),
        (lambda: ck.alpha_ndcg("d1 d2", JUDGMENTS, 2), TypeError, "ranking must be a sequence"),
        (lambda: ck.alpha_ndcg(["d1", "d1"], JUDGMENTS, 2), ValueError, "'d1' appears twice"),
        (lambda: ck.err_ia([["d1"]], JUDGMENTS, 2), TypeError, "rank 1 must be a string"),
        (lambda: ck.alpha_ndcg(RANKING, [1, 0], 2), TypeError, r"\{doc: \{subtopic: grade\}\}"),
        (lambda: ck.alpha_ndcg(RANKING, {"d1": 1}, 2), TypeError, r"judgments\['d1'\] must map"),
        (
            lambda: ck.alpha_ndcg(RANKING, {"d1": {"a": True}}, 2),
            TypeError,
            r"judgments\['d1'\]\['a'\] must be a grade",
        ),
        (
            lambda: ck.alpha_ndcg(RANKING, {"d1": {"a": float("nan")}}, 2),
            ValueError,
            r"judgments\['d1'\]\['a'\] must be a grade",
        ),
        (lambda: ck.alpha_ndcg(RANKING, {"d1": {"a": "1"}}, 2), TypeError, "must be a grade"),
        (lambda: ck.alpha_ndcg(RANKING, JUDGMENTS, 0), ValueError, "k must be a positive"),
        (lambda: ck.alpha_ndcg(RANKING, JUDGMENTS, 2.0), TypeError, "k must be a positive"),
        (lambda: ck.precision_ia(RANKING, JUDGMENTS, True), TypeError, "k must be a positive"),
        (lambda: ck.alpha_ndcg(RANKING, JUDGMENTS, 2, alpha=-0.1), ValueError, "alpha must"),
        (lambda: ck.err_ia(RANKING, JUDGMENTS, 2, alpha=True), TypeError, "alpha must"),
        (lambda: ck.nrbp(RANKING, JUDGMENTS, beta=1.5), ValueError, r"beta must .* \[0, 1\]"),
        (lambda: ck.nnrbp(RANKING, JUDGMENTS, beta="0.5"), TypeError, "beta must be a number"),
        (lambda: ck.ideal_diversity_ranking(JUDGMENTS, depth=0), ValueError, "depth must be"),
        (lambda: ck.subtopic_recall(RANKING, None), TypeError, "judgments must map"),
    ],
)
def test_bad_input_is_refused_naming_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_evaluate_diversity_bad_arguments():
    run, qrels = {"q1": {"d1": 1.0}}, {"q1": {"d1": {"a": 1}}}
    with pytest.raises(ValueError, match="asked twice: StRecall@5"):
        ck.evaluate_diversity(run, qrels, ["StRecall@5", "StRecall@005"])
    with pytest.raises(ValueError, match="no measure to compute"):
        ck.evaluate_diversity(run, qrels, [])
    with pytest.raises(TypeError, match="missing_as_zero must be True or False"):
        ck.evaluate_diversity(run, qrels, "StRecall@5", missing_as_zero=1)
    with pytest.raises(ValueError, match="no query is both in the run and in the qrels"):
        ck.evaluate_diversity({"q2": {"d1": 1.0}}, qrels, "StRecall@5")
    with pytest.raises(TypeError, match=r"grade of document 'd1' for subtopic 'a' .* number"):
        ck.evaluate_diversity(run, {"q1": {"d1": {"a": "1"}}}, "StRecall@5")
    with pytest.raises(ValueError, match="the grade 0.5 is not an integer"):
        ck.evaluate_diversity(run, {"q1": {"d1": {"a": 0.5}}}, "StRecall@5")


def test_evaluate_diversity_missing_as_zero_scores_a_query_missing_from_the_run_zero():
    run = {"q1": {"d1": 1.0}}
    qrels = {"q1": {"d1": {"a": 1}}, "q2": {"d1": {"a": 1}}}
    result = ck.evaluate_diversity(run, qrels, ["StRecall@5"], missing_as_zero=True)
    assert result.table()["StRecall@5"].to_dict() == {"q1": 1.0, "q2": 0.0}
    assert ck.evaluate_diversity(run, qrels, ["StRecall@5"]).queries == ["q1"]


# --- files ----------------------------------------------------------------------------------------


def test_read_subtopic_qrels_reads_what_trec_tools_read(tmp_path):
    text = "\ufeff# topic subtopic doc grade\r\n51 1 d1 1\r\n\r\n51\t2  d1 1.0\r\n51 1 d2 0\r\n"
    frame = ck.read_subtopic_qrels(write_file(tmp_path, "qrels.txt", text))
    assert frame.to_numpy().tolist() == [
        ["51", "1", "d1", 1],
        ["51", "2", "d1", 1],
        ["51", "1", "d2", 0],
    ]
    assert frame["relevance"].dtype == np.int64
    gzipped = tmp_path / "qrels.txt.gz"
    gzipped.write_bytes(gzip.compress(text.encode("utf-8")))
    assert ck.read_subtopic_qrels(gzipped).equals(frame)


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (
            "51 1 d1 1\n51 1 d2\n",
            2,
            r"has 4 fields \(topic subtopic doc_id grade\), this one has 3",
        ),
        ("51 1 d1 1\n\n51 1 d2 0.5\n", 3, "the grade '0.5' is not an integer"),
        ("51 1 d1 1e0\n", 1, "the grade '1e0' is not an integer"),
        ("51 1 d1 1_0\n", 1, "the grade '1_0' is not an integer"),
        (
            "51 1 d1 1\n51 1 d1 0\n",
            2,
            r"'d1' is judged twice for subtopic '1' .* \(lines 1 and 2\)",
        ),
        ("51 1 d1 1\n51 1 d\x002 0\n", 2, "a NUL byte"),
        ("51 1 d1 1\r51 1 d2 0\r", 1, "a carriage return without a line feed"),
        ("51 1 d1 99999999999\n", 1, "out of range"),
        (b"51 1 d1 1\n51 1 d\xff 1\n", 2, "bytes that are not UTF-8"),
    ],
)
def test_read_subtopic_qrels_errors_name_the_file_and_line(tmp_path, data, line, message):
    path = write_file(tmp_path, "qrels.txt", data)
    with pytest.raises(ValueError, match=at_line(path, line) + ".*" + message):
        ck.read_subtopic_qrels(path)


def test_read_subtopic_qrels_refuses_an_empty_file_and_a_path_of_the_wrong_type(tmp_path):
    path = write_file(tmp_path, "qrels.txt", "# nothing\n\n")
    with pytest.raises(ValueError, match="holds no judgment"):
        ck.read_subtopic_qrels(path)
    with pytest.raises(TypeError, match="path must be a file name"):
        ck.read_subtopic_qrels(3)
    damaged = write_file(tmp_path, "qrels.gz", b"\x1f\x8bnot gzip")
    with pytest.raises(ValueError, match="a damaged gzip file"):
        ck.read_subtopic_qrels(damaged)


def test_subtopic_qrels_round_trip_through_a_file(tmp_path):
    qrels = {"51": {"d1": {"1": 1, "2": 0}, "d2": {"2": 2}}, "52": {"d9": {"1": -1}}}
    path = tmp_path / "out.txt"
    ck.write_subtopic_qrels(qrels, path)
    assert path.read_text().splitlines() == ["51 1 d1 1", "51 2 d1 0", "51 2 d2 2", "52 1 d9 -1"]
    assert ck.subtopic_qrels_to_dict(path) == qrels
    with pytest.raises(ValueError, match="doc id 'a b' cannot be empty or hold white space"):
        ck.write_subtopic_qrels({"51": {"a b": {"1": 1}}}, tmp_path / "bad.txt")
    assert not (tmp_path / "bad.txt").exists()


def test_a_dataframe_with_ir_measures_iteration_column_is_read_as_subtopics():
    frame = pd.DataFrame(
        {"query_id": [1, 1], "iteration": [1, 2], "doc_id": ["d1", "d1"], "relevance": [1, 0]}
    )
    assert ck.subtopic_qrels_to_dict(frame) == {"1": {"d1": {"1": 1, "2": 0}}}
    with pytest.raises(ValueError, match="judged twice for subtopic '1' of query '1'"):
        ck.as_subtopic_qrels_frame(pd.concat([frame, frame.iloc[:1]]))


def test_evaluate_diversity_reads_files_as_dicts(tmp_path):
    qrels_path = tmp_path / "qrels.txt"
    ck.write_subtopic_qrels({"51": JUDGMENTS}, qrels_path)
    run_path = write_file(
        tmp_path,
        "run.txt",
        "".join(f"51 Q0 {d} {i + 1} {9 - i} x\n" for i, d in enumerate(RANKING)),
    )
    names = ["alpha_nDCG@4", "ERR_IA@4", "AP_IA"]
    from_files = ck.evaluate_diversity(run_path, qrels_path, names).table()
    run = {"51": {d: 9.0 - i for i, d in enumerate(RANKING)}}
    from_dicts = ck.evaluate_diversity(run, {"51": JUDGMENTS}, names).table()
    pd.testing.assert_frame_equal(from_files, from_dicts)
    assert from_files.loc["51", "AP_IA"] == 0.75


# --- agreement with ndeval (pyndeval) and trec_eval (pytrec_eval) ---------------------------------

CUTOFFS = (1, 2, 3, 5, 10, 20)


def _random_queries(seed: int, n_queries: int) -> tuple[dict, dict]:
    """Random subtopic judgments and runs: 1-5 subtopics, grades -1 to 2, some documents judged
    for no subtopic (a single 0), some queries with no relevant document, scores with ties."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        query = f"q{q}"
        n_subtopics = int(rng.integers(1, 6))
        no_relevant = q % 20 == 7
        judgments = {}
        for doc in sorted({f"d{i:02d}" for i in rng.integers(0, 40, int(rng.integers(1, 25)))}):
            grades = {
                str(s): 0 if no_relevant else int(rng.choice([-1, 0, 0, 1, 1, 2]))
                for s in range(1, n_subtopics + 1)
                if rng.random() < 0.5
            }
            judgments[doc] = grades or {"1": 0}  # judged for no subtopic
        qrels[query] = judgments
        pool = list(judgments) + [f"u{i}" for i in range(10)]  # u...: unjudged
        size = int(rng.integers(1, min(len(pool), 30) + 1))
        docs = rng.choice(pool, size=size, replace=False)
        run[query] = {str(d): float(rng.integers(0, 6)) for d in docs}  # many ties
    return qrels, run


def _trec_order(scores: dict) -> list[str]:
    """Score descending, ties by doc id descending (trec_eval; ndeval -traditional's
    resultCompareByScore: strcmp(b->docno, a->docno))."""
    by_doc = sorted(scores, reverse=True)
    return sorted(by_doc, key=lambda d: -scores[d])


def _ndeval(qrels: dict, run: dict, measures: list[str], **params) -> dict:
    """pyndeval on the runs in trec order: distinct scores that keep that order (pyndeval
    breaks ties by doc id ascending, see the test below)."""
    rows = [
        (q, s, d, g) for q, docs in qrels.items() for d, gr in docs.items() for s, g in gr.items()
    ]
    scored = [
        (q, d, float(-i)) for q, scores in run.items() for i, d in enumerate(_trec_order(scores))
    ]
    return pyndeval.ndeval(rows, scored, measures=measures, **params)


def _compare(ours: pd.DataFrame, theirs: dict, names: dict) -> tuple[int, list]:
    compared, mismatches = 0, []
    for query, row in ours.iterrows():
        for name, ndeval_name in names.items():
            value = theirs[query][ndeval_name]
            value = 0.0 if math.isnan(value) else value  # nNRBP of a query without subtopic
            compared += 1
            if abs(row[name] - value) > 1e-9:
                mismatches.append((query, name, row[name], value))
    return compared, mismatches


@pytest.mark.parametrize(
    ("seed", "n_queries", "alpha", "beta"),
    [(11, 240, 0.5, 0.5), (12, 60, 0.3, 0.8), (15, 30, 1.0, 0.5), (16, 30, 0.0, 1.0)],
)
def test_evaluate_diversity_agrees_with_ndeval(seed, n_queries, alpha, beta):
    qrels, run = _random_queries(seed, n_queries)
    a, ab = f"(alpha={alpha})", f"(alpha={alpha}, beta={beta})"
    names = {"AP_IA": "MAP-IA", f"NRBP{ab}": "NRBP", f"nNRBP{ab}": "nNRBP"}
    for k in CUTOFFS:
        names[f"alpha_nDCG{a}@{k}"] = f"alpha-nDCG@{k}"
        names[f"nERR_IA{a}@{k}"] = f"nERR-IA@{k}"
        names[f"P_IA@{k}"] = f"P-IA@{k}"
        names[f"StRecall@{k}"] = f"strec@{k}"
        if k > 1:  # ndeval's ERR-IA@1 is not normalised (see the test below)
            names[f"ERR_IA{a}@{k}"] = f"ERR-IA@{k}"
    names = {parse_diversity_measure(name).name: value for name, value in names.items()}
    theirs = _ndeval(qrels, run, sorted(set(names.values())), alpha=alpha, beta=beta)
    ours = ck.evaluate_diversity(run, qrels, list(names)).table()
    assert sorted(ours.index) == sorted(theirs)
    compared, mismatches = _compare(ours, theirs, names)
    assert compared == n_queries * len(names)
    assert mismatches == [], f"{len(mismatches)} of {compared} differ: {mismatches[:5]}"


def test_alpha_dcg_agrees_with_ndeval_normalised_alpha_dcg():
    # ndeval's alpha-DCG@k is alpha-DCG@k over that of a ranking covering every subtopic at
    # every rank, |S| Σ_{r<=k} (1 - alpha)^(r-1) / log2(r + 1) (from k = 2, see below)
    qrels, run = _random_queries(13, 200)
    ks = CUTOFFS[1:]
    theirs = _ndeval(qrels, run, [f"alpha-DCG@{k}" for k in ks])
    compared = 0
    for query, scores in run.items():
        judged = judged_subtopics(qrels[query])
        for k in ks:
            best = len(judged.subtopics) * sum(
                0.5 ** (r - 1) / math.log2(r + 1) for r in range(1, k + 1)
            )
            ours = ck.alpha_dcg(_trec_order(scores), judged, k) / best if best else 0.0
            assert ours == pytest.approx(theirs[query][f"alpha-DCG@{k}"], abs=1e-9), (query, k)
            compared += 1
    assert compared == 200 * len(ks)


def test_ndeval_err_ia_at_1_and_alpha_dcg_at_1_are_not_normalised():
    # ndeval normalises ERR-IA and alpha-DCG from rank 2 on (its loop starts at i = 1): at k = 1
    # it prints the gain of rank 1, here both subtopics covered by d1, where ERR-IA@1 is 2/2
    qrels = [("1", s, d, g) for d, grades in JUDGMENTS.items() for s, g in grades.items()]
    values = pyndeval.ndeval(qrels, [("1", "d1", 1.0)], measures=["ERR-IA@1", "alpha-DCG@1"])["1"]
    assert values == {"ERR-IA@1": 2.0, "alpha-DCG@1": 2.0}
    assert ck.err_ia(["d1"], JUDGMENTS, k=1) == 1.0


def test_pyndeval_breaks_ties_by_doc_id_ascending_coursekit_descending():
    judgments = {"p": {"a": 1, "b": 1}, "q": {"c": 1, "d": 1}, "r": {"a": 1, "c": 1}}
    qrels = [("1", s, d, g) for d, grades in judgments.items() for s, g in grades.items()]
    tied = {"p": 1.0, "q": 1.0, "r": 1.0}
    theirs = pyndeval.ndeval(
        qrels, [("1", d, s) for d, s in tied.items()], measures=["alpha-nDCG@3"]
    )
    assert theirs["1"]["alpha-nDCG@3"] == pytest.approx(
        ck.alpha_ndcg(["p", "q", "r"], judgments, 3)
    )
    ours = ck.evaluate_diversity({"1": tied}, {"1": judgments}, ["alpha_nDCG@3"]).table()
    assert ours.loc["1", "alpha_nDCG@3"] == ck.alpha_ndcg(["r", "q", "p"], judgments, 3) == 1.0


def test_ndcg_ia_agrees_with_trec_eval_ndcg_subtopic_by_subtopic():
    qrels, run = _random_queries(14, 200)
    # one pseudo-query per (query, subtopic with a relevant document); trec_eval ranks the tied
    # scores as coursekit does (score descending, doc id descending)
    per_subtopic, runs = {}, {}
    for query, judgments in qrels.items():
        for s in judged_subtopics(judgments).subtopics:
            per_subtopic[f"{query}|{s}"] = {d: g[s] for d, g in judgments.items() if s in g}
            runs[f"{query}|{s}"] = run[query]
    ks = (1, 3, 10, 20)
    trec = pytrec_eval.RelevanceEvaluator(per_subtopic, {"ndcg_cut." + ",".join(map(str, ks))})
    reference = trec.evaluate(runs)
    ours = ck.evaluate_diversity(run, qrels, [f"nDCG_IA@{k}" for k in ks]).table()
    compared = 0
    for query in qrels:
        for k in ks:
            values = [
                v[f"ndcg_cut_{k}"] for key, v in reference.items() if key.split("|")[0] == query
            ]
            expected = float(np.mean(values)) if values else 0.0
            assert ours.loc[query, f"nDCG_IA@{k}"] == pytest.approx(expected, abs=1e-9), (query, k)
            compared += 1
    assert compared == 200 * len(ks)
