"""Chapter 01: the confusion matrix and the set-based measures as two sets change."""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as w

from ...i18n import N_, _
from ...measures.setbased import accuracy, f_measure, precision, recall
from .. import plots
from .base import Widget, check_in_range, figure_box, table_html

__all__ = ["SetBasedExplorer"]

#: The largest count of a cell (each count is made of that many document ids).
MAX_COUNT = 100_000
#: The range of the beta slider: 2**-3 to 2**3.
BETA_RANGE = (0.125, 8.0)


def slider_max(value: int) -> int:
    """The end of a count slider: about twice the value, rounded up to ten, at least 20.

    >>> slider_max(4), slider_max(14), slider_max(81)
    (20, 30, 170)
    """
    return max(20, 10 * math.ceil(2 * value / 10))


def _check(optional: bool = False, **given: Any) -> dict[str, Any]:
    """The given counts (whole numbers from 0 to ``MAX_COUNT``) and beta (in ``BETA_RANGE``),
    checked, in the order given; with ``optional``, ``None`` (not given) is left out."""
    checked = {}
    for name, value in given.items():
        if value is None and optional:
            continue
        if name == "beta":
            checked[name] = check_in_range(value, "beta", *BETA_RANGE, whole=False)
        else:
            checked[name] = check_in_range(value, name, 0, MAX_COUNT)
    return checked


class SetBasedExplorer(Widget):
    """Confusion-matrix counts and beta -> precision, recall, F_beta, accuracy, and the
    harmonic against the arithmetic mean of precision and recall (chapter 01).

    Each count is a whole number from 0 to 100 000 (its slider reaches about twice it);
    ``beta`` is from 0.125 to 8, the range of its slider.
    """

    def __init__(self, tp: int = 6, fp: int = 4, fn: int = 14, tn: int = 76, beta: float = 1.0):
        tp, fp, fn, tn, beta = _check(tp=tp, fp=fp, fn=fn, tn=tn, beta=beta).values()
        super().__init__()  # the arguments are checked: build the widget
        style = {"description_width": "initial"}
        self.sliders = {
            name: w.IntSlider(
                value=value,
                min=0,
                max=slider_max(value),
                description=label,
                style=style,
                continuous_update=False,
                layout=w.Layout(width="30em"),
            )
            for name, value, label in (
                ("tp", tp, _("TP: relevant, retrieved")),
                ("fp", fp, _("FP: retrieved, not relevant")),
                ("fn", fn, _("FN: relevant, missed")),
                ("tn", tn, _("TN: neither")),
            )
        }
        self.beta = w.FloatLogSlider(
            value=beta,
            base=2,
            min=-3,
            max=3,
            step=0.25,
            description=_("β (recall weight)"),
            style=style,
            continuous_update=False,
        )
        for control in (*self.sliders.values(), self.beta):
            control.observe(lambda _: self.update(), names="value")
        self.update()
        self.widget = w.VBox(
            [
                w.HTML("<b>Set-based measures</b> — set the four cells of the confusion matrix"),
                w.VBox([*self.sliders.values(), self.beta]),
                figure_box(self.image, self.readout_html),
            ]
        )

    def _state(self) -> dict:
        counts = {name: slider.value for name, slider in self.sliders.items()}
        return {**counts, "beta": self.beta.value}

    def set_counts(
        self,
        tp: int | None = None,
        fp: int | None = None,
        fn: int | None = None,
        tn: int | None = None,
        beta: float | None = None,
    ) -> None:
        """Set some counts (and beta), as moving the sliders would (all are checked first:
        a refused value changes nothing)."""
        given = _check(True, tp=tp, fp=fp, fn=fn, tn=tn, beta=beta)
        for name, value in given.items():
            if name == "beta":
                self.beta.value = value
            else:
                slider = self.sliders[name]
                slider.max = max(slider.max, slider_max(value))
                slider.value = value

    def update(self) -> None:
        counts = {name: slider.value for name, slider in self.sliders.items()}
        docs = [f"d{i}" for i in range(sum(counts.values()))]
        tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
        retrieved = docs[: tp + fp]
        relevant = docs[:tp] + docs[tp + fp : tp + fp + fn]
        p, r = precision(retrieved, relevant), recall(retrieved, relevant)
        n_docs = max(len(docs), 1)
        self.values = {
            N_("precision"): p,
            N_("recall"): r,
            f"F_beta (beta={self.beta.value:.3g})": f_measure(p, r, self.beta.value),
            N_("F1 (harmonic mean)"): f_measure(p, r),
            N_("arithmetic mean"): (p + r) / 2,
            N_("accuracy"): accuracy(retrieved, relevant, n_docs) if docs else 0.0,
        }
        self.readout_html.value = table_html(self.values)

        labels = list(self.values)
        beta = labels[2]  # the F_beta bar, whose name changes with beta

        def draw(ax):
            plots.value_bars(
                {"" if x == beta else _(x): v for x, v in self.values.items()},
                ax=ax,
                title=_("Set-based measures"),
            )
            ax.figure.subplots_adjust(left=0.36)  # room for the labels
            # F_beta's name as a text of the axes where its tick label would be (that label
            # left blank): a text is data, drawn over the frame, so a new beta redraws no frame
            from matplotlib import rcParams

            pad = rcParams["ytick.major.pad"] + rcParams["ytick.major.size"]
            place, vertical, horizontal = ax.get_yaxis_text1_transform(pad)
            color = rcParams["ytick.labelcolor"]
            ax.text(
                0,
                len(labels) - 1 - labels.index(beta),
                beta,
                transform=place,
                va=vertical,
                ha=horizontal,
                fontsize=rcParams["ytick.labelsize"],
                color=rcParams["ytick.color"] if color == "inherit" else color,
            )

        def data():
            return [{"width": value} for value in self.values.values()] + [{"text": beta}]

        key = tuple(label for label in labels if label != beta)
        self._render(draw, key=key, data=data)
