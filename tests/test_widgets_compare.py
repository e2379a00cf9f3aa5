"""The CompareSystems widget (chapter 08), driven as a click would drive it.

Expected values are computed here, by hand or with scipy.stats directly, never read back from the
widget; the picture after a change must equal a fresh drawing of the same state.
"""

from __future__ import annotations

import io
import itertools
import math
import re

import ipywidgets as w
import numpy as np
import pandas as pd
import pytest
from PIL import Image
from scipy import stats

import coursekit as ck
from coursekit import course
from coursekit.views.widgets import CompareSystems

QUERIES = ["q1", "q2", "q3", "q4", "q5", "q6"]
# AP and P@5 of three systems on six queries; "new" beats "base" on q1, q2, q4, q6, loses on
# q5 and ties on q3.
AP = pd.DataFrame(
    {
        "base": [0.20, 0.40, 0.30, 0.10, 0.50, 0.25],
        "new": [0.30, 0.55, 0.30, 0.35, 0.45, 0.45],
        "other": [0.10, 0.20, 0.60, 0.15, 0.50, 0.05],
    },
    index=QUERIES,
)
P5 = pd.DataFrame(
    {
        "base": [0.2, 0.4, 0.4, 0.0, 0.6, 0.2],
        "new": [0.4, 0.4, 0.6, 0.2, 0.6, 0.4],
        "other": [0.0, 0.2, 0.8, 0.2, 0.4, 0.0],
    },
    index=QUERIES,
)


def tables() -> dict[str, pd.DataFrame]:
    return {"AP": AP.copy(), "P@5": P5.copy()}


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def readout_numbers(text: str) -> dict[str, float]:
    lines = text.splitlines()[1:]  # the first line names A, B and the measure
    return {
        name: float(value.removesuffix(" %"))
        for name, value in (line.split(" = ") for line in lines if not line.startswith("note:"))
    }


def test_gain_is_a_percentage_with_its_sign():
    view = CompareSystems(tables(), a="base", b="new")
    line = next(x for x in view.readout().splitlines() if x.startswith("gain %"))
    assert re.fullmatch(r"gain % \(B over A\) = -?\d+\.\d\d %", line)
    assert line.endswith(f"{view.values['gain % (B over A)']:.2f} %")


def test_the_y_axis_fits_the_differences_symmetrically():
    frame = pd.DataFrame({"x": [0.5, 0.5, 0.5], "y": [0.5056, 0.5, 0.4990]}, index=["a", "b", "c"])
    view = CompareSystems({"AP": frame}, a="x", b="y")
    low, high = view._canvas.ax.get_ylim()
    assert low == -high and 0.0056 < high <= 0.01


def test_the_image_keeps_its_aspect_ratio_in_the_flex_box():
    view = CompareSystems(tables())
    layout = view.image.layout
    assert layout.height == "auto" and layout.align_self == "flex-start"
    assert layout.flex == "0 0 auto"


def exact_randomization_p(a, b) -> float:
    """Two-sided p of the paired randomization test, by enumerating every swap of A and B
    within queries (2**n of them): the share of swaps whose |mean difference| reaches the
    observed one."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    observed = abs(d.mean())
    flips = itertools.product((1, -1), repeat=d.size)
    means = [abs(np.mean(d * np.array(signs))) for signs in flips]
    return sum(m >= observed - 1e-12 for m in means) / len(means)


# --- the numbers ---------------------------------------------------------------------------------


def test_readout_by_hand_and_with_scipy():
    view = CompareSystems(tables(), a="base", b="new", measure="AP")
    base, new = AP["base"].to_numpy(), AP["new"].to_numpy()
    mean_a = (0.20 + 0.40 + 0.30 + 0.10 + 0.50 + 0.25) / 6  # 0.291666...
    mean_b = (0.30 + 0.55 + 0.30 + 0.35 + 0.45 + 0.45) / 6  # 0.4
    values = view.values
    assert values["mean A"] == pytest.approx(mean_a)
    assert values["mean B"] == pytest.approx(mean_b)
    assert values["difference of means (B − A)"] == pytest.approx(mean_b - mean_a)
    assert values["gain % (B over A)"] == pytest.approx(100 * (mean_b - mean_a) / mean_a)
    assert values["queries where B is higher"] == 4
    assert values["queries where A is higher"] == 1
    assert values["paired t-test p"] == pytest.approx(stats.ttest_rel(new, base).pvalue)
    # scipy's Wilcoxon on the five non-zero differences (zero_method="wilcox")
    nonzero = (new - base)[new != base]
    assert values["Wilcoxon p"] == pytest.approx(stats.wilcoxon(nonzero).pvalue)
    # 2**6 = 64 swaps <= 2000 resamples: the randomization test is exact
    assert values["randomization p"] == pytest.approx(exact_randomization_p(new, base))


def test_readout_text_names_the_systems_and_rounds():
    view = CompareSystems(tables(), a="base", b="new")
    lines = view.readout().splitlines()
    assert lines[0] == "A: base · B: new · AP over 6 queries"
    assert "mean B = 0.4000" in lines
    numbers = readout_numbers(view.readout())
    assert numbers["mean A"] == round((0.20 + 0.40 + 0.30 + 0.10 + 0.50 + 0.25) / 6, 4)
    assert "base" in view.readout_html.value and "<table" in view.readout_html.value


def test_differences_are_b_minus_a():
    view = CompareSystems(tables(), a="other", b="base", measure="P@5")
    expected = [0.2 - 0.0, 0.4 - 0.2, 0.4 - 0.8, 0.0 - 0.2, 0.6 - 0.4, 0.2 - 0.0]
    assert list(view.differences.index) == QUERIES
    assert view.differences.to_numpy() == pytest.approx(expected)


def test_on_the_course_collection():
    collection = course.load_collection()
    measures = ["AP", "nDCG@10"]
    evaluations = {
        s: ck.evaluate(collection.runs[s], collection.qrels, measures, missing_as_zero=True)
        for s in ("bm25", "bm25_stem", "tfidf")
    }
    view = CompareSystems.from_evaluations(evaluations, a="bm25", b="bm25_stem")
    a = evaluations["bm25"].table()["AP"].to_numpy()
    b = evaluations["bm25_stem"].table()["AP"].to_numpy()
    assert len(view.queries) == len(collection.topics)
    assert view.values["mean A"] == pytest.approx(a.mean())
    assert view.values["paired t-test p"] == pytest.approx(stats.ttest_rel(b, a).pvalue)
    assert view.values["Wilcoxon p"] == pytest.approx(
        stats.wilcoxon(b, a, zero_method="wilcox").pvalue
    )
    view.measure.value = "nDCG@10"
    n_b = evaluations["bm25_stem"].table()["nDCG@10"].to_numpy()
    n_a = evaluations["bm25"].table()["nDCG@10"].to_numpy()
    assert view.values["difference of means (B − A)"] == pytest.approx(n_b.mean() - n_a.mean())


# --- changes -------------------------------------------------------------------------------------


def test_a_menu_change_updates_the_readout():
    view = CompareSystems(tables(), a="base", b="new")
    before = view.readout()
    view.b.value = "other"  # what choosing "other" in the menu does
    assert view.readout() != before
    assert view.readout().splitlines()[0] == "A: base · B: other · AP over 6 queries"
    assert view.values["mean B"] == pytest.approx(AP["other"].mean())
    assert view.values["paired t-test p"] == pytest.approx(
        stats.ttest_rel(AP["other"], AP["base"]).pvalue
    )
    view.measure.value = "P@5"
    assert view.values["mean A"] == pytest.approx(P5["base"].mean())
    assert view.values["queries where B is higher"] == 2  # q3: 0.8 > 0.4, q4: 0.2 > 0.0


def test_select_changes_several_menus_at_once():
    view = CompareSystems(tables(), a="base", b="new")
    view.select(a="other", b="base", measure="P@5")
    assert (view.a.value, view.b.value, view.measure.value) == ("other", "base", "P@5")
    assert view.values["mean B"] == pytest.approx(P5["base"].mean())


def test_picture_after_changes_equals_a_fresh_drawing():
    changed = CompareSystems(tables(), a="base", b="new", measure="AP")
    changed.b.value = "other"  # bars only
    changed.measure.value = "P@5"  # another frame
    changed.a.value = "new"
    fresh = CompareSystems(tables(), a="new", b="other", measure="P@5")
    assert np.array_equal(pixels(changed.image.value), pixels(fresh.image.value))
    changed.measure.value = "AP"  # back to a frame already drawn
    fresh_ap = CompareSystems(tables(), a="new", b="other", measure="AP")
    assert np.array_equal(pixels(changed.image.value), pixels(fresh_ap.image.value))
    assert not np.array_equal(pixels(changed.image.value), pixels(fresh.image.value))


def test_new_y_limits_and_measures_redraw_like_a_fresh_drawing():
    # 12 queries (more than 8 bars: the bars are drawn as one collection); "near" differs from
    # "base" by at most 0.04 (y axis ±0.05), "far" by up to 0.6 (y axis ±0.75)
    queries = [f"q{i}" for i in range(1, 13)]
    base = np.linspace(0.1, 0.65, 12)
    near = base + np.array([0.04, -0.03, 0, 0.01, -0.02, 0.03, 0, 0, -0.04, 0.02, 0.01, 0])
    far = np.clip(base + np.array([0.6, -0.1, 0.2, 0, -0.3, 0.1, 0.3, -0.2, 0, 0.1, 0, 0]), 0, 1)
    ap = pd.DataFrame({"base": base, "near": near, "far": far}, index=queries)
    scores = {"AP": ap, "P@5": ap.round(1)}
    view = CompareSystems(scores, a="base", b="near", measure="AP")
    canvas = view._canvas
    for choice, limit in [
        (("base", "far", "AP"), 0.75),  # a new y limit
        (("base", "far", "P@5"), 0.75),  # a new measure
        (("base", "near", "AP"), 0.05),  # back to the first frame
        (("far", "near", "P@5"), 0.75),
    ]:
        view.select(*choice)
        fresh = CompareSystems(scores, *choice)
        assert view._canvas.ax.get_ylim() == pytest.approx((-limit, limit))
        assert np.array_equal(pixels(view.image.value), pixels(fresh.image.value)), choice
    assert view._canvas is canvas  # every frame drawn on the axes built first


def test_the_bars_are_the_differences():
    view = CompareSystems(tables(), a="base", b="new")
    view.b.value = "other"
    heights = [bar.get_height() for bar in view._canvas.ax.patches]
    assert heights == pytest.approx((AP["other"] - AP["base"]).tolist())


# --- edge cases ----------------------------------------------------------------------------------


def test_the_same_system_twice_is_allowed_and_said():
    view = CompareSystems(tables(), a="base", b="new")
    view.b.value = "base"
    assert view.values["difference of means (B − A)"] == 0
    assert view.values["gain % (B over A)"] == 0
    assert view.values["paired t-test p"] == 1.0
    assert view.values["Wilcoxon p"] == 1.0
    assert view.values["randomization p"] == 1.0
    assert "same system" in view.readout()
    assert "same system" in view.readout_html.value
    view.b.value = "new"
    assert "same system" not in view.readout()


def test_gain_over_a_zero_baseline_is_undefined():
    frame = pd.DataFrame({"zero": [0.0, 0.0, 0.0], "some": [0.1, 0.0, 0.3]}, index=["a", "b", "c"])
    view = CompareSystems({"AP": frame}, a="zero", b="some")
    assert math.isnan(view.values["gain % (B over A)"])
    assert "undefined" in view.readout()
    assert view.values["mean B"] == pytest.approx(0.4 / 3)


def test_the_same_difference_on_every_query_leaves_the_t_test_undefined():
    # B = A + 0.1 on every query: no spread, so no t statistic (the other tests still run:
    # B is higher on all three queries, so Wilcoxon's exact p is 2 / 2**3 = 0.25)
    frame = pd.DataFrame({"a": [0.1, 0.2, 0.4], "b": [0.2, 0.3, 0.5]}, index=["x", "y", "z"])
    view = CompareSystems({"AP": frame}, a="a", b="b")
    assert math.isnan(view.values["paired t-test p"])
    assert view.values["Wilcoxon p"] == pytest.approx(0.25)
    assert "every difference B − A is the same" in view.readout()


def test_query_order_of_later_tables_follows_the_first():
    shuffled = tables()
    shuffled["P@5"] = P5.iloc[::-1][["other", "new", "base"]]
    view = CompareSystems(shuffled, a="base", b="new", measure="P@5")
    assert view.differences.to_numpy() == pytest.approx((P5["new"] - P5["base"]).to_numpy())


# --- bad input -----------------------------------------------------------------------------------


def test_unknown_names():
    with pytest.raises(ValueError, match="unknown system A 'bm25'"):
        CompareSystems(tables(), a="bm25")
    with pytest.raises(ValueError, match="unknown measure 'MAP'"):
        CompareSystems(tables(), measure="MAP")
    view = CompareSystems(tables())
    with pytest.raises(ValueError, match="unknown system B 'nope'.*'base', 'new', 'other'"):
        view.select(b="nope")
    assert view.b.value == "new"  # nothing changed


def test_mismatched_queries_and_systems():
    bad = tables()
    bad["P@5"] = P5.drop(index="q6")
    with pytest.raises(ValueError, match="queries of measure 'P@5' differ.*only in 'AP': 'q6'"):
        CompareSystems(bad)
    bad = tables()
    bad["P@5"] = P5.rename(columns={"other": "bm25"})
    with pytest.raises(ValueError, match="systems of measure 'P@5' differ.*'bm25'"):
        CompareSystems(bad)


def test_missing_scores_and_other_bad_tables():
    holes = tables()
    holes["AP"].loc["q4", "new"] = np.nan
    with pytest.raises(ValueError, match="'new' has no finite score for query 'q4'"):
        CompareSystems(holes)
    with pytest.raises(ValueError, match="at least two queries"):
        CompareSystems({"AP": AP.iloc[:1]})
    with pytest.raises(ValueError, match="empty"):
        CompareSystems({})
    with pytest.raises(TypeError, match="must be a DataFrame"):
        CompareSystems({"AP": [0.1, 0.2]})
    with pytest.raises(ValueError, match="query 'q1' appears twice"):
        CompareSystems({"AP": pd.concat([AP, AP.iloc[:1]])})
    with pytest.raises(ValueError, match="n_resamples"):
        CompareSystems(tables(), n_resamples=0)


def test_evaluations_over_different_queries():
    collection = course.load_collection()
    evaluations = {  # without missing_as_zero the Boolean run keeps only the topics it answers
        s: ck.evaluate(collection.runs[s], collection.qrels, ["AP"]) for s in ("bm25", "bool_and")
    }
    with pytest.raises(ValueError, match="different queries.*missing_as_zero=True"):
        CompareSystems.from_evaluations(evaluations)
    with pytest.raises(TypeError, match="must be a coursekit Evaluation"):
        CompareSystems.from_evaluations({"bm25": AP})


# --- what every widget does ----------------------------------------------------------------------


def controls(widget: w.Widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from controls(child)


def test_controls_are_labelled_and_no_output_widget():
    view = CompareSystems(tables())
    menus = [c for c in controls(view.widget) if isinstance(c, w.Dropdown)]
    assert [m.description for m in menus] == ["system A", "system B", "measure"]
    assert not any(isinstance(c, w.Output) for c in controls(view.widget))
    assert view.image in list(controls(view.widget))


def test_stable_repr():
    bundle = CompareSystems(tables())._repr_mimebundle_()
    assert bundle["text/plain"] == "CompareSystems widget (interactive when the notebook runs)"


def test_show_static_displays_picture_and_readout(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    view = CompareSystems(tables(), a="base", b="other")
    view.show_static()
    assert [type(obj).__name__ for obj in shown] == ["Image", "HTML"]
    assert "B: other" in shown[1].data


def test_a_clone_changes_without_changing_the_widget_shown():
    shown = CompareSystems(tables(), a="base", b="new", measure="AP")
    before = shown.readout()
    clone = shown.clone()
    clone.select(a="new", b="other", measure="P@5")
    assert shown.readout() == before
    assert clone.readout() != before and clone.n_resamples == shown.n_resamples
