"""Chapters 02-04: toggle the relevance of a rank, watch P(k), R(k), the curve, AP and RR move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import numpy as np

from ...i18n import _
from ...measures.interpolation import (
    STANDARD_RECALL_LEVELS,
    interpolated_precision,
    interpolated_step,
)
from ...measures.ranked import (
    average_precision,
    precision_at,
    r_precision,
    reciprocal_rank,
)
from ...validation import as_grades, check_n_relevant, check_positive_int
from .. import plots
from .base import Widget, check_in_range, check_position, figure_box, table_html

__all__ = ["RelevanceToggler"]

#: The most ranks (a toggle button each) and the largest "relevant in total".
MAX_RANKS = 10_000
#: The cut-off k of P@k when none is given (or the number of ranks, if fewer).
DEFAULT_K = 5


def pr_rows(rels: list[int], n_relevant: int) -> dict[str, np.ndarray]:
    """P(k) and R(k) rank by rank (the numbers of :func:`coursekit.pr_table`, without pandas)."""
    relevant = np.asarray(rels) >= 1
    k = np.arange(1, relevant.size + 1)
    tp = np.cumsum(relevant, dtype=int)
    recall = tp / n_relevant if n_relevant else np.zeros(relevant.size)
    return {"k": k, "relevant": relevant, "TP": tp, "precision": tp / k, "recall": recall}


def pr_html(rows: dict[str, np.ndarray]) -> str:
    """The P(k)/R(k) table turned sideways (one column per rank), 2 decimals, scrolling
    sideways inside the output area when the ranks do not fit."""
    cells = {
        _("rank k"): [str(k) for k in rows["k"]],
        _("relevant"): ["✓" if r else "·" for r in rows["relevant"]],
        "TP": [str(t) for t in rows["TP"]],
        "P(k)": [f"{p:.2f}" for p in rows["precision"]],
        "R(k)": [f"{r:.2f}" for r in rows["recall"]],
    }
    body = "".join(
        f"<tr><th style='text-align:left;padding-right:0.6em'>{name}</th>"
        + "".join(f"<td style='text-align:right;padding:0 0.3em'>{v}</td>" for v in values)
        + "</tr>"
        for name, values in cells.items()
    )
    return (
        "<div style='max-width:100%;overflow-x:auto'>"
        f"<table style='border-collapse:collapse;font-variant-numeric:tabular-nums'>{body}</table>"
        "</div>"
    )


def _check(rels: Any, n_relevant: Any, k: Any, length: Any) -> tuple[list[int], int | None, int]:
    """The judgments (1 = relevant: a grade of 1 or more), padded with non-relevant ranks to
    ``length``, the checked ``n_relevant`` and ``k``."""
    start = [int(g) for g in as_grades(rels, "rels") >= 1]
    if length is None:
        if not start:
            raise ValueError("rels is empty: give the judgment of at least one rank")
        length = len(start)
    length = check_positive_int(length, "length")
    if length < len(start):
        raise ValueError(
            f"length={length} is shorter than rels ({len(start)} ranks): length adds "
            "non-relevant ranks after those of rels, it does not cut them"
        )
    if length > MAX_RANKS:
        raise ValueError(f"length must be at most {MAX_RANKS} (a button per rank), got {length}")
    start += [0] * (length - len(start))
    if n_relevant is not None:
        check_in_range(n_relevant, "n_relevant", 0, MAX_RANKS)
        n_relevant = check_n_relevant(n_relevant, np.asarray(start, dtype=bool))
    k = min(DEFAULT_K, length) if k is None else check_in_range(k, "k", 1, length)
    return start, n_relevant, k


class RelevanceToggler(Widget):
    """A ranked list as toggle buttons -> the P(k)/R(k) table, the precision-recall curve with
    its interpolation, AP, P@k, R-precision and RR (chapters 02 to 04).

    ``rels``: the grade of each rank (1 or more: relevant); ``length`` adds non-relevant ranks
    after them; ``n_relevant``: the relevant documents of the collection (by default those of
    ``rels``), at least those of ``rels``; ``k``: the cut-off of P@k, from 1 to the number of
    ranks (by default 5, or the number of ranks if fewer). A click that marks more relevant
    documents than ``n_relevant`` raises it to their number.
    """

    def __init__(
        self,
        rels: Sequence[int] = (1, 1, 0, 1, 0, 1, 0, 0, 0, 0),
        n_relevant: int | None = None,
        k: int | None = None,
        length: int | None = None,
    ):
        start, n_relevant, k = _check(rels, n_relevant, k, length)
        length = len(start)
        super().__init__()  # the arguments are checked: build the widget
        self.buttons = [
            w.ToggleButton(
                value=bool(r),
                description=str(i),
                tooltip=_("rank {i}: relevant?").format(i=i),
                layout=w.Layout(width="3.2em"),
            )
            for i, r in enumerate(start, start=1)
        ]
        found = sum(start)
        self.n_relevant = w.BoundedIntText(
            value=n_relevant if n_relevant is not None else found,
            min=0,
            max=MAX_RANKS,
            description=_("relevant in total"),
            style={"description_width": "initial"},
            layout=w.Layout(width="14em"),
        )
        self.k = w.IntSlider(value=k, min=1, max=length, description=_("k for P@k"))
        self.table_html = w.HTML()
        for control in (*self.buttons, self.n_relevant, self.k):
            control.observe(lambda _: self.update(), names="value")
        self.update()
        self.widget = w.VBox(
            [
                w.HTML(
                    "<b>Relevance toggler</b> — click a rank to mark its document relevant "
                    "(pressed) or not"
                ),
                w.HBox(self.buttons, layout=w.Layout(flex_flow="row wrap")),
                w.HBox([self.n_relevant, self.k]),
                figure_box(self.image, self.readout_html),
                self.table_html,
            ]
        )

    def _state(self) -> dict:
        return {
            "rels": self.rels,
            "n_relevant": self.n_relevant.value,
            "k": self.k.value,
            "length": len(self.buttons),
        }

    @property
    def rels(self) -> list[int]:
        """The current judgments, rank by rank (1 = relevant)."""
        return [int(b.value) for b in self.buttons]

    def toggle(self, rank: int) -> None:
        """Flip the judgment at ``rank`` (1-based), as a click would."""
        button = self.buttons[check_position(rank, len(self.buttons)) - 1]
        button.value = not button.value

    def update(self) -> None:
        rels = self.rels
        found = sum(rels)
        if self.n_relevant.value < found:  # the collection holds at least what was found
            self.n_relevant.value = found  # (this triggers update again)
            return
        n = self.n_relevant.value
        self.values = {
            "AP": average_precision(rels, n),
            f"P@{self.k.value}": precision_at(rels, self.k.value),
            "R-precision": r_precision(rels, n),
            "RR": reciprocal_rank(rels),
        }
        for button in self.buttons:  # the click's own feedback first, then figure and readout
            button.button_style = "success" if button.value else ""
        rows = pr_rows(rels, n)

        def data():  # the lines of plots.pr_curve: points, interpolated step, 11 levels
            interpolated = interpolated_precision(rels, n)
            return [
                (rows["recall"], rows["precision"]),
                interpolated_step(rows["recall"], rows["precision"]),
                (STANDARD_RECALL_LEVELS, interpolated),
            ]

        # the legend where it hides no point of the curve (a place found on the last drawing);
        # a new place moves the legend over the rest of the figure, drawn once, and the frames
        # of every place are drawn when the widget is built (a first click that moves the
        # legend drew the whole figure: 150-250 ms)
        building = self.image is None
        self._render_clear(
            lambda ax, at: plots.pr_curve(rels, n, ax=ax, label=_("ranking"), legend_loc=at),
            key=(),
            lines=data(),
            frame=lambda ax: None,  # the axes' limits and titles never change
            changing=lambda ax: [ax.get_legend()],  # (drawn last in a full drawing too)
            warm=building,
        )
        # The figure's message goes before the readout's: the page handles a kernel's messages
        # one after the other, and the figure, the larger one, is what the click waits for.
        self.readout_html.value = table_html(self.values)
        self.table_html.value = pr_html(rows)  # the table below the figure comes last
