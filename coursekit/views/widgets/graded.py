"""Chapter 05: change a grade, watch DCG and nDCG (three formulations) move."""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import numpy as np

from ...i18n import N_, _
from ...measures.graded import VARIANTS, check_variant, dcg, dcg_curve, ideal_gains, ndcg
from ...validation import describe, fits_a_float
from .. import plots
from .base import Widget, as_list, check_position, figure_box, nice_limit, table_html

__all__ = ["GradedJudgments", "VARIANT_LABELS"]

#: The grades of a rank's menu.
GRADES = (0, 1, 2, 3)

#: What the DCG formula buttons say (their values stay the codes of ``VARIANTS``).
VARIANT_LABELS = {
    "jarvelin": "Järvelin & Kekäläinen (2002)",
    "trec": "trec_eval",
    "burges": "Burges et al. (2005)",
}


def whole_grade(value: Any, name: str, menu: bool = True) -> int:
    """A grade: a whole number (``2`` or ``2.0``, not ``2.7``); with ``menu``, one of the
    grades of a rank's menu (0, 1, 2 or 3)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a whole number grade, got {type(value).__name__} {describe(value)}"
        )
    if not isinstance(value, numbers.Integral) and not (
        math.isfinite(value) and float(value).is_integer()
    ):
        raise ValueError(f"{name} must be a whole number grade, got {describe(value)}")
    grade = int(value)
    if menu and grade not in GRADES:
        raise ValueError(f"{name} must be 0, 1, 2 or 3 (the grades of the menu), got {grade}")
    if not fits_a_float(grade):
        raise ValueError(f"{name} is too large for a grade: {describe(value)}")
    return grade


def _grades(values: Any, name: str, menu: bool) -> list[int]:
    grades = as_list(values, name, "whole number grades")
    return [whole_grade(g, f"{name}[{i}] (rank {i + 1})", menu) for i, g in enumerate(grades)]


class GradedJudgments(Widget):
    """A grade (0-3) per rank and a DCG variant -> gains, DCG, ideal DCG, nDCG, and the
    DCG and ideal DCG curves (chapter 05).

    ``gains``: the grade of each rank, a whole number 0 to 3; ``ideal``: every judged grade
    of the query (whole numbers), those of the ranked documents included.
    """

    def __init__(
        self,
        gains: Sequence[int] = (3, 2, 3, 0, 0, 1, 2, 2, 3, 0),
        ideal: Sequence[int] | None = None,
        variant: str = "jarvelin",
    ):
        gains = _grades(gains, "gains", menu=True)
        if not gains:
            raise ValueError("gains is empty: give the grade of at least one rank")
        variant = check_variant(variant)
        if ideal is not None:
            ideal = [
                whole_grade(g, f"ideal[{i}]", menu=False)
                for i, g in enumerate(as_list(ideal, "ideal", "judged grades"))
            ]
        # ``ideal``: every judged grade of the query. The grades of judged documents that are
        # not in the list are kept apart, so that the ideal follows the grades chosen here
        # (a grade raised above the judged ones must raise the ideal too: nDCG stays <= 1).
        self.ideal = None if ideal is None else list(ideal)
        self.unretrieved: list[int] = []
        if ideal is not None:
            # only grades above 0 count (as in ndcg): the ranked documents' 0s may be unjudged
            left = Counter(g for g in ideal if g > 0)
            left.subtract(g for g in gains if g > 0)
            if any(n < 0 for n in left.values()):
                above = [g for g in gains if g > 0]
                raise ValueError(
                    "ideal must list every judged grade of the query, the grades of the "
                    f"ranked documents included: their grades above 0, {above}, are not part "
                    f"of {list(ideal)}"
                )
            self.unretrieved = sorted(left.elements(), reverse=True)
        super().__init__()  # the arguments are checked: build the widget
        self.grades = [
            w.Dropdown(
                options=list(GRADES),
                value=g,
                description=_("rank {i}").format(i=i),
                layout=w.Layout(width="9em"),
                style={"description_width": "4em"},
            )
            for i, g in enumerate(gains, start=1)
        ]
        self.variant = w.ToggleButtons(
            options=[(VARIANT_LABELS.get(v, v), v) for v in VARIANTS],
            value=variant,
            description=_("DCG formula"),
            style={"button_width": "auto"},
            tooltips=[
                "rel_1 + sum rel_i / log2(i)",
                "rel_i / log2(i + 1)",
                "(2^rel_i - 1) / log2(i + 1)",
            ],
        )
        for control in (*self.grades, self.variant):
            control.observe(lambda _: self.update(), names="value")
        self.update()
        self.widget = w.VBox(
            [
                w.HTML(
                    _("<b>Graded judgments</b> — choose the grade of each rank and the DCG formula")
                ),
                w.HBox(self.grades[:5]),
                w.HBox(self.grades[5:10]),
                w.HBox(self.grades[10:]),
                self.variant,
                figure_box(self.image, self.readout_html),
            ]
        )

    def _state(self) -> dict:
        # the judged grades as they are now: the ranked documents' chosen grades and the
        # unretrieved ones (the constructor's ``ideal`` would bring back a grade since changed)
        judged = None if self.ideal is None else [*self.gains, *self.unretrieved]
        return {"gains": self.gains, "ideal": judged, "variant": self.variant.value}

    @property
    def gains(self) -> list[int]:
        return [d.value for d in self.grades]

    def set_grade(self, rank: int, grade: int) -> None:
        """Set the grade at ``rank`` (1-based), as choosing it in the menu would."""
        rank = check_position(rank, len(self.grades))
        self.grades[rank - 1].value = whole_grade(grade, "grade")

    def set_variant(self, variant: str) -> None:
        """Choose the DCG formula (one of ``VARIANTS``), as its button would."""
        self.variant.value = check_variant(variant)

    def update(self) -> None:
        gains, variant = self.gains, self.variant.value
        # the chosen formula is marked with a tick, beside the button's pressed look
        icons = ["check" if v == variant else "" for v in VARIANTS]
        if list(self.variant.icons) != icons:
            self.variant.icons = icons
        judged = None if self.ideal is None else gains + self.unretrieved
        best = ideal_gains(gains, judged)[: len(gains)]
        self.values = {
            "DCG": dcg(gains, variant=variant),
            N_("ideal DCG"): dcg(best, variant=variant),
            "nDCG": ndcg(gains, k=len(gains), ideal=judged, variant=variant),
        }
        self.readout_html.value = (
            f"<div>{_('formula:')} {VARIANT_LABELS.get(variant, variant)}</div>"
            f"<div>{_('gains:')} {gains}</div>" + table_html(self.values)
        )
        curves = {"DCG": dcg_curve(gains, variant), "ideal DCG": dcg_curve(best, variant)}
        # The y axis fits the best DCG of the formula (every grade at its highest), so that it
        # changes only with the formula: a grade changed redraws the curves, not the frame.
        highest = max([3, *(self.ideal or [])])
        top = nice_limit(float(dcg_curve([highest] * max(len(gains), 1), variant)[-1]))

        def draw(ax, place):
            plots.gain_curves(
                curves,
                ax=ax,
                title=f"DCG: {VARIANT_LABELS.get(variant, variant)}",
                ylabel="DCG",
                legend_loc=place,
            )
            ax.set_xlim(0.5, len(gains) + 0.5)
            ax.set_ylim(0, top)

        def frame(ax):  # what a formula changes but the curves: the title and the y limit
            ax.set_title(f"DCG: {VARIANT_LABELS.get(variant, variant)}")
            ax.set_ylim(0, top)

        ranks = np.arange(1, len(gains) + 1)
        lines = [(ranks, curves["DCG"]), (ranks, curves["ideal DCG"])]
        # the legend where it covers no point of the curves (all 0s lie along the bottom); a
        # new formula reuses the axes drawn (its first use draws the frame, not the figure)
        self._render_clear(
            draw,
            key=(variant, top, len(gains)),
            lines=lines,
            first="lower right",
            frame=frame,
            changing=lambda ax: [
                ax.yaxis,
                *ax.spines.values(),
                ax.title,  # (zorder 3, then the legend, 5: the order of a full drawing)
                ax.get_legend(),
            ],
        )
