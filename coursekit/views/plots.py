"""Figures of the course: precision-recall curves, gain curves, recall against rank.

Every function draws on a matplotlib ``Axes`` (a new figure of a fixed size when none is given)
and returns it, with a title, labelled axes and a legend. The numbers come from the measure
functions; nothing is computed here that a measure does not already compute.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..measures.interpolation import STANDARD_RECALL_LEVELS, interpolated_precision
from .tables import pr_table

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "FIGSIZE",
    "new_axes",
    "pr_curve",
    "interpolated_curves",
    "gain_curves",
    "recall_rank",
    "per_query_bars",
    "value_bars",
    "labelled_scatter",
    "found_by_rank",
    "figure_png",
    "rgba_png",
]

#: The default figure size, in inches (fixed so that notebook outputs are reproducible).
FIGSIZE = (6.0, 4.0)


def new_axes(ax: Axes | None = None, figsize: tuple[float, float] | None = None) -> Axes:
    """Return ``ax``, or the axes of a new figure of size ``figsize`` (default ``FIGSIZE``;
    its pixels and fonts follow the look of :mod:`coursekit.views.style`)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize or FIGSIZE)
    return ax


def pr_curve(
    rels: Sequence[float],
    n_relevant: int,
    ax: Axes | None = None,
    label: str = "system",
    interpolated: bool = True,
    title: str = "Precision-recall curve",
    legend_loc: str = "best",
) -> Axes:
    """The precision-recall points of a ranking, rank by rank (the saw-tooth), and optionally
    its interpolated precision at the 11 standard recall levels drawn over it. The step is
    drawn "pre": between two levels the interpolated precision is the value of the higher
    level (the best precision at any recall >= r)."""
    ax = new_axes(ax)
    table = pr_table(rels, n_relevant)
    ax.plot(
        table["recall"],
        table["precision"],
        "o-",
        color="C0",
        alpha=0.6,
        ms=4,
        label=f"{label}: P(k), R(k) rank by rank",
    )
    if interpolated:
        values = interpolated_precision(rels, n_relevant)
        ax.step(
            STANDARD_RECALL_LEVELS,
            values,
            where="pre",
            color="C3",
            lw=2,
            label=f"{label}: interpolated, 11 levels",
        )
        ax.plot(STANDARD_RECALL_LEVELS, values, "s", color="C3", ms=4)
    _finish(ax, title, "recall", "precision", legend_loc=legend_loc)
    return ax


def interpolated_curves(
    curves: Mapping[str, Sequence[float]],
    ax: Axes | None = None,
    levels: Sequence[float] = STANDARD_RECALL_LEVELS,
    title: str = "Interpolated precision averaged over queries",
    legend_loc: str = "best",
) -> Axes:
    """Several systems' interpolated precision-recall curves on one plot (label -> values)."""
    ax = new_axes(ax)
    for i, (label, values) in enumerate(curves.items()):
        ax.plot(levels, values, marker="os^Dv"[i % 5], label=label)
    _finish(ax, title, "recall level", "interpolated precision", legend_loc=legend_loc)
    return ax


def gain_curves(
    curves: Mapping[str, Sequence[float]],
    ax: Axes | None = None,
    title: str = "Cumulated gain by rank",
    ylabel: str = "gain",
    legend_loc: str = "best",
) -> Axes:
    """Gain vectors (CG, DCG, their ideal, NCG, NDCG ...) against the rank (label -> vector)."""
    ax = new_axes(ax)
    for i, (label, values) in enumerate(curves.items()):
        values = np.asarray(values, dtype=float)
        ranks = np.arange(1, values.size + 1)
        ax.plot(ranks, values, marker="os^Dv"[i % 5], ms=4, label=label)
    _finish(ax, title, "rank", ylabel, xlim=None, ylim=None, legend_loc=legend_loc)
    ax.set_xlim(left=0.5)
    return ax


def recall_rank(
    rels: Sequence[float],
    n_relevant: int,
    n_max: int,
    ax: Axes | None = None,
    label: str = "system",
    title: str = "Relevant documents found against rank",
    legend_loc: str = "best",
) -> Axes:
    """The number of relevant documents found by each rank up to ``n_max``, between the best
    case (all relevant first) and the worst case (none in the first ``n_max``), as in the
    figures of Magdy & Jones (2010) and Audeh et al. (2015)."""
    ax = new_axes(ax)
    relevant = np.asarray(rels, dtype=float)[:n_max] >= 1
    found = np.concatenate(
        [[0], np.cumsum(relevant), np.full(max(0, n_max - relevant.size), relevant.sum())]
    )[: n_max + 1]
    ranks = np.arange(0, n_max + 1)
    best = np.minimum(ranks, n_relevant)
    ax.step(ranks, best, where="post", color="C2", ls="--", label="best case")
    ax.step(ranks, np.zeros_like(ranks), where="post", color="C3", ls=":", label="worst case")
    ax.step(ranks, found, where="post", color="C0", lw=2, label=label)
    _finish(
        ax,
        title,
        "rank",
        "relevant documents found",
        xlim=(0, n_max),
        ylim=(-0.1, n_relevant + 0.3),
        legend_loc=legend_loc,
    )
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # documents are counted: 0, 1, 2 ...
    return ax


def per_query_bars(
    differences: Mapping[str, float],
    ax: Axes | None = None,
    title: str = "Per-query difference",
    ylabel: str = "A − B",
    legend_loc: str = "best",
) -> Axes:
    """A bar per query of a score difference (query -> value): positive and zero bars in blue,
    negative ones in red, with a legend naming both colours (whatever the first bar is)."""
    from matplotlib.patches import Patch

    ax = new_axes(ax)
    labels = list(differences)
    values = np.array([differences[q] for q in labels], dtype=float)
    ax.bar(labels, values, color=np.where(values >= 0, "C0", "C3"))
    ax.axhline(0, color="black", lw=0.8)
    ax.tick_params(axis="x", rotation=90)
    handles = [Patch(color="C0", label=f"{ylabel} ≥ 0"), Patch(color="C3", label=f"{ylabel} < 0")]
    _finish(
        ax, title, "query", ylabel, xlim=None, ylim=None, legend_loc=legend_loc, handles=handles
    )
    return ax


def value_bars(
    values: Mapping[str, float],
    ax: Axes | None = None,
    title: str = "Measures side by side",
    xlabel: str = "value",
    legend_loc: str = "lower right",
) -> Axes:
    """One horizontal bar per named value in [0, 1] (label -> value), first at the top."""
    ax = new_axes(ax)
    labels = list(values)
    positions = np.arange(len(labels))[::-1]
    ax.barh(positions, [values[k] for k in labels], color="C0", label="value")
    ax.set_yticks(positions, labels)
    _finish(ax, title, xlabel, "", xlim=(0, 1.02), ylim=None, legend_loc=legend_loc)
    ax.get_legend().remove()  # one series, named by the title: no legend needed
    return ax


def labelled_scatter(
    x: Mapping[str, float],
    y: Mapping[str, float],
    ax: Axes | None = None,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    label: str = "system",
) -> Axes:
    """A point per name (name -> x, name -> y), each labelled with its name in the legend's
    font size; labels near the right edge go to the left of their point, and the margins keep
    every label inside the axes."""
    ax = new_axes(ax)
    names = list(x)
    xs = np.array([x[n] for n in names], dtype=float)
    ys = np.array([y[n] for n in names], dtype=float)
    ax.scatter(xs, ys, color="C0", label=label)
    span = float(np.ptp(xs)) or 1.0
    for name, px, py in zip(names, xs, ys, strict=True):
        right = px > xs.min() + 0.8 * span
        ax.annotate(
            str(name),
            (px, py),
            fontsize="small",
            xytext=(-4 if right else 4, 3),
            textcoords="offset points",
            ha="right" if right else "left",
        )
    ax.margins(x=0.12, y=0.12)
    _finish(ax, title, xlabel, ylabel, xlim=None, ylim=None, legend_loc="lower right")
    return ax


def found_by_rank(
    rels: Mapping[str, Sequence[float]],
    n_relevant: int,
    n_max: int,
    ax: Axes | None = None,
    title: str = "Relevant documents found by rank",
) -> Axes:
    """Several systems' relevant documents found by rank (name -> judgments), each shifted a
    little so that equal steps stay visible; whole numbers on the y axis, and the legend beside
    the axes, away from the data."""
    ax = new_axes(ax)
    for i, (name, values) in enumerate(rels.items()):
        found = np.concatenate([[0], np.cumsum(np.asarray(values, dtype=float)[:n_max] >= 1)])
        shift = 0.05 * (i - (len(rels) - 1) / 2)
        ax.step(np.arange(found.size), found + shift, where="post", lw=2, label=str(name))
    ax.set_yticks(range(n_relevant + 1))
    _finish(
        ax,
        title,
        "rank",
        "relevant documents found",
        xlim=(0, n_max + 1),
        ylim=(-0.2, n_relevant + 0.2),
        legend_loc="upper left",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", borderaxespad=0)
    return ax


def _finish(
    ax: Axes,
    title: str,
    xlabel: str,
    ylabel: str,
    xlim: tuple | None = (0, 1.02),
    ylim: tuple | None = (0, 1.05),
    legend_loc: str = "best",
    handles: list | None = None,
) -> None:
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if xlim is not None:
        ax.set_xlim(*xlim)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.grid(alpha=0.3)
    if handles is None:
        ax.legend(loc=legend_loc, fontsize="small")
    else:
        ax.legend(handles=handles, loc=legend_loc, fontsize="small")


def rgba_png(pixels: np.ndarray) -> bytes:
    """Encode an RGBA pixel array (height x width x 4, as Agg's ``buffer_rgba``) as PNG bytes,
    with fast compression (for images that widgets redraw on every change)."""
    from PIL import Image  # Pillow: a dependency of matplotlib

    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGBA").save(buffer, "png", compress_level=1)
    return buffer.getvalue()


def figure_png(fig: Figure, dpi: int = 80) -> bytes:
    """Render a figure to PNG bytes (for an ``ipywidgets.Image``), without pyplot state."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()
