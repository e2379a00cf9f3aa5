"""The widgets' blitted canvas gives the picture a full matplotlib drawing gives."""

from __future__ import annotations

import io

import matplotlib.image as mpimg
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from coursekit.views.widgets.canvas import BlitCanvas, new_figure


def _draw_with(y: np.ndarray):
    def draw(ax) -> None:
        x = np.arange(y.size)
        ax.plot(x, y, label="first")
        ax.plot(x, y[::-1], label="second")
        ax.set_title("two lines")
        ax.set_ylim(0, 10)
        ax.legend(loc="upper left")
        ax.get_legend().get_frame().set_alpha(1.0)  # (as BlitCanvas makes it: opaque)

    return draw


def _full_drawing(draw) -> np.ndarray:
    figure, ax = new_figure()
    canvas = FigureCanvasAgg(figure)
    draw(ax)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3] / 255.0


@pytest.mark.parametrize("redrawn", [False, True])
def test_the_blitted_picture_is_the_full_drawing_with_one_legend(redrawn):
    # the legend is pasted back over the data from the kept frame; pasted at the wrong place
    # (twice its own offset, as matplotlib's restore_region does without xy) it shows twice
    # and hides the data below the copy: about 1,500 pixels differ
    y = np.linspace(9, 1, 10) ** 0.9
    blit = BlitCanvas()
    if redrawn:  # the frame kept by a first drawing, only the data drawn again
        blit.png("key", _draw_with(np.linspace(1, 9, 10)))
    picture = mpimg.imread(io.BytesIO(blit.png("key", _draw_with(y))))[..., :3]
    differ = np.any(np.abs(picture - _full_drawing(_draw_with(y))) > 0.02, axis=-1)
    assert int(differ.sum()) == 0


def test_an_assessor_widget_shows_long_system_names_whole():
    # system names of 12 characters were cut at the figure's left edge ("bm25_b0_stem" showed
    # as "b0_stem"): every tick label must lie inside the figure
    from coursekit.views.widgets.assessors import AssessorAgreement

    rankings = {"bm25_b0_stem": ["d1", "d2"], "bool_and_long_name": ["d2", "d1"], "s": ["d1"]}
    view = AssessorAgreement([1, 0], [0, 1], rankings, ["d1", "d2"])
    canvas = view._canvas
    canvas.canvas.draw()
    renderer = canvas.canvas.get_renderer()
    labels = [t for t in canvas.ax.get_yticklabels() if t.get_text()]
    assert sorted(t.get_text() for t in labels) == sorted(rankings)
    assert min(t.get_window_extent(renderer).x0 for t in labels) >= 0


def test_the_compare_widget_legend_stands_above_the_bars_beside_the_title():
    # a legend inside the axes hid the top of a tall bar at the right (the y limit is the
    # tallest bar's, rounded up): it now stands above the axes, right of the title
    import pandas as pd

    from coursekit.views.widgets import CompareSystems

    ap = pd.DataFrame({"a": [0.0] * 9 + [0.0], "b": [0.1] * 9 + [0.99]}, index=list("abcdefghij"))
    view = CompareSystems({"AP": ap}, a="a", b="b")
    canvas = view._canvas
    canvas.canvas.draw()
    renderer = canvas.canvas.get_renderer()
    legend = canvas.ax.get_legend().get_window_extent(renderer)
    axes = canvas.ax.get_window_extent(renderer)
    title = canvas.ax._left_title.get_window_extent(renderer)
    assert legend.y0 >= axes.y1 - 1  # above the axes: over no bar
    assert legend.x0 >= title.x1  # beside the title, not over it
    assert legend.x1 <= canvas.figure.bbox.x1  # inside the figure


def test_the_recall_widget_legend_stands_beside_the_curves():
    # "center right" hid the curve of the list (at 2 found, ranks 75 to 98, by default)
    from coursekit.views.widgets import RecallOriented

    canvas = RecallOriented()._canvas
    canvas.canvas.draw()
    renderer = canvas.canvas.get_renderer()
    legend = canvas.ax.get_legend().get_window_extent(renderer)
    assert legend.x0 >= canvas.ax.get_window_extent(renderer).x1  # beside the axes
    assert legend.x1 <= canvas.figure.bbox.x1  # inside the figure


@pytest.mark.parametrize(
    "rels, n",
    [
        ([0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0], 8),  # chapter 04's list
        ([0] * 8 + [1, 1, 1], 9),  # a worst ordering: its points lie low at the left
        ([1, 1, 0, 1, 0, 1, 0, 0, 0, 0], None),  # the default list
    ],
)
def test_the_toggler_legend_covers_no_point_of_the_curve(rels, n):
    # "lower left" hid (0.125, 0.25) on chapter 04's list and the worst ordering's first
    # points: the legend now goes where no point is, after every click too
    from coursekit.views.widgets import RelevanceToggler

    view = RelevanceToggler(rels, n_relevant=n)
    for click in (None, 1, 2):
        if click is not None:
            view.toggle(click)
        canvas = view._canvas
        canvas.canvas.draw()
        renderer = canvas.canvas.get_renderer()
        legend = canvas.ax.get_legend().get_window_extent(renderer)
        for line in canvas.ax.lines:
            xy = canvas.ax.transData.transform(np.column_stack(line.get_data()))
            inside = (
                (xy[:, 0] >= legend.x0)
                & (xy[:, 0] <= legend.x1)
                & (xy[:, 1] >= legend.y0)
                & (xy[:, 1] <= legend.y1)
            )
            assert not inside.any(), (click, line.get_label(), xy[inside])


def test_the_assessor_widget_title_stays_inside_the_figure():
    from coursekit.views.widgets.assessors import AssessorAgreement

    rankings = {"bm25_b0_stem": ["d1", "d2"], "bool_and": ["d2", "d1"]}
    canvas = AssessorAgreement([1, 0], [0, 1], rankings, ["d1", "d2"])._canvas
    canvas.canvas.draw()
    renderer = canvas.canvas.get_renderer()
    titles = [canvas.ax.title, canvas.ax._left_title, canvas.ax._right_title]
    for title in (t for t in titles if t.get_text()):
        box = title.get_window_extent(renderer)
        assert 0 <= box.x0 and box.x1 <= canvas.figure.bbox.x1, title.get_text()


def _covered(canvas) -> list:
    """The points of the axes' lines whose marker (4 pixels around it) the legend's box
    covers (display coordinates)."""
    canvas.canvas.draw()
    legend = canvas.ax.get_legend().get_window_extent(canvas.canvas.get_renderer())
    covered = []
    for line in canvas.ax.lines:
        xy = canvas.ax.transData.transform(np.column_stack(line.get_data()))
        inside = (xy[:, 0] >= legend.x0 - 4) & (xy[:, 0] <= legend.x1 + 4)
        inside &= (xy[:, 1] >= legend.y0 - 4) & (xy[:, 1] <= legend.y1 + 4)
        covered += xy[inside].tolist()
    return covered


@pytest.mark.parametrize("gains", [(0,) * 8, (3, 2, 0, 3, 1, 0, 0, 2), (0, 0, 0, 0, 0, 0, 3, 3)])
def test_the_dcg_legend_covers_no_point_of_the_curves(gains):
    # "lower right" covered a flat DCG = 0 at the last ranks
    from coursekit.views.widgets import GradedJudgments

    view = GradedJudgments(gains=gains)
    assert _covered(view._canvas) == []
    view.set_grade(1, 3)
    assert _covered(view._canvas) == []
