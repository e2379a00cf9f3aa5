"""The chapter 11 widget (DiversityGrid), driven as clicks would drive it. Expected values come
from coursekit's measure functions called directly on judgments built in the test from the
toggled grid, or from hand derivations in the comments, never from the widget itself."""

from __future__ import annotations

import math

import pytest

import coursekit as ck
from coursekit.views.widgets import DiversityGrid

# Four ranks, three subtopics: d1 and d2 repeat a, d3 covers b and c, d4 nothing.
GRID = [[1, 0, 0], [1, 0, 0], [0, 1, 1], [0, 0, 0]]
SUBTOPICS = ["a", "b", "c"]
DOCS = ["d1", "d2", "d3", "d4"]


def grid(**kwargs) -> DiversityGrid:
    options = {"subtopics": SUBTOPICS, "docs": DOCS, "alpha": 0.5, "k": 3}
    return DiversityGrid(GRID, **{**options, **kwargs})


def judgments_of(matrix) -> dict:
    """The grid as {doc: {subtopic: 1}}, built here, independently of the widget."""
    return {
        doc: {s: 1 for s, tick in zip(SUBTOPICS, row, strict=True) if tick}
        for doc, row in zip(DOCS, matrix, strict=True)
    }


def expected(matrix, alpha: float, k: int) -> dict[str, float]:
    judged = judgments_of(matrix)
    ideal = ck.ideal_diversity_ranking(judged, alpha)
    return {
        f"alpha-DCG@{k}": ck.alpha_dcg(DOCS, judged, k, alpha),
        f"ideal alpha-DCG@{k}": ck.alpha_dcg(ideal, judged, k, alpha),
        f"alpha-nDCG@{k}": ck.alpha_ndcg(DOCS, judged, k, alpha),
        f"S-recall@{k}": ck.subtopic_recall(DOCS, judged, k),
    }


def test_starting_state_by_hand():
    view = grid()
    # gains: d1 a new (1), d2 a seen once (0.5), d3 b and c new (2), d4 nothing (0)
    assert view.gains == [1.0, 0.5, 2.0, 0.0]
    # greedy ideal: d3 (2), then d1 and d2 gain 1 each: d2 (the later doc id), then d1 (0.5)
    assert view.ideal == ["d3", "d2", "d1", "d4"]
    dcg = 1 + 0.5 / math.log2(3) + 2 / 2
    best = 2 + 1 / math.log2(3) + 0.5 / 2
    assert view.values["alpha-DCG@3"] == pytest.approx(dcg, abs=1e-12)
    assert view.values["ideal alpha-DCG@3"] == pytest.approx(best, abs=1e-12)
    assert view.values["alpha-nDCG@3"] == pytest.approx(dcg / best, abs=1e-12)
    assert view.values["S-recall@3"] == 1.0
    assert view.values == pytest.approx(expected(GRID, 0.5, 3), abs=1e-12)


def test_clicks_match_coursekit_on_the_toggled_matrix():
    view = grid()
    matrix = [row[:] for row in GRID]
    for rank, subtopic in [(2, "b"), (4, 3), (1, "a"), (3, 2)]:
        view.toggle(rank, subtopic)
        column = SUBTOPICS.index(subtopic) if isinstance(subtopic, str) else subtopic - 1
        matrix[rank - 1][column] = 1 - matrix[rank - 1][column]
        assert view.coverage == matrix
        assert view.values == pytest.approx(expected(matrix, 0.5, 3), abs=1e-12)
        judged = judgments_of(matrix)
        assert view.gains == pytest.approx(ck.novelty_gains(DOCS, judged, 0.5).tolist())
        assert view.ideal == ck.ideal_diversity_ranking(judged, 0.5)


def test_alpha_and_k_sliders():
    view = grid()
    view.set_alpha(0.0)  # no novelty discount: d2 gains 1 like d1
    assert view.gains == [1.0, 1.0, 2.0, 0.0]
    view.set_alpha(1.0)  # only new subtopics count
    assert view.gains == [1.0, 0.0, 2.0, 0.0]
    view.set_k(1)
    assert view.values == pytest.approx(expected(GRID, 1.0, 1), abs=1e-12)
    assert view.values["S-recall@1"] == pytest.approx(1 / 3)
    view.alpha.value = 0.25  # the slider itself, as a drag would set it
    assert view.values == pytest.approx(expected(GRID, 0.25, 1), abs=1e-12)


def test_readout_text_lists_the_values_the_gains_and_the_ideal():
    text = grid().readout().splitlines()
    assert text[:4] == [
        "alpha-DCG@3 = 2.3155",  # 1 + 0.5 / log2 3 + 1
        "ideal alpha-DCG@3 = 2.8809",  # 2 + 1 / log2 3 + 0.25
        "alpha-nDCG@3 = 0.8037",
        "S-recall@3 = 1.0000",
    ]
    assert text[4] == "novelty gains by rank: 1, 0.5, 2, 0"
    assert text[5] == "ideal ranking (greedy): d3, d2, d1, d4"
    assert "alpha-nDCG@3" in grid().readout_html.value


def test_a_clone_keeps_its_own_state():
    shown = grid()
    clicked = shown.clone()
    clicked.toggle(4, "a")
    clicked.set_alpha(0.3)
    assert shown.coverage == GRID and shown.alpha.value == 0.5
    assert clicked.coverage[3] == [1, 0, 0] and clicked.alpha.value == pytest.approx(0.3)


def test_every_tick_off_scores_zero():
    view = DiversityGrid([[0, 0], [0, 0]])
    assert view.values == {
        "alpha-DCG@2": 0.0,
        "ideal alpha-DCG@2": 0.0,
        "alpha-nDCG@2": 0.0,
        "S-recall@2": 0.0,
    }


def test_default_grid_has_eight_ranks_and_a_figure():
    view = DiversityGrid()
    assert len(view.coverage) == 8 and view.k.value == 5
    assert view.image is not None and view.image.value[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"coverage": []}, ValueError, "coverage is empty"),
        ({"coverage": [[1, 0], [1]]}, ValueError, "one tick per subtopic"),
        ({"coverage": [[2, 0]]}, ValueError, "0 or 1"),
        ({"coverage": "10"}, TypeError, "sequence"),
        ({"alpha": 1.5}, ValueError, "alpha"),
        ({"k": 0}, ValueError, "k"),
        ({"subtopics": ["a", "a", "b"]}, ValueError, "two of them alike"),
        ({"docs": ["d1"]}, ValueError, "4 names"),
    ],
)
def test_bad_arguments_are_refused(kwargs, error, message):
    with pytest.raises(error, match=message):
        DiversityGrid(**{"coverage": GRID, "subtopics": SUBTOPICS, "docs": DOCS, **kwargs})


def test_a_refused_click_leaves_the_widget_as_it_was():
    view = grid()
    for call in (lambda: view.toggle(5, "a"), lambda: view.toggle(1, "z")):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(ValueError):
        view.set_alpha(-0.1)
    with pytest.raises(ValueError):
        view.set_k(5)
    assert view.coverage == GRID and view.values == pytest.approx(expected(GRID, 0.5, 3))


# --- issue 35: a click redraws no more than it must, and shows what a fresh widget shows -----


def test_the_subtopic_buttons_show_their_names_whole():
    # the buttons were 4.2em wide: "source" and "drinking" were cut ("sou…")
    view = DiversityGrid(GRID, subtopics=["source", "drinking", "season"], docs=DOCS)
    for row in view.buttons:
        assert [b.description for b in row] == ["source", "drinking", "season"]
        for button in row:  # as wide as its name, alike in every row
            assert button.layout.width == "auto"


def test_a_new_k_limit_or_legend_place_draws_no_figure_and_shows_a_fresh_drawing(monkeypatch):
    # a new k (its dotted line), a new y limit or a new legend place drew the whole figure
    # (100-200 ms a click); now the line is data and the axes are reused
    import io

    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    from coursekit.views.widgets import base

    def pixels(png: bytes) -> np.ndarray:
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))

    view = DiversityGrid()
    drawn = []
    draw = FigureCanvasAgg.draw
    monkeypatch.setattr(
        FigureCanvasAgg, "draw", lambda self, *a, **k: (drawn.append(self), draw(self, *a, **k))
    )
    limits = {view._canvas.key}
    for change in (
        lambda: view.set_k(3),
        lambda: view.set_k(7),
        lambda: view.toggle(4, 1),  # new gains: a new y limit (checked below)
        lambda: view.toggle(4, 2),
        lambda: view.set_alpha(0.0),
    ):
        change()
        limits.add(view._canvas.key)
        fresh = DiversityGrid(**view._state())
        assert np.array_equal(pixels(view.image.value), pixels(fresh.image.value))
    assert len({key[1] for key in limits}) >= 2  # the y limit did change
    # each legend place, as its frame was drawn when the widget was built
    place = ["lower right"]
    monkeypatch.setattr(base, "free_legend_place", lambda canvas, points, first: place[0])
    for k, place[0] in ((2, "upper left"), (4, "center right"), (6, "lower center")):
        view.set_k(k)
        assert view._canvas.key[-1] == place[0]
    assert [d for d in drawn if d is view._canvas.canvas] == []
