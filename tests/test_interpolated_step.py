"""The interpolated precision drawn at every recall (not only at the 11 levels): computed by
brute force in the test, and never below a measured point, as the chapters say."""

from __future__ import annotations

import numpy as np
import pytest

import coursekit as ck
from coursekit.views import plots


def _at(x: np.ndarray, y: np.ndarray, r: float) -> float:
    """The value of a step drawn "pre" through the corners (x, y) at recall r."""
    if r <= x[0]:
        return float(y[0])
    return float(y[np.searchsorted(x, r, side="left")])


@pytest.mark.parametrize("seed", range(20))
def test_the_step_is_the_best_precision_at_any_recall_at_least_r(seed):
    rng = np.random.default_rng(seed)
    rels = (rng.random(30) < 0.3).astype(int).tolist()
    n = sum(rels) + int(rng.integers(0, 3))  # some relevant documents never found
    if n == 0:
        n = 1
    found = np.cumsum(rels)
    recall = found / n
    precision = found / np.arange(1, 31)
    x, y = ck.interpolated_step(recall, precision)
    for r in np.linspace(0, 1, 201):
        best = max([p for p, q in zip(precision, recall, strict=True) if q >= r], default=0.0)
        assert _at(x, y, r) == pytest.approx(best), r
    for q, p in zip(recall, precision, strict=True):
        assert _at(x, y, q) >= p  # interpolation only raises precision
    levels = ck.interpolated_precision(rels, n)
    assert [_at(x, y, r) for r in ck.STANDARD_RECALL_LEVELS] == pytest.approx(levels)


def test_the_chapter_03_list_is_drawn_above_its_points():
    # the 14-document list of chapter 03 (relevant at 1, 2, 4, 6, 13, 14 of 6): at recall
    # 1/3 (rank 2) precision is 1; the 11 levels alone, drawn as a step, gave 0.75 there
    import matplotlib

    matplotlib.use("Agg")
    rels = [1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1]
    ax = plots.pr_curve(rels, 6)
    step = next(line for line in ax.lines if line.get_drawstyle() == "steps-pre")
    x, y = step.get_xdata(), step.get_ydata()
    assert _at(np.asarray(x), np.asarray(y), 1 / 3) == pytest.approx(1.0)
    assert _at(np.asarray(x), np.asarray(y), 0.35) == pytest.approx(0.75)  # 3/4 at recall 1/2


def test_the_toggler_redraws_the_interpolated_step_as_a_full_drawing_does():
    # after a click only the data are redrawn: the step must be the envelope too
    from coursekit.views.widgets import RelevanceToggler

    view = RelevanceToggler()
    view.toggle(3)
    step = next(line for line in view._canvas.ax.lines if line.get_drawstyle() == "steps-pre")
    rels = view.rels
    n = view.n_relevant.value
    found = np.cumsum(rels)
    x, y = ck.interpolated_step(found / n, found / np.arange(1, len(rels) + 1))
    assert np.asarray(step.get_xdata()).tolist() == x.tolist()
    assert np.asarray(step.get_ydata()).tolist() == y.tolist()
