"""Chapter 06: move the found relevant documents, watch AP, recall, F'β, PRES and MOR move."""

from __future__ import annotations

import html
import numbers
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import ipywidgets as w
import numpy as np

from ...i18n import N_, _
from ...measures.ranked import (
    average_precision,
    rels_from_ranks,
)
from ...measures.recall_oriented import f_prime, mor, pres
from ...validation import check_choice
from .. import plots
from .base import ERROR, SMALL, Widget, as_list, check_in_range, figure_box, table_html

__all__ = ["RecallOriented"]

#: The largest N_max, relevant count and rank the boxes accept.
LIMIT = 10_000
#: The range of the beta slider.
BETA_RANGE = (0.25, 8.0)
HOW = "Write the ranks separated by commas, e.g. 1, 54"


def read_ranks(ranks: Any) -> list[int]:
    """The ranks of the relevant documents found, sorted: from text (``"1, 54"``: numbers
    separated by commas or semicolons) or from a sequence of whole numbers. Each is a rank from
    1 to ``LIMIT``, given once."""
    if isinstance(ranks, str):
        parts = [p.strip() for p in ranks.replace(";", ",").split(",")]
        read = []
        for part in filter(None, parts):
            if not part.isascii() or not part.isdigit():
                raise ValueError(
                    f"cannot read the ranks: “{part}” is not a rank (a whole number from 1). {HOW}"
                )
            read.append(int(part))
    else:  # a set of ranks is fine: they are sorted
        read = as_list(
            list(ranks) if isinstance(ranks, AbstractSet) else ranks,
            "ranks",
            "ranks (whole numbers from 1)",
        )
    for rank in read:
        if isinstance(rank, (bool, np.bool_)) or not isinstance(rank, numbers.Integral):
            raise TypeError(
                f"ranks must hold whole numbers from 1, got {type(rank).__name__} {rank!r}"
            )
        if not 1 <= rank <= LIMIT:
            raise ValueError(f"rank {rank} is not a rank from 1 to {LIMIT}. {HOW}")
    repeated = sorted(int(r) for r, times in Counter(read).items() if times > 1)
    if repeated:
        raise ValueError(f"rank {repeated[0]} is given twice: each rank holds one document")
    return sorted(int(r) for r in read)


def recall_values(ranks: list[int], n: int, n_max: int, beta: float) -> dict[str, float]:
    """The readout for relevant documents at ``ranks``, ``n`` relevant in all, N_max and beta."""
    if len(ranks) > n:
        raise ValueError(
            f"{len(ranks)} ranks of relevant documents are given but n_relevant is {n}: "
            "n_relevant counts every relevant document, found or not"
        )
    rels = rels_from_ranks(ranks, max([n_max, *ranks]))
    ap = average_precision(rels[:n_max], n)
    found = sum(rels[:n_max])
    return {
        N_("AP (at N_max)"): ap,
        N_("recall (at N_max)"): found / n,
        f"F′ (β={beta:g})": f_prime(ap, found / n, beta),
        "PRES": pres(rels, n, n_max),
        "MOR": mor(rels, n, n_max),
    }


class RecallOriented(Widget):
    """N_max, n_relevant and the ranks of the relevant documents -> AP, recall, F'_beta, PRES,
    MOR, with the found documents between the best and worst cases (chapter 06). Preset
    buttons load the five systems of Audeh, Beaune & Beigbeder (2015).

    ``ranks``: a sequence of whole numbers, or text such as ``"1, 54"``; ``n_relevant`` and
    ``n_max``: 1 to 10 000, ``n_relevant`` at least the number of ranks; ``beta``: 0.25 to 8
    (the ranges of the boxes and of the slider). Ranks beyond N_max count as not found.
    """

    PRESETS = {
        "system 1": (1, 2, 3, 4),
        "system 2": (50, 51, 53, 54),
        "system 3": (1, 98, 99, 100),
        "system 4": (1, 54),
        "system 5": (1,),
    }

    def __init__(
        self,
        ranks: Sequence[int] = (1, 54),
        n_relevant: int = 4,
        n_max: int = 100,
        beta: float = 4.0,
    ):
        if not isinstance(ranks, (str, AbstractSet)):
            ranks = as_list(ranks, "ranks", "ranks (whole numbers from 1)")  # read once
        checked = read_ranks(ranks)
        n_relevant = check_in_range(n_relevant, "n_relevant", 1, LIMIT)
        n_max = check_in_range(n_max, "n_max", 1, LIMIT)
        beta = check_in_range(beta, "beta", *BETA_RANGE, whole=False)
        recall_values(checked, n_relevant, n_max, beta)  # refuses what update would refuse
        super().__init__()  # the arguments are checked: build the widget
        style = {"description_width": "initial"}
        self.ranks = w.Text(
            value=ranks if isinstance(ranks, str) else ", ".join(map(str, ranks)),
            description=_("ranks of the relevant documents found"),
            style=style,
            continuous_update=False,
            layout=w.Layout(width="32em"),
        )
        self.n_relevant = w.BoundedIntText(
            value=n_relevant, min=1, max=LIMIT, description=_("relevant in total"), style=style
        )
        self.n_max = w.BoundedIntText(
            value=n_max, min=1, max=LIMIT, description=_("N_max (documents examined)"), style=style
        )
        low, high = BETA_RANGE
        self.beta = w.FloatSlider(
            value=beta, min=low, max=high, step=0.25, description=_("β for F′"), style=style
        )
        self.presets = [
            w.Button(description=name, tooltip=f"ranks {ranks}", layout=SMALL)
            for name, ranks in self.PRESETS.items()
        ]
        for button in self.presets:
            button.on_click(lambda b: self.load(b.description))
        self.message = w.HTML()
        self._ranks = checked  # the last ranks that could be read
        for control in (self.ranks, self.n_relevant, self.n_max, self.beta):
            control.observe(lambda _: self.update(), names="value")
        self.update()
        self.widget = w.VBox(
            [
                w.HTML(_("<b>Recall-oriented measures</b> — where are the relevant documents?")),
                w.HBox(self.presets),
                self.ranks,
                w.HBox([self.n_relevant, self.n_max]),
                self.beta,
                self.message,
                figure_box(self.image, self.readout_html),
            ]
        )

    def _state(self) -> dict:
        return {
            "ranks": self._ranks,
            "n_relevant": self.n_relevant.value,
            "n_max": self.n_max.value,
            "beta": self.beta.value,
        }

    def load(self, name: str) -> None:
        """Load a preset (one of ``PRESETS``), as its button would: 4 relevant, N_max = 100."""
        check_choice(name, "preset", self.PRESETS)
        self._loading = True  # one update for the three changes
        try:
            self.n_relevant.value, self.n_max.value = 4, 100
            self.ranks.value = ", ".join(map(str, self.PRESETS[name]))
        finally:
            self._loading = False
        self.update()

    def _stale(self, error: Exception) -> None:
        """Say what is wrong, and mark the readout and the figure as out of date."""
        self.message.value = (
            f"<div style='color:{ERROR}'><b>{_('Not updated:')}</b> {html.escape(str(error))}.<br>"
            + _(
                "The readout (struck through) is that of the last valid input; the figure is "
                "hidden until the input is valid again."
            )
            + "</div>"
        )
        self.readout_html.value = table_html(self.values, stale=True)
        if self.image is not None:
            self.image.layout.visibility = "hidden"

    def update(self) -> None:
        if getattr(self, "_loading", False):
            return
        try:
            ranks = read_ranks(self.ranks.value)
            n, n_max = self.n_relevant.value, self.n_max.value
            self.values = recall_values(ranks, n, n_max, self.beta.value)
            rels = rels_from_ranks(ranks, max([n_max, *ranks]))
        except (ValueError, TypeError) as error:
            self._stale(error)
            return
        self._ranks = ranks
        self.message.value = ""
        self.readout_html.value = table_html(self.values)

        def data():  # the lines of plots.recall_rank: best case, worst case, this list
            relevant = np.asarray(rels, dtype=float)[:n_max] >= 1
            found = np.concatenate(
                [[0], np.cumsum(relevant), np.full(max(0, n_max - relevant.size), relevant.sum())]
            )[: n_max + 1]
            ranks = np.arange(0, n_max + 1)
            return [(ranks, np.minimum(ranks, n)), (ranks, np.zeros_like(ranks)), (ranks, found)]

        def draw(ax):
            plots.recall_rank(rels, n, n_max, ax=ax, label=_("this list"))
            # the legend beside the axes, where no curve can reach it (inside, it hid "this
            # list" wherever the documents were moved)
            ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), fontsize="small", borderaxespad=0)
            ax.figure.subplots_adjust(right=0.74)

        def frame(ax):  # the limits of plots.recall_rank for n and N_max: the lines are data
            ax.set_xlim(0, n_max)
            ax.set_ylim(-0.1, n + 0.3)

        def changing(ax):  # what frame changes, in the order of a full drawing (the title
            # and the legend beside the axes are drawn once). The x axis depends on N_max
            # alone: kept drawn over the rest for each N_max (a layer), so that a new n draws
            # only the y axis. (Not the other way round: where the grid lines cross, the y
            # axis drawn first would differ by 1 in a few pixels from a full drawing.)
            return (n_max, [ax.xaxis], [ax.yaxis, *ax.spines.values()])

        # a new n or N_max changes the axes' limits only: the figure is not built again
        self._render(draw, key=(n, n_max), data=data, frame=frame, changing=changing)
        if self.image.layout.visibility == "hidden":
            self.image.layout.visibility = None
