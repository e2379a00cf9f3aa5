"""The widgets, driven as a click would drive them: every readout equals what the coursekit
function gives for the same inputs, the picture after a change equals a fresh full drawing of
the new state, and every control is labelled."""

from __future__ import annotations

import io

import ipywidgets as w
import numpy as np
import pytest
from PIL import Image

import coursekit as ck
from coursekit.views import widgets


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def readout_numbers(text: str) -> dict[str, float]:
    return {name: float(value) for name, value in (line.split(" = ") for line in text.splitlines())}


# --- set-based explorer (chapter 01) ------------------------------------------------------------


def test_set_based_explorer_follows_its_sliders():
    explorer = widgets.SetBasedExplorer()
    explorer.set_counts(tp=3, fp=1, fn=6, tn=90, beta=2)
    # by hand: P = 3/4, R = 3/9, F2 = 5PR / (4P + R), accuracy = 93/100
    p, r = 3 / 4, 3 / 9
    values = explorer.values
    assert values["precision"] == pytest.approx(p)
    assert values["recall"] == pytest.approx(r)
    assert values["F_beta (beta=2)"] == pytest.approx(5 * p * r / (4 * p + r))
    assert values["F1 (harmonic mean)"] == pytest.approx(2 * p * r / (p + r))
    assert values["arithmetic mean"] == pytest.approx((p + r) / 2)
    assert values["accuracy"] == pytest.approx(93 / 100)
    assert values["F1 (harmonic mean)"] == pytest.approx(ck.f_measure(p, r))
    assert "precision = 0.7500" in explorer.readout()
    assert "0.7500" in explorer.readout_html.value


def test_set_based_explorer_with_nothing_retrieved():
    explorer = widgets.SetBasedExplorer()
    explorer.set_counts(tp=0, fp=0, fn=5, tn=95)
    assert explorer.values["precision"] == 0.0
    assert explorer.values["recall"] == 0.0
    assert explorer.values["accuracy"] == pytest.approx(0.95)


# --- relevance toggler (chapters 02 to 04) ------------------------------------------------------


def test_relevance_toggler_readout_after_a_toggle():
    toggler = widgets.RelevanceToggler(rels=[1, 0, 1, 0, 0, 1], n_relevant=4, k=3)
    toggler.toggle(2)  # now relevant at ranks 1, 2, 3, 6
    assert toggler.rels == [1, 1, 1, 0, 0, 1]
    # by hand: AP = (1/1 + 2/2 + 3/3 + 4/6) / 4; P@3 = 1; R-precision = P@4 = 3/4; RR = 1
    assert toggler.values["AP"] == pytest.approx((1 + 1 + 1 + 4 / 6) / 4)
    assert toggler.values["P@3"] == 1.0
    assert toggler.values["R-precision"] == pytest.approx(3 / 4)
    assert toggler.values["RR"] == 1.0
    assert toggler.values["AP"] == pytest.approx(ck.average_precision(toggler.rels, 4))
    assert readout_numbers(toggler.readout())["AP"] == pytest.approx(round(toggler.values["AP"], 4))


def test_relevance_toggler_raises_n_relevant_to_what_is_found():
    toggler = widgets.RelevanceToggler(rels=[1, 0, 0], n_relevant=1)
    toggler.toggle(3)
    assert toggler.n_relevant.value == 2
    assert toggler.values["AP"] == pytest.approx((1 + 2 / 3) / 2)


def test_relevance_toggler_k_slider_and_table():
    toggler = widgets.RelevanceToggler(rels=[0, 1, 0, 1], n_relevant=2, k=2)
    toggler.k.value = 4
    assert toggler.values["P@4"] == 0.5
    assert "P@2" not in toggler.values
    assert "<table" in toggler.table_html.value


def test_relevance_toggler_buttons_show_their_state():
    toggler = widgets.RelevanceToggler(rels=[1, 0])
    toggler.toggle(2)
    assert [b.button_style for b in toggler.buttons] == ["success", "success"]


def test_relevance_toggler_picture_after_a_toggle_equals_a_fresh_drawing():
    changed = widgets.RelevanceToggler(rels=[1, 0, 1, 1, 0, 0, 1, 0, 0, 1], n_relevant=6)
    changed.toggle(2)
    changed.toggle(9)  # 7 relevant found: the clicks raised n_relevant from 6 to 7
    assert changed.n_relevant.value == 7
    fresh = widgets.RelevanceToggler(rels=[1, 1, 1, 1, 0, 0, 1, 0, 1, 1], n_relevant=7)
    assert np.array_equal(pixels(changed.image.value), pixels(fresh.image.value))


# --- graded judgments (chapter 05) --------------------------------------------------------------


def test_graded_judgments_follow_grade_and_variant():
    graded = widgets.GradedJudgments(gains=(3, 0, 2), variant="jarvelin")
    graded.set_grade(2, 1)  # gains 3, 1, 2; ideal 3, 2, 1
    # Järvelin: rel_1 + sum_{i>=2} rel_i / log2(i)
    dcg = 3 + 1 / np.log2(2) + 2 / np.log2(3)
    ideal = 3 + 2 / np.log2(2) + 1 / np.log2(3)
    assert graded.values["DCG"] == pytest.approx(dcg)
    assert graded.values["ideal DCG"] == pytest.approx(ideal)
    assert graded.values["nDCG"] == pytest.approx(dcg / ideal)
    graded.variant.value = "burges"  # (2^rel - 1) / log2(i + 1)
    dcg = 7 / 1 + 1 / np.log2(3) + 3 / np.log2(4)
    ideal = 7 / 1 + 3 / np.log2(3) + 1 / np.log2(4)
    assert graded.values["nDCG"] == pytest.approx(dcg / ideal)
    assert graded.values["nDCG"] == pytest.approx(ck.ndcg([3, 1, 2], variant="burges"))


def test_graded_judgments_with_judged_documents_not_retrieved():
    graded = widgets.GradedJudgments(gains=(1, 0), ideal=(3, 1, 0), variant="trec")
    # ideal from all judged grades: 3, 1
    assert graded.values["nDCG"] == pytest.approx(1 / (3 + 1 / np.log2(3)))


def test_graded_picture_after_changes_equals_a_fresh_drawing():
    changed = widgets.GradedJudgments(gains=(3, 2, 3, 0, 0, 1, 2, 2, 3, 0))
    changed.set_grade(2, 0)
    changed.set_grade(10, 3)  # the curves grow: the y limit must follow
    fresh = widgets.GradedJudgments(gains=(3, 0, 3, 0, 0, 1, 2, 2, 3, 3))
    assert np.array_equal(pixels(changed.image.value), pixels(fresh.image.value))
    changed.variant.value = "burges"
    fresh.variant.value = "burges"
    assert np.array_equal(pixels(changed.image.value), pixels(fresh.image.value))


# --- recall-oriented (chapter 06) ---------------------------------------------------------------


@pytest.mark.parametrize("name", list(widgets.RecallOriented.PRESETS))
def test_recall_oriented_presets(name):
    explorer = widgets.RecallOriented()
    explorer.load(name)
    ranks = widgets.RecallOriented.PRESETS[name]
    rels = ck.rels_from_ranks(ranks, 100)
    ap = ck.average_precision(rels, 4)
    assert explorer.values["AP (at N_max)"] == pytest.approx(ap)
    assert explorer.values["recall (at N_max)"] == pytest.approx(len(ranks) / 4)
    assert explorer.values["PRES"] == pytest.approx(ck.pres(rels, 4, 100))
    assert explorer.values["MOR"] == pytest.approx(ck.mor(rels, 4, 100))
    assert explorer.values["F′ (β=4)"] == pytest.approx(ck.f_prime(ap, len(ranks) / 4, 4.0))


def test_recall_oriented_system_5_by_hand():
    explorer = widgets.RecallOriented()
    explorer.load("system 5")  # one relevant document at rank 1 of 4
    # PRES (Magdy & Jones 2010, eq. 7): the i-th relevant document, if missing, is placed at
    # N_max + i, so the 2nd, 3rd and 4th go to 102, 103, 104:
    # 1 - ((1 + 102 + 103 + 104) / 4 - 5 / 2) / 100 = 1 - 75 / 100
    assert explorer.values["PRES"] == pytest.approx(1 - ((310 / 4) - 2.5) / 100)
    assert explorer.values["AP (at N_max)"] == pytest.approx(1 / 4)


def test_recall_oriented_reports_bad_ranks_in_its_message():
    explorer = widgets.RecallOriented()
    before = dict(explorer.values)
    explorer.ranks.value = "1, two, 3"
    assert "invalid literal" in explorer.message.value or explorer.message.value
    assert explorer.values == before  # the readout keeps the last valid state
    explorer.ranks.value = "1, 2"
    assert explorer.message.value == ""


def test_recall_oriented_picture_after_a_preset_equals_a_fresh_drawing():
    changed = widgets.RecallOriented()
    changed.load("system 3")
    fresh = widgets.RecallOriented(ranks=(1, 98, 99, 100))
    assert np.array_equal(pixels(changed.image.value), pixels(fresh.image.value))


# --- rank correlation (chapter 07) --------------------------------------------------------------


def test_rank_correlation_after_swaps():
    corr = widgets.RankCorrelation(["A", "B", "C", "D"])
    corr.swap(1, 1)  # second ranking: B A C D -> one discordant pair (A, B)
    assert corr.values["Kendall tau"] == pytest.approx((5 - 1) / 6)
    # d = (1, 1, 0, 0): rho = 1 - 6 * 2 / (4 * 15)
    assert corr.values["Spearman rho"] == pytest.approx(1 - 12 / 60)
    assert corr.values["concordant pairs"] == 5
    assert corr.values["discordant pairs"] == 1
    assert [label.value for label in corr.labels[1]] == ["1. B", "2. A", "3. C", "4. D"]
    assert "discordant" in corr.pairs_html.value


def test_rank_correlation_swap_out_of_range():
    corr = widgets.RankCorrelation(["A", "B"])
    with pytest.raises(ValueError, match="position must be between 1 and 1"):
        corr.swap(0, 2)


def test_rank_correlation_buttons_swap():
    corr = widgets.RankCorrelation(["A", "B", "C"])
    buttons = [c for c in corr.rows[0].children if isinstance(c, w.Button)]
    buttons[1].click()  # swaps positions 2 and 3 of the first ranking
    assert corr.orders[0] == ["A", "C", "B"]
    assert corr.values["Kendall tau"] == pytest.approx((2 - 1) / 3)


# --- what every widget shares ---------------------------------------------------------------------


def all_widgets():
    return [
        widgets.SetBasedExplorer(),
        widgets.RelevanceToggler(),
        widgets.GradedJudgments(),
        widgets.RecallOriented(),
        widgets.RankCorrelation(),
    ]


def controls(widget: w.Widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from controls(child)


@pytest.mark.parametrize("view", all_widgets(), ids=lambda v: type(v).__name__)
def test_every_control_says_what_it_does(view):
    for control in controls(view.widget):
        if isinstance(control, (w.Button, w.ToggleButton)):
            assert control.description and control.tooltip, control
        elif isinstance(control, (w.IntSlider, w.FloatSlider, w.FloatLogSlider, w.Dropdown)):
            assert control.description, control
        elif isinstance(control, (w.BoundedIntText, w.Text, w.ToggleButtons)):
            assert control.description, control


@pytest.mark.parametrize("view", all_widgets(), ids=lambda v: type(v).__name__)
def test_stable_repr_and_readout(view):
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"].startswith(type(view).__name__)
    assert "0x" not in bundle["text/plain"]
    assert view.readout().count("\n") == len(view.values) - 1


def test_widgets_use_no_output_widget():
    for view in all_widgets():
        assert not any(isinstance(c, w.Output) for c in controls(view.widget))


def test_graded_ideal_follows_a_grade_raised_above_the_judged_ones():
    graded = widgets.GradedJudgments(
        gains=(3, 2, 0, 3, 1, 0, 0, 2), ideal=(3, 3, 2, 2, 1, 1, 0, 0, 0)
    )
    graded.set_grade(3, 3)
    graded.set_grade(5, 3)  # gains 3 2 3 3 3 0 0 2; the unretrieved judged grade 1 stays
    assert graded.values["nDCG"] <= 1.0
    judged = [3, 2, 3, 3, 3, 0, 0, 2, 1]
    assert graded.values["nDCG"] == pytest.approx(
        ck.ndcg([3, 2, 3, 3, 3, 0, 0, 2], k=8, ideal=judged, variant="jarvelin")
    )


def test_graded_ideal_must_include_the_ranked_grades():
    with pytest.raises(ValueError, match="ideal must list every judged grade"):
        widgets.GradedJudgments(gains=(3, 3), ideal=(3, 1))


def test_graded_ideal_need_not_list_the_zeros_of_unjudged_documents():
    # ranks 2 and 3 unjudged (grade 0), the judged grades 1 and 0: accepted as ndcg accepts
    # it. By hand, Järvelin's form: DCG = 1, IDCG = 1, nDCG = 1
    graded = widgets.GradedJudgments(gains=(1, 0, 0), ideal=(1, 0))
    assert graded.values["nDCG"] == pytest.approx(1.0)
    assert graded.values["nDCG"] == pytest.approx(ck.ndcg([1, 0, 0], ideal=[1, 0]))


def test_graded_set_variant():
    graded = widgets.GradedJudgments(gains=(1, 0, 1))
    graded.set_variant("trec")
    assert graded.values["DCG"] == pytest.approx(1 + 1 / np.log2(4))
    with pytest.raises(ValueError, match="unknown DCG variant"):
        graded.set_variant("nope")


def test_set_based_bars_after_a_change_equal_a_fresh_drawing():
    changed = widgets.SetBasedExplorer()
    changed.set_counts(tp=3, fp=9)
    fresh = widgets.SetBasedExplorer(tp=3, fp=9)
    assert np.array_equal(pixels(changed.image.value), pixels(fresh.image.value))


# --- clones, labels, messages, the lecture look ---------------------------------------------------


@pytest.mark.parametrize(
    "make, click",
    [
        (lambda: widgets.SetBasedExplorer(tp=4, fp=2, fn=11, tn=81), lambda x: x.set_counts(tp=9)),
        (lambda: widgets.RelevanceToggler([1, 0, 1]), lambda x: x.toggle(2)),
        (lambda: widgets.GradedJudgments((3, 0, 2)), lambda x: x.set_variant("burges")),
        (lambda: widgets.RecallOriented(), lambda x: x.load("system 3")),
        (lambda: widgets.RankCorrelation(("A", "B", "C")), lambda x: x.swap(1, 1)),
    ],
)
def test_a_clone_is_clicked_the_shown_widget_keeps_its_state(make, click):
    shown = make()
    before = dict(shown.values)
    clone = shown.clone()
    assert clone.values == before and clone is not shown
    click(clone)
    assert shown.values == before and clone.values != before


def test_set_based_sliders_fit_their_values():
    explorer = widgets.SetBasedExplorer(tp=4, fp=2, fn=11, tn=81)
    assert [s.max for s in explorer.sliders.values()] == [20, 20, 30, 170]
    explorer.set_counts(tp=300)
    assert explorer.sliders["tp"].value == 300
    explorer.set_counts(beta=2**-0.25)
    assert "F_beta (beta=0.841)" in explorer.values


def test_graded_variant_buttons_show_readable_names_and_keep_the_codes():
    graded = widgets.GradedJudgments((3, 0, 2), variant="trec")
    assert graded.variant._options_labels[0] == "Järvelin & Kekäläinen (2002)"
    assert graded.variant.value == "trec"
    assert list(graded.variant.icons) == ["", "check", ""]


def test_recall_oriented_bad_input_marks_the_readout_and_hides_the_figure():
    explorer = widgets.RecallOriented()
    explorer.ranks.value = "1, x, 3"
    assert "“x” is not a rank" in explorer.message.value
    assert "line-through" in explorer.readout_html.value
    assert explorer.image.layout.visibility == "hidden"
    explorer.ranks.value = "1, 3"
    assert explorer.message.value == "" and "line-through" not in explorer.readout_html.value
    assert explorer.image.layout.visibility != "hidden"


def test_lecture_mode_enlarges_widget_figures_and_readouts():
    from coursekit.views import lecture_mode, style

    small = widgets.RelevanceToggler([1, 0, 1])
    lecture_mode()
    try:
        big = widgets.RelevanceToggler([1, 0, 1])
        assert pixels(big.image.value).shape[1] > 1.4 * pixels(small.image.value).shape[1]
        assert "1.3em" in big.readout_html.value
        assert style.smallest_font_px() >= 16
    finally:
        lecture_mode(False)
    assert style.current() == "default"


def test_erratum_box_uses_the_theme_colours():
    from coursekit.views.display import erratum

    box = erratum("s", "q", 1, 2, "c")._repr_html_()
    assert "var(--jp-content-font-color1" in box and "var(--jp-layout-color2" in box


def test_relevance_toggler_table_is_sideways_with_two_decimals_and_scrolls():
    toggler = widgets.RelevanceToggler(rels=[1, 0, 1] * 7, n_relevant=15)
    table = toggler.table_html.value
    assert "overflow-x:auto" in table
    assert ">0.67<" in table and ">0.667<" not in table  # P(3) = 2/3, to 2 decimals
    assert table.count("<tr>") == 5  # rank, relevant, TP, P(k), R(k)
