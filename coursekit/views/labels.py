"""Point labels that do not overprint each other (:func:`.plots.labelled_scatter`)."""

from __future__ import annotations

from typing import Any

__all__ = ["spread_labels"]

#: Moves tried for a label that overlaps another: up and down by its height, then twice that.
_STEPS = (1, -1, 2, -2, 3, -3)


def spread_labels(ax: Any, labels: list[Any]) -> None:
    """Move each annotation of ``labels`` (``ax.annotate`` with an offset in points) that
    overlaps one placed before it up or down, by steps of its own height, to the first place
    where it overlaps none; labels are placed from the highest point down. A label that finds
    no free place within three heights keeps its place."""
    if len(labels) < 2:
        return
    figure = ax.figure
    figure.draw_without_rendering()  # text sizes need a layout
    renderer = figure._get_renderer()
    to_points = 72 / figure.dpi
    inside = ax.get_window_extent(renderer)
    placed: list[Any] = []
    for label in sorted(labels, key=lambda a: -a.xy[1]):
        box = label.get_window_extent(renderer)
        if any(box.overlaps(other) for other in placed):
            x, y = label.xyann
            for step in _STEPS:
                label.xyann = (x, y + step * box.height * to_points)
                moved = label.get_window_extent(renderer)
                within = inside.y0 <= moved.y0 and moved.y1 <= inside.y1
                if within and not any(moved.overlaps(other) for other in placed):
                    box = moved
                    break
            else:
                label.xyann = (x, y)
        placed.append(box)
