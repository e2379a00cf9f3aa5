"""Figures, tables, erratum boxes, the course's material, the registry and the self-check under
bad input: each mistake is refused when the function is called, with a TypeError or ValueError
naming the argument, before anything is drawn; pandas Series are read by label. Expected values
are derived by hand in each test."""

from __future__ import annotations

import importlib
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from coursekit import course  # noqa: E402
from coursekit.course import collection, retrieval, sources  # noqa: E402
from coursekit.grading import check, judge_value  # noqa: E402
from coursekit.grading.judging import judge_format  # noqa: E402
from coursekit.grading.questions import Value  # noqa: E402
from coursekit.registry import Rankings, parse_measure, ranks_in_blocks  # noqa: E402
from coursekit.views import display, plots, style, tables  # noqa: E402

glossary = importlib.import_module("coursekit.course.glossary")  # (the name is also a function)
BLUE, RED = mcolors.to_rgba("C0"), mcolors.to_rgba("C3")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# --------------------------------------------------------------------------------------------
# Figures: pandas Series read by label


def test_per_query_bars_reads_a_series_by_label():
    ax = plots.per_query_bars(pd.Series([0.1, -0.2], index=["q1", "q2"]))
    assert [p.get_height() for p in ax.patches] == pytest.approx([0.1, -0.2])
    assert [p.get_facecolor() for p in ax.patches] == [BLUE, RED]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["q1", "q2"]


def test_value_bars_reads_a_series_by_label():
    ax = plots.value_bars(pd.Series({"P": 0.5, "R": 0.25}))
    assert [p.get_width() for p in ax.patches] == pytest.approx([0.5, 0.25])


def test_labelled_scatter_pairs_x_and_y_by_name_whatever_their_order():
    ax = plots.labelled_scatter(pd.Series({"a": 1.0, "b": 2.0}), pd.Series({"b": 5.0, "a": 3.0}))
    assert ax.collections[0].get_offsets().tolist() == [[1.0, 3.0], [2.0, 5.0]]
    assert [t.get_text() for t in ax.texts] == ["a", "b"]


# --------------------------------------------------------------------------------------------
# Figures: bad input refused, naming the argument


def _count_ticks_of(n_relevant):
    ax = plots.found_by_rank({"s": [1, 0]}, n_relevant, 5)
    return [float(t) for t in ax.get_yticks()]


def test_found_by_rank_ticks_a_few_round_counts_when_there_are_many():
    ticks = _count_ticks_of(3000)
    assert 2 <= len(ticks) <= 12 and ticks[0] == 0
    assert all(t.is_integer() and 0 <= t <= 3000 for t in ticks)
    assert _count_ticks_of(4) == [0, 1, 2, 3, 4]  # few: every count, as before


BAD_FIGURES = [
    ("recall_rank", ([1, 1, 1], 1, 5), {}, ValueError, r"n_relevant=1 is smaller than the 3"),
    ("recall_rank", ([1, 0, 1], 2, -5), {}, ValueError, r"n_max must be a positive integer"),
    ("recall_rank", ([0, 0], -3, 5), {}, ValueError, r"n_relevant must be an integer \(>= 0\)"),
    ("recall_rank", ([1, math.nan, 1], 2, 5), {}, ValueError, r"rels\[1\] \(rank 2\) is nan"),
    ("recall_rank", (["1", "0", "1"], 2, 5), {}, TypeError, r"rels\[0\] \(rank 1\) must be a"),
    ("recall_rank", ([[1, 0], [1, 0]], 2, 5), {}, TypeError, r"rels\[0\] \(rank 1\) must be a"),
    ("recall_rank", ([1, 0, 1], 2, 2.5), {}, TypeError, r"n_max must be a positive integer"),
    ("recall_rank", ([1, 0, 1], 2, None), {}, TypeError, r"n_max must be a positive integer"),
    ("recall_rank", ([1, 0, 1], "2", 5), {}, TypeError, r"n_relevant must be an integer"),
    ("recall_rank", ("101", 2, 5), {}, TypeError, r"rels must be a sequence"),
    ("recall_rank", (None, 2, 5), {}, TypeError, r"rels must be a sequence"),
    ("recall_rank", ({1, 0}, 2, 5), {}, TypeError, r"a set has no rank order"),
    ("recall_rank", ([1, 0], 1, 10**7), {}, ValueError, r"n_max must be at most"),
    ("found_by_rank", ({"s": [1, 1, 1]}, 1, 5), {}, ValueError, r"rels\['s'\]: n_relevant=1"),
    ("found_by_rank", ({"s": [1, 0, 1, 1]}, 3, -2), {}, ValueError, r"n_max must be a positive"),
    ("found_by_rank", ([[1, 0]], 1, 5), {}, TypeError, r"rels must be a dict"),
    ("per_query_bars", ({"q1": math.nan},), {}, ValueError, r"differences\['q1'\] must be a"),
    ("per_query_bars", ({"q1": None},), {}, TypeError, r"differences\['q1'\] must be a number"),
    ("per_query_bars", ([0.1, 0.2],), {}, TypeError, r"differences must be a dict"),
    ("value_bars", ({"P": 5, "R": -0.2},), {}, ValueError, r"values\['P'\] must be a proportion"),
    ("value_bars", ({"P": "0.5"},), {}, TypeError, r"values\['P'\] must be a proportion"),
    ("value_bars", ({"P": None},), {}, TypeError, r"values\['P'\] must be a proportion"),
    ("interpolated_curves", ({"a": [1.5] * 11},), {}, ValueError, r"curves\['a'\]\[0\] must be"),
    ("interpolated_curves", ({"a": np.ones((11, 2))},), {}, ValueError, r"one-dimensional"),
    ("interpolated_curves", ({"a": [1, 0.5]},), {}, ValueError, r"has 2 values for 11 levels"),
    ("interpolated_curves", ({"a": "abcdefghijk"},), {}, TypeError, r"curves\['a'\] must be a"),
    ("interpolated_curves", ([[1] * 11],), {}, TypeError, r"curves must be a dict"),
    ("interpolated_curves", ({"a": [1] * 11},), {"levels": [0.5] * 11}, ValueError, "increase"),
    ("gain_curves", ({"DCG": None},), {}, TypeError, r"curves\['DCG'\] must be a sequence"),
    ("gain_curves", ({"DCG": "123"},), {}, TypeError, r"curves\['DCG'\] must be a sequence"),
    ("gain_curves", ({"DCG": [[1, 2], [3, 4]]},), {}, TypeError, r"curves\['DCG'\]\[0\] must"),
    ("gain_curves", ({"DCG": [10**400]},), {}, ValueError, r"curves\['DCG'\]\[0\] is too large"),
    ("gain_curves", ([[1, 2]],), {}, TypeError, r"curves must be a dict"),
    ("labelled_scatter", ({"a": 1, "b": math.nan}, {"a": 1, "b": 2}), {}, ValueError, r"x\['b'\]"),
    ("labelled_scatter", ({"a": 1, "b": 2}, {"a": 3}), {}, ValueError, r"y has no value for 'b'"),
    ("labelled_scatter", ({}, {}), {}, ValueError, r"x is empty"),
    ("pr_curve", ([1, 0], 1), {"ax": "ax"}, TypeError, r"ax must be a matplotlib Axes"),
    ("pr_curve", ([1, 0], 1), {"legend_loc": "nowhere"}, ValueError, r"legend_loc must be one of"),
    ("pr_curve", ([1, 0], 1), {"interpolated": "no"}, TypeError, r"interpolated must be True"),
    ("pr_curve", ([1, 0], 1), {"title": None}, TypeError, r"title must be a str"),
]


@pytest.mark.parametrize(("name", "args", "kwargs", "error", "match"), BAD_FIGURES)
def test_a_figure_refuses_bad_input_before_drawing(name, args, kwargs, error, match):
    figures = plt.get_fignums()
    with pytest.raises(error, match=match):
        getattr(plots, name)(*args, **kwargs)
    assert plt.get_fignums() == figures  # no figure left half drawn


def test_a_figure_is_not_an_axes():
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes, got Figure"):
        plots.pr_curve([1, 0], 1, ax=plt.figure())


def test_png_encoders_check_their_input():
    fig, _ = plt.subplots(figsize=(1, 1))
    with pytest.raises(TypeError, match="dpi must be"):
        plots.figure_png(fig, dpi="hi")
    with pytest.raises(TypeError, match="fig must be a matplotlib Figure"):
        plots.figure_png("fig")
    with pytest.raises(TypeError, match="uint8"):
        plots.rgba_png(np.zeros((2, 2, 4)))
    with pytest.raises(ValueError, match=r"\(height, width, 4\)"):
        plots.rgba_png(np.zeros((2, 2, 3), dtype=np.uint8))
    assert plots.rgba_png(np.zeros((2, 2, 4), dtype=np.uint8)).startswith(b"\x89PNG")


# --------------------------------------------------------------------------------------------
# Tables and erratum boxes: checked when made, not when shown


def test_sideways_refuses_what_it_cannot_show_when_called():
    with pytest.raises(ValueError, match="no columns"):
        tables.sideways(pd.DataFrame())
    with pytest.raises(ValueError, match="two columns named 'a'"):
        tables.sideways(pd.DataFrame([[1, 2]], columns=["a", "a"]))


ERRATUM = {"source": "s", "quantity": "q", "printed": 0.5, "computed": 0.25, "cause": "c"}


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"digits": -1}, ValueError, "digits must be a number of decimals"),
        ({"digits": True}, TypeError, "digits must be a number of decimals"),
        ({"digits": 2.5}, TypeError, "digits must be a number of decimals"),
        ({"computed": 10**400}, ValueError, "computed is too large"),
        ({"printed": (1, 10**400)}, ValueError, r"printed\[1\] is too large"),
        ({"source": None}, TypeError, "source must be a str"),
        ({"cause": 123}, TypeError, "cause must be a str"),
    ],
)
def test_erratum_refuses_bad_input_when_called(change, error, match):
    with pytest.raises(error, match=match):
        display.erratum(**{**ERRATUM, **change})


# --------------------------------------------------------------------------------------------
# The course's retrieval systems and collection

DOCS = ["river flood river", "flood dam", "lake"]


def test_bm25_with_k1_zero_scores_the_idf_of_each_term_present():
    # "flood": N = 3, df = 2, idf = ln((3 - 2 + 0.5) / (2 + 0.5) + 1) = ln(1.6); with k1 = 0
    # tf (k1 + 1) / (tf + 0) = 1 where the term occurs, and the term adds 0 elsewhere
    scores = retrieval.bm25(retrieval.Index(DOCS), "flood", k1=0)
    assert scores.tolist() == pytest.approx([math.log(1.6), math.log(1.6), 0.0])


@pytest.mark.parametrize(
    ("k1", "error"), [(math.nan, ValueError), ("1.2", TypeError), (None, TypeError)]
)
def test_bm25_refuses_a_k1_that_is_not_a_number(k1, error):
    with pytest.raises(error, match="k1 must be"):
        retrieval.bm25(retrieval.Index(DOCS), "flood", k1=k1)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (([0.3, 0.2, 0.1], ["a", "b", "c"], -1), ValueError, "depth must be a positive"),
        (([0.3, 0.2, 0.1], ["a", "b", "c"], 1.5), TypeError, "depth must be a positive"),
        (([0.3, 0.2, 0.1], ["a", "b", "c"], "10"), TypeError, "depth must be a positive"),
        (([0.3, 0.2, 0.1], ["a"], 10), ValueError, "doc_ids has 1 ids for 3 scores"),
        ((np.ones((2, 2)), ["a", "b"], 10), ValueError, "scores must be one-dimensional"),
        (([0.3, math.nan], ["a", "b"], 10), ValueError, r"scores\[1\] must be a finite"),
    ],
)
def test_rank_refuses_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        retrieval.rank(*args)


def test_index_reads_a_generator_once_and_refuses_none_and_sets():
    index = retrieval.Index(text for text in DOCS)
    assert index.n_docs == 3 and index.doc_len.tolist() == [3, 2, 1]
    with pytest.raises(TypeError, match="docs must be a sequence of document texts"):
        retrieval.Index(None)
    with pytest.raises(TypeError, match="got set"):
        retrieval.Index(set(DOCS))
    with pytest.raises(TypeError, match=r"docs\[1\] must be a str"):
        retrieval.Index(["a", math.nan])


DOCUMENTS = pd.DataFrame({"doc_id": ["d1", "d2"], "text": ["flood river", "dam"]})
TOPICS = pd.DataFrame({"query_id": ["1"], "title": ["flood"]})


@pytest.mark.parametrize(
    ("documents", "kwargs", "error", "match"),
    [
        (DOCUMENTS, {"depth": 0}, ValueError, "depth must be a positive integer"),
        (DOCUMENTS, {"depth": -1}, ValueError, "depth must be a positive integer"),
        (DOCUMENTS, {"system": ["bm25"]}, ValueError, "unknown system"),
        (DOCUMENTS[["doc_id"]], {}, ValueError, "documents has no column 'text'"),
        (DOCUMENTS.assign(text=["a", math.nan]), {}, TypeError, "the text of 'd2' must be a str"),
        (DOCUMENTS.assign(doc_id=["d1", "d1"]), {}, ValueError, "the doc_id 'd1' twice"),
    ],
)
def test_make_run_refuses_bad_input(documents, kwargs, error, match):
    with pytest.raises(error, match=match):
        collection.make_run(documents, TOPICS, **{"system": "bm25", **kwargs})


def test_make_run_keeps_its_output():
    # one document holds "flood": BM25 > 0 for d1 only, so the run is one row
    run = collection.make_run(DOCUMENTS, TOPICS, "bm25")
    assert run[["query_id", "doc_id", "rank", "run"]].values.tolist() == [["1", "d1", 1, "bm25"]]


def test_a_file_not_in_utf8_is_named(tmp_path):
    path = tmp_path / "docs.trec"
    path.write_bytes(b"<DOC><DOCNO>d1</DOCNO><TEXT>caf\xe9</TEXT></DOC>")
    with pytest.raises(ValueError, match=r"docs\.trec is not UTF-8 text"):
        collection.read_documents(path)


# --------------------------------------------------------------------------------------------
# Names of examples, sources, glossary terms and looks


def test_an_unknown_example_is_a_key_error_and_a_value_error_naming_close_keys():
    with pytest.raises(KeyError, match="did you mean 'slides-ab'") as caught:
        course.example("slides-abc")
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).startswith("no example 'slides-abc'")  # not quoted as KeyError's


def test_an_unknown_term_names_the_close_ones():
    with pytest.raises(ValueError, match="did you mean 'precision'"):
        glossary.term("precison", "French")


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: course.example(["slides-ab"]), "key must be a str"),
        (lambda: course.examples(["mor"]), "source must be a str"),
        (lambda: glossary.term(["precision"], "French"), "english must be a str"),
        (lambda: sources.cite(["mor"]), "source must be a str"),
    ],
)
def test_a_list_instead_of_a_name_is_refused(call, match):
    with pytest.raises(TypeError, match=match):
        call()


def test_style_refuses_a_list_and_a_non_flag():
    with pytest.raises(ValueError, match="unknown style"):
        style.use(["lecture"])
    with pytest.raises(TypeError, match="on must be True or False"):
        style.lecture_mode("no")
    assert style.current() == "default"


# --------------------------------------------------------------------------------------------
# The registry: options, Rankings, counting measures


def test_a_misspelt_option_is_refused_and_the_known_ones_are_kept():
    ndcg = parse_measure("nDCG")
    with pytest.raises(TypeError, match="unknown option 'ndcg_varaint'.*'ndcg_variant'"):
        ndcg([3, 0, 1], 2, [3, 1, 2], ndcg_varaint="jarvelin")
    # Järvelin's DCG: 3 + 0/log2(2) + 1/log2(3); ideal [3, 2, 1]: 3 + 2/1 + 1/log2(3)
    expected = (3 + 1 / math.log2(3)) / (5 + 1 / math.log2(3))
    assert ndcg([3, 0, 1], 2, [3, 1, 2], ndcg_variant="jarvelin") == pytest.approx(expected)
    # what evaluate passes to every measure is accepted by every one: P@2 of [1, 0] is 1/2
    options = {"ndcg_variant": "trec", "max_grade": 1.0}
    assert parse_measure("P@2")([1, 0], 1, [1], **options) == 0.5


def test_rankings_refuse_lists_and_short_arrays_in_constant_time():
    with pytest.raises(TypeError, match=r"Rankings\.query must be a 1-D numpy array"):
        Rankings([0, 0], [1.0, 1.0], 1, [0], [1.0])
    with pytest.raises(ValueError, match=r"Rankings\.grade has 1 rows, query 3"):
        Rankings(np.array([0, 0, 0]), np.array([1.0]), 1, np.array([0]), np.array([1.0]))


def test_rankings_build_checks_the_contents():
    with pytest.raises(ValueError, match="query 0 retrieves 2 documents of grade 1 but has 1"):
        Rankings.build([0, 0], [1, 1], 1, [0], [1])
    with pytest.raises(ValueError, match="rows of query 0 are not together"):
        Rankings.build([0, 1, 0], [0, 0, 0], 2, [], [])
    with pytest.raises(ValueError, match=r"query\[1\] is 2"):
        Rankings.build([0, 2], [0, 0], 2, [], [])
    # query 0: relevant at rank 1 of 1 relevant, AP 1; query 1: relevant at rank 2 of 2, AP 1/4
    rankings = Rankings.build([0, 0, 1, 1], [1, 0, 0, 1], 2, [0, 1, 1], [1, 1, 1])
    assert parse_measure("AP").every(rankings).tolist() == [1.0, 0.25]
    assert ranks_in_blocks([4, 4, 1]).tolist() == [1, 2, 1]


@pytest.mark.parametrize(
    ("name", "args", "kwargs", "error", "match"),
    [
        ("NumRet", ("abc", 1, []), {}, TypeError, "rels must be a sequence"),
        ("NumRel", ([1], -5, []), {}, ValueError, "n_relevant must be an integer"),
        ("NumRel", ([1, 1], 1, [1]), {}, ValueError, "n_relevant=1 is smaller than the 2"),
        ("NumRelRet", (["a"], 1, []), {}, TypeError, r"rels\[0\] \(rank 1\) must be a number"),
        (
            "Bpref",
            ([1, 0], 1, [1]),
            {"docs": ["a", "b"], "judged_docs": ["a", "b"]},
            ValueError,
            "judged_docs must hold one doc id for each of the 1 judged grades",
        ),
        ("Bpref", ([1, 0], 1, [1]), {"docs": ["a", "b"]}, ValueError, "go together"),
    ],
)
def test_counting_and_incomplete_measures_check_their_input(name, args, kwargs, error, match):
    with pytest.raises(error, match=match):
        parse_measure(name)(*args, **kwargs)


# --------------------------------------------------------------------------------------------
# The self-check: a number too large for a float is a printed line


def test_check_prints_a_line_for_a_number_too_large(capsys):
    check("q6", 10**400, chapter="01_precision_recall")  # a number with no upper bound
    check("q11", 10**400, chapter="08_comparing_systems")  # the t statistic: no bound either
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["q6", "q11"]
    assert all(line.endswith("is too large: not a number we can mark") for line in lines)


def test_a_list_element_too_large_is_named():
    spec = Value("q1", [0.5, 2.0]).public("demo")  # no bounds: any float is in range
    assert judge_value(spec, [0.5, 10**400]).startswith("q1: element 1: 1000")
    assert judge_value(spec, [0.5, 10**400]).endswith("is too large: not a number we can mark")
    assert judge_format(spec, [0.5, 10**400]).endswith("not a number we can mark")


@pytest.mark.parametrize("own_data", [None, 5, "q1"])
def test_start_refuses_own_data_that_is_not_a_list_of_question_ids(own_data):
    from coursekit.grading.selfcheck import start

    with pytest.raises(TypeError, match="own_data must be a list of question ids"):
        start("01_precision_recall", own_data)


def test_check_and_start_refuse_a_list_as_a_name():
    from coursekit.grading.selfcheck import check, start

    with pytest.raises(TypeError, match=r"the chapter \('03_ap_map'\) must be a string"):
        start(["01_precision_recall"])
    with pytest.raises(TypeError, match=r"the question id \('q1'\) must be a string"):
        check(["q1"], 0.5, chapter="01_precision_recall")
