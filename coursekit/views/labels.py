"""Point labels that do not overprint each other (:func:`.plots.labelled_scatter`)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["spread_labels"]

#: Moves tried for a label: beside its point, then down and up by its height, up to 3 times
#: (down first: the labels are placed from the highest point down, so below is still free).
_STEPS = (0, -1, 1, -2, 2, -3, 3)
#: The gap between a point and its label, in points (x; the label stands a little above).
_GAP = (4.0, 3.0)


def spread_labels(ax: Any, labels: list[Any], points: Any = None, size: float = 36.0) -> None:
    """Keep the annotations ``labels`` (one per point, ``ax.annotate`` with an offset in
    points) clear of each other and of the points' markers, inside the axes.

    The labels are placed when the figure is drawn, with the axes' final limits (a line
    plotted after this call, such as a diagonal, may still change them, which would move the
    points under labels placed now). Each label, from the highest point down, takes the first
    place where its box overlaps no label placed before it, no marker of ``points`` (their
    ``(x, y)`` in data coordinates, markers of ``size`` points², the scatter's default) and
    not the legend, and stays inside the axes: beside its point on its own side (right, or
    left where ``ha`` says so), beside it on the other side, then down or up by steps of its
    own height; a place nearer its own point than any other is preferred, so that a reader
    pairs them right. A label that finds no free place keeps the first one."""
    if not labels:
        return
    if points is None:
        points = [label.xy for label in labels]
    ax.add_artist(_new_placer(labels, np.asarray(points, dtype=float), size))


def _placer_class():
    from matplotlib.artist import Artist

    class LabelPlacer(Artist):
        """Draws nothing: places the labels at the start of each drawing of the axes (it is
        drawn first, its zorder being the lowest), when the limits are known."""

        def __init__(self, labels: list, points: np.ndarray, size: float) -> None:
            super().__init__()
            self.labels = labels
            self.points = points
            self.radius = np.sqrt(size) / 2  # (points)
            self.sides = [label.get_ha() for label in labels]
            self.set_zorder(-1e9)

        def draw(self, renderer) -> None:
            if self.get_visible():
                _place(self, renderer)
            self.stale = False

    return LabelPlacer


def _new_placer(labels: list, points: np.ndarray, size: float) -> Any:
    return _placer_class()(labels, points, size)


def _place(placer: Any, renderer: Any) -> None:
    ax = placer.axes
    pixels = renderer.points_to_pixels(1.0)
    inside = ax.get_window_extent(renderer)
    centres = ax.transData.transform(placer.points)
    reach = placer.radius * pixels + 1
    markers = [(x - reach, y - reach, x + reach, y + reach) for x, y in centres]
    legend = ax.get_legend()
    obstacles = list(markers)
    if legend is not None and legend.get_visible():
        box = legend.get_window_extent(renderer)
        obstacles.append((box.x0, box.y0, box.x1, box.y1))
    order = sorted(range(len(placer.labels)), key=lambda i: -placer.labels[i].xy[1])
    for i in order:
        label = placer.labels[i]
        first_side = placer.sides[i]
        sides = [first_side, "left" if first_side == "right" else "right"]
        height = _height(label, first_side, renderer) / pixels  # (points)
        places = [(side, step) for step in _STEPS for side in sides]
        extents = {}
        for place in places:
            _put(label, *place, height)
            box = label.get_window_extent(renderer)
            extents[place] = (box.x0, box.y0, box.x1, box.y1)

        def free(place, own_nearest: bool, extents=extents, i=i) -> bool:
            extent = extents[place]
            within = (
                inside.x0 <= extent[0]
                and extent[2] <= inside.x1
                and inside.y0 <= extent[1]
                and extent[3] <= inside.y1
            )
            if not within or any(_overlap(extent, other) for other in obstacles):
                return False
            # not nearer another point than its own (but by a marker's width: points that
            # almost coincide cannot be told apart): a reader pairs them right
            distances = _distances(extent, centres)
            return not own_nearest or distances[i] <= np.delete(distances, i).min() + 2 * reach

        choice = next((p for p in places if free(p, True)), None)
        choice = choice or next((p for p in places if free(p, False)), places[0])
        _put(label, *choice, height)
        obstacles.append(extents[choice])


def _height(label: Any, side: str, renderer: Any) -> float:
    _put(label, side, 0, 0.0)
    return label.get_window_extent(renderer).height


def _distances(extent: tuple, centres: np.ndarray) -> np.ndarray:
    """The distance from the box ``extent`` to each of ``centres`` (0 inside it)."""
    dx = np.maximum(0, np.maximum(extent[0] - centres[:, 0], centres[:, 0] - extent[2]))
    dy = np.maximum(0, np.maximum(extent[1] - centres[:, 1], centres[:, 1] - extent[3]))
    return np.hypot(dx, dy)


def _put(label: Any, side: str, step: int, height: float) -> None:
    """The label on ``side`` of its point (``ha``), ``step`` heights above its first place."""
    dx = -_GAP[0] if side == "right" else _GAP[0]
    label.set_ha(side)
    label.xyann = (dx, _GAP[1] + step * height)


def _overlap(a: tuple, b: tuple) -> bool:
    """Whether two boxes ``(x0, y0, x1, y1)`` share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
