"""Figures of the course: precision-recall curves, gain curves, recall against rank.

Every function draws on a matplotlib ``Axes`` (a new figure of a fixed size when none is given)
and returns it, with a title, labelled axes and a legend. The numbers come from the measure
functions; nothing is computed here that a measure does not already compute. Every argument is
checked before anything is drawn: a wrong one is a ``TypeError`` or ``ValueError`` naming it.
"""

from __future__ import annotations

import io
import numbers
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..i18n import N_, _
from ..measures.interpolation import (
    STANDARD_RECALL_LEVELS,
    interpolated_precision,
    interpolated_step,
)
from ..validation import (
    as_binary,
    as_grades,
    check_bool,
    check_n_relevant,
    check_positive_int,
    check_scalar,
    describe,
)
from .labels import spread_labels
from .tables import as_labelled, as_numbers, labelled_numbers, pr_table

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
#: The most ranks :func:`recall_rank` draws (each rank is a point of its three lines).
MAX_RANKS = 1_000_000


def new_axes(ax: Axes | None = None, figsize: tuple[float, float] | None = None) -> Axes:
    """Return ``ax``, or the axes of a new figure of size ``figsize`` (default ``FIGSIZE``;
    its pixels and fonts follow the look of :mod:`coursekit.views.style`)."""
    if ax is not None:
        from matplotlib.axes import Axes

        if not isinstance(ax, Axes):
            raise TypeError(
                f"ax must be a matplotlib Axes, got {type(ax).__name__} {describe(ax, 40)}"
            )
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize or FIGSIZE)
    return ax


def _texts(legend_loc: Any = "best", **texts: Any) -> None:
    """Titles and labels are strings; ``legend_loc`` is a place ``legend(loc=...)`` takes."""
    from matplotlib.legend import Legend

    for name, text in texts.items():
        if not isinstance(text, str):
            raise TypeError(f"{name} must be a str, got {type(text).__name__} {describe(text)}")
    if isinstance(legend_loc, int) and not isinstance(legend_loc, bool) and 0 <= legend_loc <= 10:
        return  # a code of Legend.codes
    if isinstance(legend_loc, tuple) and len(legend_loc) == 2:  # (x, y) in axes coordinates
        for value in legend_loc:
            check_scalar(value, "legend_loc", numbers.Real, what="an (x, y) pair of numbers")
    elif not (isinstance(legend_loc, str) and legend_loc in Legend.codes):
        places = ", ".join(Legend.codes)
        raise ValueError(f"legend_loc must be one of {places}, got {describe(legend_loc)}")


def pr_curve(
    rels: Sequence[float],
    n_relevant: int,
    ax: Axes | None = None,
    label: str = N_("system"),
    interpolated: bool = True,
    title: str = N_("Precision-recall curve"),
    legend_loc: str = "best",
) -> Axes:
    """The precision-recall points of a ranking, rank by rank (the saw-tooth), and optionally
    its interpolated precision drawn over it: at every recall r the best precision at any
    recall >= r (:func:`coursekit.interpolated_step`), squares at the 11 standard levels."""
    rels = as_grades(rels)  # read once (a generator too)
    table = pr_table(rels, n_relevant)
    interpolated = check_bool(interpolated, "interpolated")
    _texts(legend_loc, label=label, title=title)
    ax, label = new_axes(ax), _(label)
    points = _("{label}: P(k), R(k) rank by rank").format(label=label)
    ax.plot(table["recall"], table["precision"], "o-", color="C0", alpha=0.6, ms=4, label=points)
    if interpolated:
        x, y = interpolated_step(table["recall"].to_numpy(), table["precision"].to_numpy())
        ax.step(
            x,
            y,
            where="pre",
            color="C3",
            lw=2,
            label=_("{label}: interpolated").format(label=label),
        )
        values = interpolated_precision(rels, n_relevant)
        ax.plot(STANDARD_RECALL_LEVELS, values, "s", color="C3", ms=4, label=_("the 11 levels"))
    _finish(ax, title, N_("recall"), N_("precision"), legend_loc=legend_loc)
    return ax


def interpolated_curves(
    curves: Mapping[str, Sequence[float]],
    ax: Axes | None = None,
    levels: Sequence[float] = STANDARD_RECALL_LEVELS,
    title: str = N_("Interpolated precision averaged over queries"),
    legend_loc: str = "best",
) -> Axes:
    """Several systems' interpolated precision-recall curves on one plot (label -> values, a
    precision in [0, 1] at each of the ``levels``)."""
    levels = as_numbers(levels, "levels", "a recall level")
    if np.any(np.diff(levels) <= 0):
        raise ValueError(f"levels must increase, got {describe(levels.tolist())}")
    labels, raw = as_labelled(curves, "curves")
    values = [
        as_numbers(v, f"curves[{k!r}]", "a precision") for k, v in zip(labels, raw, strict=True)
    ]
    for label, curve in zip(labels, values, strict=True):
        if curve.size != levels.size:
            raise ValueError(f"curves[{label!r}] has {curve.size} values for {levels.size} levels")
    _texts(legend_loc, title=title)
    ax = new_axes(ax)
    for i, (label, curve) in enumerate(zip(labels, values, strict=True)):
        ax.plot(levels, curve, marker="os^Dv"[i % 5], label=label)
    _finish(ax, title, N_("recall level"), N_("interpolated precision"), legend_loc=legend_loc)
    return ax


def gain_curves(
    curves: Mapping[str, Sequence[float]],
    ax: Axes | None = None,
    title: str = N_("Cumulated gain by rank"),
    ylabel: str = N_("gain"),
    legend_loc: str = "best",
) -> Axes:
    """Gain vectors (CG, DCG, their ideal, NCG, NDCG ...) against the rank (label -> vector)."""
    labels, raw = as_labelled(curves, "curves")
    values = [as_numbers(v, f"curves[{k!r}]") for k, v in zip(labels, raw, strict=True)]
    _texts(legend_loc, title=title, ylabel=ylabel)
    ax = new_axes(ax)
    for i, (label, curve) in enumerate(zip(labels, values, strict=True)):
        ranks = np.arange(1, curve.size + 1)
        ax.plot(ranks, curve, marker="os^Dv"[i % 5], ms=4, label=_(label))
    _finish(ax, title, N_("rank"), ylabel, xlim=None, ylim=None, legend_loc=legend_loc)
    ax.set_xlim(left=0.5)
    return ax


def recall_rank(
    rels: Sequence[float],
    n_relevant: int,
    n_max: int,
    ax: Axes | None = None,
    label: str = N_("system"),
    title: str = N_("Relevant documents found against rank"),
    legend_loc: str = "best",
) -> Axes:
    """The number of relevant documents found by each rank up to ``n_max``, between the best
    case (all relevant first) and the worst case (none in the first ``n_max``), as in the
    figures of Magdy & Jones (2010) and Audeh et al. (2015)."""
    relevant = as_binary(rels)
    n_relevant = check_n_relevant(n_relevant, relevant)
    n_max = check_positive_int(n_max, "n_max")
    if n_max > MAX_RANKS:
        raise ValueError(f"n_max must be at most {MAX_RANKS} for a figure, got {n_max}")
    _texts(legend_loc, label=label, title=title)
    ax = new_axes(ax)
    relevant = relevant[:n_max]
    found = np.concatenate(
        [[0], np.cumsum(relevant), np.full(max(0, n_max - relevant.size), relevant.sum())]
    )[: n_max + 1]
    ranks = np.arange(0, n_max + 1)
    best = np.minimum(ranks, n_relevant)
    ax.step(ranks, best, where="post", color="C2", ls="--", label=_("best case"))
    ax.step(ranks, np.zeros_like(ranks), where="post", color="C3", ls=":", label=_("worst case"))
    ax.step(ranks, found, where="post", color="C0", lw=2, label=_(label))
    _finish(
        ax,
        title,
        N_("rank"),
        N_("relevant documents found"),
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
    title: str = N_("Per-query difference"),
    ylabel: str = "A − B",
    legend_loc: str = "best",
) -> Axes:
    """A bar per query of a score difference (query -> value, a dict or a pandas Series):
    positive and zero bars in blue, negative ones in red, with a legend naming both colours
    (whatever the first bar is)."""
    labels, values = labelled_numbers(differences, "differences")
    _texts(legend_loc, title=title, ylabel=ylabel)
    from matplotlib.patches import Patch

    ax = new_axes(ax)
    ax.bar(labels, values, color=np.where(values >= 0, "C0", "C3"))
    ax.axhline(0, color="black", lw=0.8)
    ax.tick_params(axis="x", rotation=90)
    handles = [Patch(color="C0", label=f"{ylabel} ≥ 0"), Patch(color="C3", label=f"{ylabel} < 0")]
    _finish(
        ax, title, N_("query"), ylabel, xlim=None, ylim=None, legend_loc=legend_loc, handles=handles
    )
    return ax


def value_bars(
    values: Mapping[str, float],
    ax: Axes | None = None,
    title: str = N_("Measures side by side"),
    xlabel: str = N_("value"),
    legend_loc: str = "lower right",
) -> Axes:
    """One horizontal bar per named value in [0, 1] (label -> value, a dict or a pandas
    Series), first at the top."""
    labels, widths = labelled_numbers(values, "values", "a proportion")
    _texts(legend_loc, title=title, xlabel=xlabel)
    ax = new_axes(ax)
    positions = np.arange(len(labels))[::-1]
    ax.barh(positions, widths, color="C0", label="value")
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
    label: str = N_("system"),
) -> Axes:
    """A point per name (name -> x, name -> y: dicts or pandas Series with the same names),
    each labelled with its name in the legend's font size; labels near the right edge go to
    the left of their point, and the margins keep every label inside the axes."""
    names, xs = labelled_numbers(x, "x")
    names_y, ys = labelled_numbers(y, "y")
    if set(names_y) != set(names):
        missing = [n for n in names if n not in names_y] or [n for n in names_y if n not in names]
        where = "y" if missing[0] in names else "x"
        raise ValueError(f"{where} has no value for {missing[0]!r}: x and y name the same points")
    ys = ys[[names_y.index(n) for n in names]] if names_y != names else ys
    _texts(title=title, xlabel=xlabel, ylabel=ylabel, label=label)
    ax = new_axes(ax)
    ax.scatter(xs, ys, color="C0", label=_(label))
    span = float(np.ptp(xs)) or 1.0
    texts = []
    for name, px, py in zip(names, xs, ys, strict=True):
        right = px > xs.min() + 0.8 * span
        xytext = (-4 if right else 4, 3)
        kind = {"textcoords": "offset points", "ha": "right" if right else "left"}
        texts.append(ax.annotate(name, (px, py), fontsize="small", xytext=xytext, **kind))
    ax.margins(x=0.12, y=0.12)
    _finish(ax, title, xlabel, ylabel, xlim=None, ylim=None, legend_loc="lower right")
    # names of close points clear of each other and of the points, placed when drawn
    spread_labels(ax, texts, np.column_stack([xs, ys]))
    return ax


def found_by_rank(
    rels: Mapping[str, Sequence[float]],
    n_relevant: int,
    n_max: int,
    ax: Axes | None = None,
    title: str = N_("Relevant documents found by rank"),
) -> Axes:
    """Several systems' relevant documents found by rank (name -> judgments), each shifted a
    little so that equal steps stay visible; whole numbers on the y axis, and the legend beside
    the axes, away from the data."""
    names, raw = as_labelled(rels, "rels")
    pairs = zip(names, raw, strict=True)
    relevant = [as_binary(values, f"rels[{name!r}]") for name, values in pairs]
    n_relevant = check_n_relevant(n_relevant)
    for name, found in zip(names, relevant, strict=True):
        try:
            check_n_relevant(n_relevant, found)
        except ValueError as error:
            raise ValueError(f"rels[{name!r}]: {error}") from None
    n_max = check_positive_int(n_max, "n_max")
    _texts(title=title)
    ax = new_axes(ax)
    for i, (name, values) in enumerate(zip(names, relevant, strict=True)):
        found = np.concatenate([[0], np.cumsum(values[:n_max])])
        shift = 0.05 * (i - (len(names) - 1) / 2)
        ax.step(np.arange(found.size), found + shift, where="post", lw=2, label=name)
    ax.set_yticks(_count_ticks(n_relevant))
    _finish(
        ax,
        title,
        N_("rank"),
        N_("relevant documents found"),
        xlim=(0, n_max + 1),
        ylim=(-0.2, n_relevant + 0.2),
        legend_loc="upper left",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", borderaxespad=0)
    return ax


def _count_ticks(n: int) -> list[int]:
    """Ticks for counts from 0 to ``n``: every count up to 20, else a few round ones."""
    if n <= 20:
        return list(range(n + 1))
    from matplotlib.ticker import MaxNLocator

    return [int(t) for t in MaxNLocator(integer=True).tick_values(0, n) if 0 <= t <= n]


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
    ax.set_title(_(title))  # the texts in the language in use (coursekit.i18n)
    ax.set_xlabel(_(xlabel))
    ax.set_ylabel(_(ylabel))
    if xlim is not None:
        ax.set_xlim(*xlim)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.grid(alpha=0.3)
    extra = {} if handles is None else {"handles": handles}  # the bars' legend names colours
    ax.legend(**extra, loc=legend_loc, fontsize="small")


def rgba_png(pixels: np.ndarray) -> bytes:
    """Encode an RGBA pixel array (height x width x 4 bytes, as Agg's ``buffer_rgba``) as PNG
    bytes, with fast compression (for images that widgets redraw on every change)."""
    from PIL import Image  # Pillow: a dependency of matplotlib

    if not isinstance(pixels, np.ndarray) or pixels.dtype != np.uint8:
        got = getattr(pixels, "dtype", type(pixels).__name__)
        raise TypeError(f"pixels must be a numpy array of bytes (dtype uint8), got {got}")
    if pixels.ndim != 3 or pixels.shape[2] != 4 or 0 in pixels.shape:
        raise ValueError(f"pixels must have the shape (height, width, 4), got {pixels.shape}")
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGBA").save(buffer, "png", compress_level=1)
    return buffer.getvalue()


def figure_png(fig: Figure, dpi: float = 80) -> bytes:
    """Render a figure to PNG bytes (for an ``ipywidgets.Image``), without pyplot state."""
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    check_scalar(dpi, "dpi", numbers.Real, what="dots per inch", min_val=1, max_val=1000)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()
