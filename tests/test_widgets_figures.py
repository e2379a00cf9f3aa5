"""Defects of issue 35 that must stay fixed: what the widgets show (labels, figures) and how
much of a figure a change redraws (the latency of a click)."""

from __future__ import annotations

import io
import itertools
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from PIL import Image  # noqa: E402

from coursekit.views import plots  # noqa: E402
from coursekit.views.widgets import (  # noqa: E402
    AssessorAgreement,
    GradedJudgments,
    RecallOriented,
    SetBasedExplorer,
)

#: Chapter 09's topic 6: ten documents judged twice, five systems' rankings.
ITEMS = ["W020", "W026", "W027", "W028", "W029", "W030", "W063", "W067", "W171", "W241"]
RANKINGS = {
    "bm25": ["W026", "W030", "W027", "W067"],
    "bm25_b0_stem": ["W026", "W030", "W171", "W067", "W027"],
    "bm25_stem": ["W026", "W030", "W027", "W171", "W067"],
    "bool_and": ["W026"],
    "tfidf": ["W026", "W030", "W027", "W067"],
}
#: Chapter 09's MAP of each system under the two assessors (its scatter plot).
MAP_1 = {"bm25": 0.4346, "bm25_b0_stem": 0.4991, "bm25_stem": 0.5052, "bool_and": 0.0803}
MAP_2 = {"bm25": 0.4317, "bm25_b0_stem": 0.4732, "bm25_stem": 0.4923, "bool_and": 0.0694}
MAP_1["tfidf"], MAP_2["tfidf"] = 0.4278, 0.4210


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def test_the_assessor_buttons_show_the_document_ids_whole():
    # chapter 09: the buttons were 4.2em wide, and "W020" showed as "W0…"
    view = AssessorAgreement(
        first=[1, 1, 1, 1, 1, 1, 1, 1, 0, 1],
        second=[0, 1, 1, 1, 1, 1, 0, 1, 0, 1],
        items=ITEMS,
        rankings=RANKINGS,
    )
    for row in view.buttons:
        assert [b.description for b in row] == ITEMS
        for button in row:  # as wide as the id, whatever its length
            assert button.layout.width == "auto"
    view.toggle(2, "W020")
    assert view.buttons[1][0].description == "W020" and view.buttons[1][0].value


def test_the_chapter_09_scatter_labels_stand_clear_of_each_other_and_of_the_points():
    # chapter 09 draws a diagonal after the scatter: its new limits moved the points under
    # labels placed before ("bm25" printed over "bm25_b0_stem", names over other points)
    fig, ax = plt.subplots(figsize=(6, 4))
    plots.labelled_scatter(MAP_1, MAP_2, ax=ax, title="MAP", xlabel="assessor 1", ylabel="2")
    ax.plot([0, 1], [0, 1], color="grey", ls="--", lw=1, label="same MAP")
    ax.legend(loc="lower right", fontsize="small")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = {t.get_text(): t.get_window_extent(renderer) for t in ax.texts}
    assert sorted(boxes) == sorted(MAP_1)
    for (a, box_a), (b, box_b) in itertools.combinations(boxes.items(), 2):
        assert not box_a.overlaps(box_b), (a, b)
    inside = ax.get_window_extent(renderer)
    legend = ax.get_legend().get_window_extent(renderer)
    radius = np.sqrt(36) / 2 * renderer.points_to_pixels(1.0)  # the scatter's markers
    for name, box in boxes.items():
        assert inside.x0 <= box.x0 and box.x1 <= inside.x1, name
        assert inside.y0 <= box.y0 and box.y1 <= inside.y1, name
        assert not box.overlaps(legend), name
        for other in MAP_1:
            x, y = ax.transData.transform((MAP_1[other], MAP_2[other]))
            marker = matplotlib.transforms.Bbox.from_extents(
                x - radius, y - radius, x + radius, y + radius
            )
            assert not box.overlaps(marker), (name, other)
    plt.close(fig)


# --- a change redraws no more than it must, and gives the picture of a fresh widget --------


@pytest.fixture
def full_drawings(monkeypatch):
    """Counts the full drawings of a figure (FigureCanvasAgg.draw) made from now on."""
    calls = []
    draw = FigureCanvasAgg.draw

    def counted(self, *args, **kwargs):
        calls.append(self)
        return draw(self, *args, **kwargs)

    monkeypatch.setattr(FigureCanvasAgg, "draw", counted)
    return calls


def test_a_new_beta_redraws_no_frame_and_shows_what_a_fresh_widget_shows(full_drawings):
    # chapter 01: every beta (its bar's name) drew the whole figure again, 60-130 ms a step
    view = SetBasedExplorer(tp=4, fp=2, fn=11, tn=81)
    full_drawings.clear()
    for beta in (2.0, 0.5, 4.0):
        view.set_counts(beta=beta)
    view.set_counts(tp=6)
    assert full_drawings == []
    fresh = SetBasedExplorer(tp=6, fp=2, fn=11, tn=81, beta=4.0)
    assert np.array_equal(pixels(view.image.value), pixels(fresh.image.value))


def test_a_new_dcg_formula_reuses_the_axes_and_shows_a_fresh_drawing(full_drawings):
    # chapter 05: the first use of a formula built a new figure (60-200 ms)
    gains, ideal = (3, 2, 3, 0, 0, 1, 2, 2, 3, 0), (3, 3, 3, 2, 2, 2, 1, 0, 0, 0, 0)
    view = GradedJudgments(gains, ideal=ideal, variant="jarvelin")
    full_drawings.clear()
    for variant in ("trec", "burges"):
        view.set_variant(variant)
    assert full_drawings == []  # only the y axis, the title and the legend are drawn again
    fresh = GradedJudgments(gains, ideal=ideal, variant="burges")
    assert np.array_equal(pixels(view.image.value), pixels(fresh.image.value))


@pytest.mark.parametrize(
    ("changes", "state"),
    [
        ({"n_relevant": 5}, {"n_relevant": 5}),
        ({"n_relevant": 7, "n_max": 60}, {"n_relevant": 7, "n_max": 60}),
        ({"n_max": 120, "ranks": "1, 110"}, {"n_max": 120, "ranks": (1, 110)}),
    ],
)
def test_a_new_relevant_count_or_n_max_shows_a_fresh_drawing(full_drawings, changes, state):
    # chapter 06: each "relevant in total" built a new figure (60-130 ms)
    view = RecallOriented()
    full_drawings.clear()
    for name, value in changes.items():
        getattr(view, name).value = value
    assert full_drawings == []  # the axes and spines only, over the rest drawn once
    fresh = RecallOriented(**state)
    assert np.array_equal(pixels(view.image.value), pixels(fresh.image.value))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_online_menus_leave_room_for_the_longest_choice(language):
    # chapter 10: "position-based" and "bm25_b0_stem" were cut in 16em menus with a 6em
    # description; at about 0.62em a character and 2em for the arrow, they need 11em. The
    # menus show their choices' labels (the click models' in the language in use)
    import coursekit as ck
    from coursekit.views.widgets import OnlineExperiment

    rankings = {s: {"q1": ["d1", "d2"]} for s in ("bm25_b0_stem", "tfidf")}
    ck.set_language(language)
    try:
        view = OnlineExperiment(rankings, {"q1": {"d1": 1}}, max_sessions=20, n_sessions=10)
    finally:
        ck.set_language("en")
    for menu in (view.a, view.b, view.model):
        room = float(menu.layout.width.removesuffix("em"))
        room -= float(menu.style.description_width.removesuffix("em"))
        longest = max(len(label) for label in menu._options_labels)
        assert room >= 0.62 * longest + 2.5, (menu.description, room)


def test_a_clone_of_chapter_05s_widget_keeps_a_changed_grade():
    """A grade changed (3 -> 0) then cloned: the clone's ideal DCG is the widget's (the
    judged grades are the ones chosen, not the constructor's)."""
    from coursekit.views.widgets import GradedJudgments

    shown = GradedJudgments([3, 2, 0, 1], ideal=[3, 2, 1, 3, 2])
    shown.grades[0].value = 0  # the first document is now judged 0
    twin = shown.clone()
    assert twin.values == shown.values
    # by hand: judged grades 2, 1 (ranked) and 3, 2 (not retrieved): ideal 3, 2, 2, 1
    expected = 3 + 2 + 2 / math.log2(3) + 1 / math.log2(4)  # Järvelin: rel_1 + rel_i/log2 i
    assert twin.values["ideal DCG"] == pytest.approx(expected)
