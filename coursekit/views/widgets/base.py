"""The shared base of the course's widgets: a blitted Agg canvas, readout tables, ``Widget``.

Each widget is a thin view over the measure functions: it keeps its inputs, calls coursekit to
compute every number, and shows them in ``HTML`` readouts and an ``Image`` rendered with
matplotlib's Agg backend (no ``Output`` widget, so static renders and nbval see the same thing).

Every widget exposes ``values`` (the numbers of its readout), ``readout()`` (the same as text)
and methods that do what a click does (``toggle(rank)``, ``set_grade(rank, grade)``, ...), so that
tests and notebook cells can drive it. Display a widget by leaving it as the last expression of a
cell; ``show_static()`` displays its current figure and readout without any widget machinery.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w
import numpy as np

from .. import plots

__all__ = ["BlitCanvas", "Widget", "frame_html", "nice_limit", "number", "table_html"]

FIGSIZE = (5.0, 3.4)
SMALL = w.Layout(width="auto")

FIGSIZE = (5.0, 3.4)
SMALL = w.Layout(width="auto")


def new_figure():
    from matplotlib.figure import Figure

    figure = Figure(figsize=FIGSIZE)
    figure.subplots_adjust(left=0.13, right=0.97, top=0.9, bottom=0.15)  # no layout engine:
    return figure, figure.subplots()  # a layout pass would draw the figure twice


class BlitCanvas:
    """An Agg figure that draws its frame once and then only its data (blitting).

    ``png(key, draw)`` calls ``draw(ax)`` (a :mod:`coursekit.plots` function) and returns the
    figure as PNG bytes. The first time for a given ``key`` (the things that change the frame:
    title, axis limits, legend), the whole figure is drawn and its frame (axes, ticks, labels,
    legend, without the data lines) is kept as a bitmap. For a new drawing with the same key,
    ``draw`` runs on a scratch axes that is never rendered, and only its data lines are copied
    over the kept frame: the same picture, at a fraction of the cost of drawing text and ticks.
    """

    def __init__(self) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.figure, self.ax = new_figure()
        self.canvas = FigureCanvasAgg(self.figure)
        self.scratch = new_figure()[1]
        self.key: Any = None
        self.background = None
        self.lines: list = []

    def png(self, key: Any, draw) -> bytes:
        if key != self.key or self.background is None:
            self.ax.clear()
            draw(self.ax)
            self.lines = list(self.ax.lines) + list(self.ax.patches)  # lines and bars
            for line in self.lines:
                line.set_animated(True)  # left out of the frame
            self.canvas.draw()
            self.background = self.canvas.copy_from_bbox(self.figure.bbox)
            self.key = key
        else:
            self.scratch.clear()
            draw(self.scratch)
            fresh = list(self.scratch.lines) + list(self.scratch.patches)
            if [type(a) for a in fresh] != [type(a) for a in self.lines]:
                self.key = None  # another shape of drawing: redraw it all
                return self.png(key, draw)
            for artist, new in zip(self.lines, fresh, strict=True):
                if hasattr(new, "get_data"):  # a line
                    artist.set_data(*new.get_data())
                else:  # a bar (Rectangle)
                    artist.set_bounds(*new.get_bbox().bounds)
                    artist.set_facecolor(new.get_facecolor())
        self.canvas.restore_region(self.background)
        for line in self.lines:
            self.ax.draw_artist(line)
        legend = self.ax.get_legend()
        if legend is not None:  # keep the legend above the data, as a full drawing has it
            self.ax.draw_artist(legend)
        return plots.rgba_png(np.asarray(self.canvas.buffer_rgba()))


def nice_limit(value: float) -> float:
    """The smallest of 1, 1.5, 2, 3, 5, 7.5 times a power of ten that is above ``value``
    (with a margin): an axis limit that changes only now and then as the data grow."""
    scale = 10 ** np.floor(np.log10(value * 1.05))
    for step in (1, 1.5, 2, 3, 5, 7.5, 10):
        if step * scale >= value * 1.05:
            return float(step * scale)
    return float(10 * scale)  # pragma: no cover


def number(value: float) -> str:
    """A readout value: a count (an ``int``) as it is, any other number to 4 decimals."""
    return str(value) if isinstance(value, int) else f"{value:.4f}"


def table_html(values: dict[str, float]) -> str:
    rows = "".join(
        f"<tr><td style='padding-right:1em'>{html.escape(name)}</td>"
        f"<td style='text-align:right'><b>{number(value)}</b></td></tr>"
        for name, value in values.items()
    )
    return f"<table>{rows}</table>"


def frame_html(frame) -> str:
    """A small DataFrame as an HTML table (pandas' ``to_html`` is slow for a widget)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class Widget:
    """What every widget shares: a readout, an optional image, display and static display."""

    title = ""

    def __init__(self) -> None:
        self.values: dict[str, float] = {}
        self.readout_html = w.HTML(layout=w.Layout(min_width="14em"))
        self.image: w.Image | None = None
        self._canvas: BlitCanvas | None = None

    def _render(self, draw, key: Any = None) -> None:
        """Draw with ``draw(ax)`` and put the PNG into the Image widget; ``key`` names what
        fixes the frame (title, limits, legend), drawn once per key (see :class:`BlitCanvas`)."""
        if self._canvas is None:
            self._canvas = BlitCanvas()
            self.image = w.Image(format="png", layout=w.Layout(width="420px"))
        self.image.value = self._canvas.png(key, draw)

    def readout(self) -> str:
        """The readout as text: one ``name = value`` per line, counts as integers and other
        values to 4 decimals."""
        return "\n".join(f"{name} = {number(value)}" for name, value in self.values.items())

    def _repr_mimebundle_(self, **kwargs) -> dict:
        # A short, stable text form: the default repr of a widget lists every child's state
        # (PNG bytes included), which would differ from one matplotlib version to another.
        return {
            "text/plain": f"{type(self).__name__} widget (interactive when the notebook runs)",
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2,
                "version_minor": 0,
                "model_id": self.widget.model_id,
            },
        }

    def show_static(self) -> None:
        """Display the current figure (if any) and readout as plain outputs."""
        from IPython.display import HTML, Image, display

        if self.image is not None:
            display(Image(data=self.image.value, format="png"))
        display(HTML(self.readout_html.value))
