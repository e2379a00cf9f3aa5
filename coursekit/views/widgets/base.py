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

__all__ = [
    "BlitCanvas",
    "Widget",
    "figure_box",
    "frame_html",
    "image_widget",
    "nice_limit",
    "number",
    "table_html",
]

SMALL = w.Layout(width="auto")
KEPT_CANVASES = 6
KEPT_FRAMES = 16  # frame bitmaps kept by a canvas (about 0.7 MB each)

#: Readouts, messages and notes: colours of the JupyterLab theme (light fallbacks elsewhere).
TEXT = "var(--jp-content-font-color1, #111)"
ERROR = "var(--jp-error-color1, #b00)"
MUTED = "var(--jp-content-font-color3, #777)"


def new_figure():
    from matplotlib.figure import Figure

    from .. import style

    figure = Figure(figsize=style.widget_figsize(), dpi=style.DPI)
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
    Faster still, ``data`` (a function) gives the new data of each kept artist directly, in the
    order of the axes' lines then patches: an ``(x, y)`` pair for a line, a dict of setters
    (``{"height": h, "facecolor": c}``) for a bar, ``None`` to keep the artist as it is.

    With ``data``, a ``frame`` function (given the axes: it sets what the key names, e.g. the
    title and the y limits) lets a new key reuse the artists already built: ``frame(ax)``
    changes them, the figure is drawn once more without its data, and that bitmap is kept for
    the key (the last ``KEPT_FRAMES``), so that going back to the key redraws the data only.
    """

    def __init__(self) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.figure, self.ax = new_figure()
        self.canvas = FigureCanvasAgg(self.figure)
        self.scratch = new_figure()[1]
        self.key: Any = None
        self.background = None
        self.legend_box: tuple[float, float, float, float] | None = None
        self.frames: dict[Any, tuple] = {}  # key -> (background, legend box), oldest first
        self.lines: list = []

    def png(self, key: Any, draw, data=None, frame=None) -> bytes:
        fresh_data = None
        same_frame = key == self.key
        if data is not None and self.background is not None and (same_frame or frame):
            fresh_data = data()
            if len(fresh_data) != len(self.lines):
                fresh_data = None
        if fresh_data is not None:
            for artist, new in zip(self.lines, fresh_data, strict=True):
                if isinstance(new, dict):
                    for name, value in new.items():
                        getattr(artist, f"set_{name}")(value)
                elif new is not None:
                    artist.set_data(*new)
            if not same_frame:
                frame(self.ax)
                self._keep_frame(key)
        elif not same_frame or self.background is None:
            self.ax.clear()
            draw(self.ax)
            self.lines = list(self.ax.lines) + list(self.ax.patches)  # lines and bars
            for line in self.lines:
                line.set_animated(True)  # left out of the frame
            if self.ax.get_legend() is not None:
                self.ax.get_legend().get_frame().set_alpha(1.0)
            self.frames.clear()  # drawn with other artists
            self._keep_frame(key)
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
        from matplotlib.patches import Rectangle

        bars = [a for a in self.lines if isinstance(a, Rectangle)]
        if len(bars) > 8:  # many bars: one collection is drawn much faster than each bar
            for line in self.lines:
                if not isinstance(line, Rectangle):
                    self.ax.draw_artist(line)
            self._draw_bars(bars)
        else:
            for line in self.lines:
                self.ax.draw_artist(line)
        if self.legend_box is not None:  # keep the legend above the data, as a full drawing
            # has it: its frame is opaque, so its pixels are those of the frame drawn once
            self.canvas.restore_region(
                self.background, bbox=self.legend_box, xy=self.legend_box[:2]
            )
        return plots.rgba_png(np.asarray(self.canvas.buffer_rgba()))

    def _keep_frame(self, key: Any) -> None:
        """Make the frame of ``key`` the background: the bitmap kept for it, or a new drawing
        of the figure without its data (animated) artists, then kept."""
        if key in self.frames:
            self.background, self.legend_box = self.frames.pop(key)
        else:
            self.canvas.draw()
            self.background = self.canvas.copy_from_bbox(self.figure.bbox)
            self.legend_box = None
            legend = self.ax.get_legend()
            if legend is not None:  # the legend's box in pixels, y down (as restore_region)
                box = legend.get_window_extent()
                x0, y0 = np.floor([box.x0, box.y0])
                x1, y1 = np.ceil([box.x1, box.y1])
                height = self.figure.bbox.height
                self.legend_box = (float(x0), float(height - y1), float(x1), float(height - y0))
        self.frames[key] = (self.background, self.legend_box)  # the newest last
        while len(self.frames) > KEPT_FRAMES:
            self.frames.pop(next(iter(self.frames)))
        self.key = key

    def _draw_bars(self, bars: list) -> None:
        from matplotlib.collections import PolyCollection

        # x0, y0, x1, y1 of each bar, as its bbox has them (without converting units again)
        corners = np.array(
            [(x, y, x + b.get_width(), y + b.get_height()) for b in bars for x, y in [b.get_xy()]]
        )
        verts = corners[:, [[0, 1], [0, 3], [2, 3], [2, 1]]]  # (bars, 4 corners, x y)
        collection = PolyCollection(  # an array of polygons: built without checking each one
            verts,
            facecolors=[b.get_facecolor() for b in bars],
            edgecolors="none",
            linewidths=0,
            transform=self.ax.transData,
            clip_on=True,
        )
        collection.set_clip_box(self.ax.bbox)
        collection.set_figure(self.figure)
        # Not attached to the axes: the corners are numbers already, so the unit conversion
        # of the categorical x axis (one new path per bar at each drawing) is not needed.
        collection.draw(self.canvas.get_renderer())


def nice_limit(value: float) -> float:
    """The smallest of 1, 1.5, 2, 3, 5, 7.5 times a power of ten that is above ``value``
    (with a margin): an axis limit that changes only now and then as the data grow."""
    scale = 10 ** np.floor(np.log10(value * 1.05))
    for step in (1, 1.5, 2, 3, 5, 7.5, 10):
        if step * scale >= value * 1.05:
            return float(step * scale)
    return float(10 * scale)  # pragma: no cover


def number(value: float, name: str = "") -> str:
    """A readout value: a count (an ``int``) as it is, a percentage (a ``name`` with ``%``) to
    2 decimals with its sign, any other number to 4 decimals.

    >>> number(3), number(0.25), number(1.00093, "gain %")
    ('3', '0.2500', '1.00 %')
    """
    if isinstance(value, int):
        return str(value)
    if "%" in name:
        return f"{value:.2f} %"
    return f"{value:.4f}"


def table_html(values: dict[str, float], stale: bool = False) -> str:
    """The readout table; ``stale``: greyed out and struck through (the numbers no longer match
    the inputs, e.g. after an input that could not be read)."""
    from .. import style

    rows = "".join(
        f"<tr><td style='padding-right:1em'>{html.escape(name)}</td>"
        f"<td style='text-align:right'><b>{number(value, name)}</b></td></tr>"
        for name, value in values.items()
    )
    look = f"color:{MUTED};text-decoration:line-through" if stale else f"color:{TEXT}"
    return f"<table style='{look};font-size:{style.readout_font_size()}'>{rows}</table>"


def frame_html(frame) -> str:
    """A small DataFrame as an HTML table (pandas' ``to_html`` is slow for a widget)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def image_widget() -> w.Image:
    """The Image of a widget's figure: shown at its own size (never wider than the output
    area), with its aspect ratio kept whatever the flex box around it does."""
    from .. import style

    width = round(style.widget_figsize()[0] * style.DPI)
    image = w.Image(
        format="png",
        layout=w.Layout(
            width=f"{width}px",
            max_width="100%",
            height="auto",
            flex="0 0 auto",
            align_self="flex-start",
            object_fit="contain",
        ),
    )
    image.add_class("coursekit-figure")
    return image


def figure_box(image: w.Widget, readout: w.Widget) -> w.Box:
    """The figure and the readout side by side, the readout going below when space is short."""
    return w.HBox([image, readout], layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))


class Widget:
    """What every widget shares: a readout, an optional image, display and static display."""

    title = ""

    def __init__(self) -> None:
        self.values: dict[str, float] = {}
        self.readout_html = w.HTML(layout=w.Layout(min_width="14em"))
        self.readout_html.add_class("coursekit-readout")  # for the browser test and benchmark
        self.image: w.Image | None = None
        self._canvas: BlitCanvas | None = None
        self._canvases: dict[Any, BlitCanvas] = {}  # other keys' canvases, oldest first

    def _render(self, draw, key: Any = None, data=None, frame=None) -> None:
        """Draw with ``draw(ax)`` and put the PNG into the Image widget; ``key`` names what
        fixes the frame (title, limits, legend), drawn once per key, and ``data`` gives the new
        data of the artists directly; ``frame(ax)`` changes an axes already drawn to the frame
        of a new key (see :class:`BlitCanvas`)."""
        if frame is not None:  # one canvas, which keeps a frame bitmap per key
            self._canvas = self._canvas or BlitCanvas()
        elif self._canvas is None or self._canvas.key != key:
            # One canvas per key, the last few kept: going back to a key already seen (a DCG
            # formula, a measure, a y limit) redraws only the data, on the frame drawn the
            # first time.
            if self._canvas is not None and self._canvas.key is not None:
                self._canvases[self._canvas.key] = self._canvas
            self._canvas = self._canvases.pop(key, None) or BlitCanvas()
            while len(self._canvases) > KEPT_CANVASES:
                self._canvases.pop(next(iter(self._canvases)))
        if self.image is None:
            self.image = image_widget()
        self.image.value = self._canvas.png(key, draw, data, frame)

    def _state(self) -> dict[str, Any]:
        """The constructor's arguments that rebuild the widget as it is now."""
        raise NotImplementedError

    def clone(self):
        """A new, independent widget in the current state of this one.

        A notebook cell that shows what clicks do should click a clone, so that the widget
        displayed above keeps the state its own cell gives it (after Run All too):

        >>> from coursekit.views.widgets import RelevanceToggler
        >>> shown = RelevanceToggler([1, 0, 1])
        >>> clicked = shown.clone()
        >>> clicked.toggle(2)
        >>> shown.rels, clicked.rels
        ([1, 0, 1], [1, 1, 1])
        """
        return type(self)(**self._state())

    copy = clone

    def readout(self) -> str:
        """The readout as text: one ``name = value`` per line, counts as integers, percentages
        to 2 decimals with a ``%`` sign and other values to 4 decimals."""
        return "\n".join(f"{name} = {number(value, name)}" for name, value in self.values.items())

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
