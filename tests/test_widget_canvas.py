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
