"""The blitted Agg canvas of the widgets' figures: the frame drawn once, then only the data.

:class:`BlitCanvas` is used by :class:`coursekit.views.widgets.base.Widget` (and re-exported
there); see its docstring for how a drawing reuses the frame kept for its key.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import plots

__all__ = ["BlitCanvas", "free_legend_place", "new_figure", "room_for_labels"]

KEPT_FRAMES = 16  # frame bitmaps kept by a canvas (about 0.7 MB each)


def new_figure():
    from matplotlib.figure import Figure

    from .. import style

    figure = Figure(figsize=style.widget_figsize(), dpi=style.DPI)
    figure.subplots_adjust(left=0.13, right=0.97, top=0.9, bottom=0.15)  # no layout engine:
    return figure, figure.subplots()  # a layout pass would draw the figure twice


def room_for_labels(figure, labels: list[str], least: float = 0.13) -> float:
    """The left margin, as a share of the figure's width (at least ``least``, at most a half),
    that shows ``labels`` whole as y tick labels: the widest one at the tick labels' font size,
    with the tick and its padding. For a widget's figure, which has no layout engine."""
    from matplotlib import rcParams
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties

    width, height = (int(v * figure.dpi) for v in figure.get_size_inches())
    renderer = RendererAgg(width, height, figure.dpi)
    font = FontProperties(size=rcParams["ytick.labelsize"])
    widest = max(
        (renderer.get_text_width_height_descent(str(t), font, False)[0] for t in labels),
        default=0.0,
    )
    tick = (rcParams["ytick.major.size"] + rcParams["ytick.major.pad"] + 6) * figure.dpi / 72
    return min(0.5, max(least, (widest + tick) / width))


#: Where a legend may stand inside the axes, in order of preference.
LEGEND_PLACES = (
    "lower left",
    "upper right",
    "lower right",
    "upper left",
    "center right",
    "center left",
    "lower center",
    "upper center",
)


def free_legend_place(canvas: BlitCanvas | None, points: np.ndarray, first: str) -> str:
    """The first place of ``first`` then :data:`LEGEND_PLACES` where the legend of ``canvas``'s
    axes (its size as last drawn) covers none of ``points`` (data coordinates, one per row);
    ``first`` when nothing is drawn yet, or when every place covers some point."""
    if canvas is None or canvas.legend_box is None or len(points) == 0:
        return first
    ax = canvas.ax
    x0, top, x1, bottom = canvas.legend_box  # (pixels, kept with the frame: no layout here)
    width = (x1 - x0) / ax.bbox.width
    height = (bottom - top) / ax.bbox.height
    pad, margin = 0.01, 0.02  # (the legend's distance to the axes; a marker's size)
    xy = ax.transLimits.transform(np.asarray(points, dtype=float))  # axes fractions
    for place in (first, *LEGEND_PLACES):
        vertical, _, horizontal = place.partition(" ")
        left = {"left": pad, "right": 1 - pad - width}.get(horizontal, (1 - width) / 2)
        low = {"lower": pad, "upper": 1 - pad - height}.get(vertical, (1 - height) / 2)
        inside = (xy[:, 0] >= left - margin) & (xy[:, 0] <= left + width + margin)
        inside &= (xy[:, 1] >= low - margin) & (xy[:, 1] <= low + height + margin)
        if not inside.any():
            return place
    return first


class BlitCanvas:
    """An Agg figure that draws its frame once and then only its data (blitting).

    ``png(key, draw)`` calls ``draw(ax)`` (a :mod:`coursekit.plots` function) and returns the
    figure as PNG bytes. The first time for a given ``key`` (the things that change the frame:
    title, axis limits, legend), the whole figure is drawn and its frame (axes, ticks, labels,
    legend, without the data lines) is kept as a bitmap. For a new drawing with the same key,
    ``draw`` runs on a scratch axes that is never rendered, and only its data lines are copied
    over the kept frame: the same picture, at a fraction of the cost of drawing text and ticks.
    Faster still, ``data`` (a function) gives the new data of each kept artist directly, in the
    order of the axes' lines, then patches, then texts: an ``(x, y)`` pair for a line, a dict of
    setters (``{"height": h, "facecolor": c}``) for a bar, ``{"text": "..."}`` for a text,
    ``None`` to keep the artist as it is. The axes' texts (``ax.text``, not the titles and tick
    labels) are data too: a label that changes with a control need not redraw the frame.

    With ``data``, a ``frame`` function (given the axes: it sets what the key names, e.g. the
    title and the y limits) lets a new key reuse the artists already built: ``frame(ax)``
    changes them, the figure is drawn once more without its data, and that bitmap is kept for
    the key (the last ``KEPT_FRAMES``), so that going back to the key redraws the data only.
    ``changing(ax)``, when given with ``frame``, lists the artists ``frame`` changes (e.g. the
    y axis, the spines above it and the titles): a new key then draws only those, over a
    bitmap of the rest drawn once (a costly x axis of many labels is not drawn again).
    ``changing`` may also return ``(layer, first, rest)``: ``first`` (artists) depend on
    ``layer`` alone (e.g. the x axis on the x limits), so the base with ``first`` drawn over it
    is kept for each ``layer`` (the last ``KEPT_FRAMES``), and a new key whose ``layer`` is
    kept draws only ``rest`` (in that order: ``first`` then ``rest`` is a full drawing's).
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
        self.base = None  # the frame without the artists a frame changes (see ``changing``)
        self.layers: dict[Any, Any] = {}  # layer -> the base with its artists drawn

    def png(self, key: Any, draw, data=None, frame=None, changing=None) -> bytes:
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
                self._keep_frame(key, changing)
        elif not same_frame or self.background is None:
            self.ax.clear()
            draw(self.ax)
            self.lines = self._data_artists(self.ax)  # lines, bars and texts
            for line in self.lines:
                line.set_animated(True)  # left out of the frame
            if self.ax.get_legend() is not None:
                self.ax.get_legend().get_frame().set_alpha(1.0)
            self.frames.clear()  # drawn with other artists
            self.base = None
            self.layers.clear()
            self._keep_frame(key, changing)
        else:
            self.scratch.clear()
            draw(self.scratch)
            fresh = self._data_artists(self.scratch)
            if [type(a) for a in fresh] != [type(a) for a in self.lines]:
                self.key = None  # another shape of drawing: redraw it all
                return self.png(key, draw)
            for artist, new in zip(self.lines, fresh, strict=True):
                if hasattr(new, "get_data"):  # a line
                    artist.set_data(*new.get_data())
                elif hasattr(new, "get_text"):  # a text
                    artist.set_text(new.get_text())
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
            # (xy: where the kept bitmap's own corner goes, the figure's corner; matplotlib
            # would otherwise shift the box by its own offset, pasting a second legend)
            self.canvas.restore_region(self.background, bbox=self.legend_box, xy=(0, 0))
        return plots.rgba_png(np.asarray(self.canvas.buffer_rgba()))

    @staticmethod
    def _data_artists(ax) -> list:
        """What is drawn over the kept frame: the axes' lines, bars and texts."""
        return [*ax.lines, *ax.patches, *ax.texts]

    def _keep_frame(self, key: Any, changing=None) -> None:
        """Make the frame of ``key`` the background: the bitmap kept for it, or a new drawing
        of the figure without its data (animated) artists, then kept."""
        if key in self.frames:
            self.background, self.legend_box = self.frames.pop(key)
        else:
            if changing is None or self.base is None:
                self.canvas.draw()
                # The titles now stand where matplotlib puts them (above any tick label at
                # the top): keep them there. Otherwise every later drawing of a frame measures
                # the tight box of each axis again to place them, a third of a frame's cost.
                self.ax._autotitlepos = False
            if changing is not None:  # (the first time, the base is drawn too)
                self._draw_changing(changing(self.ax))
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

    def _draw_changing(self, artists) -> None:
        """Draw ``artists`` over the base, the figure without them (drawn and kept the first
        time), in the order given, which is the order of a full drawing (by zorder): the
        picture is that of :meth:`canvas.draw`, at the cost of these artists alone. With
        ``(layer, first, rest)`` (see the class), the base with ``first`` drawn over it is
        kept for ``layer``, and only ``rest`` is drawn when ``layer`` is kept already."""
        layer, first, rest = artists if isinstance(artists, tuple) else (None, [], artists)
        if self.base is None:
            hidden = [*first, *rest]
            shown = [artist.get_visible() for artist in hidden]
            for artist in hidden:
                artist.set_visible(False)
            self.canvas.draw()
            self.base = self.canvas.copy_from_bbox(self.figure.bbox)
            for artist, visible in zip(hidden, shown, strict=True):
                artist.set_visible(visible)
            self.layers.clear()
        renderer = self.canvas.get_renderer()
        if first and layer in self.layers:
            self.canvas.restore_region(self.layers.pop(layer))
        else:
            self.canvas.restore_region(self.base)
            for artist in first:
                artist.draw(renderer)
        if first:
            self.layers[layer] = self.canvas.copy_from_bbox(self.figure.bbox)  # newest last
            while len(self.layers) > KEPT_FRAMES:
                self.layers.pop(next(iter(self.layers)))
        for artist in rest:
            artist.draw(renderer)

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
