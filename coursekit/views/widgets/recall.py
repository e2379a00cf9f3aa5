"""Chapter 06: move the found relevant documents, watch R_norm, PRES and MOR move."""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as w
import numpy as np

from ...measures.ranked import (
    average_precision,
    rels_from_ranks,
)
from ...measures.recall_oriented import f_prime, mor, pres
from .. import plots
from .base import ERROR, SMALL, Widget, figure_box, table_html

__all__ = ["RecallOriented"]


class RecallOriented(Widget):
    """N_max, n_relevant and the ranks of the relevant documents -> AP, recall, F'_beta, PRES,
    MOR, with the found documents between the best and worst cases (chapter 06). Preset
    buttons load the five systems of Audeh, Beaune & Beigbeder (2015)."""

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
        super().__init__()
        style = {"description_width": "initial"}
        self.ranks = w.Text(
            value=", ".join(map(str, ranks)),
            description="ranks of the relevant documents found",
            style=style,
            continuous_update=False,
            layout=w.Layout(width="32em"),
        )
        self.n_relevant = w.BoundedIntText(
            value=n_relevant, min=1, max=10_000, description="relevant in total", style=style
        )
        self.n_max = w.BoundedIntText(
            value=n_max, min=1, max=10_000, description="N_max (documents examined)", style=style
        )
        self.beta = w.FloatSlider(
            value=beta, min=0.25, max=8, step=0.25, description="β for F′", style=style
        )
        self.presets = [
            w.Button(description=name, tooltip=f"ranks {ranks}", layout=SMALL)
            for name, ranks in self.PRESETS.items()
        ]
        for button in self.presets:
            button.on_click(lambda b: self.load(b.description))
        self.message = w.HTML()
        self._ranks = sorted(set(ranks))  # the last ranks that could be read
        for control in (self.ranks, self.n_relevant, self.n_max, self.beta):
            control.observe(lambda _: self.update(), names="value")
        self.update()
        self.widget = w.VBox(
            [
                w.HTML("<b>Recall-oriented measures</b> — where are the relevant documents?"),
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
        self._loading = True  # one update for the three changes
        try:
            self.n_relevant.value, self.n_max.value = 4, 100
            self.ranks.value = ", ".join(map(str, self.PRESETS[name]))
        finally:
            self._loading = False
        self.update()

    def _parse(self) -> list[int]:
        text = self.ranks.value.replace(";", ",")
        ranks = set()
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            if not part.isdigit() or int(part) < 1:
                raise ValueError(
                    f"cannot read the ranks: “{part}” is not a rank (a whole number from 1). "
                    "Write the ranks separated by commas, e.g. 1, 54"
                )
            ranks.add(int(part))
        return sorted(ranks)

    def _stale(self, error: Exception) -> None:
        """Say what is wrong, and mark the readout and the figure as out of date."""
        self.message.value = (
            f"<div style='color:{ERROR}'><b>Not updated:</b> {html.escape(str(error))}.<br>"
            "The readout (struck through) is that of the last valid input; the figure is "
            "hidden until the input is valid again.</div>"
        )
        self.readout_html.value = table_html(self.values, stale=True)
        if self.image is not None:
            self.image.layout.visibility = "hidden"

    def update(self) -> None:
        if getattr(self, "_loading", False):
            return
        try:
            ranks = self._parse()
            length = max([self.n_max.value, *ranks]) if ranks else self.n_max.value
            rels = rels_from_ranks(ranks, length)
            n, n_max = self.n_relevant.value, self.n_max.value
            ap = average_precision(rels[:n_max], n)
            found = sum(rels[:n_max])
            self.values = {
                "AP (at N_max)": ap,
                "recall (at N_max)": found / n,
                f"F′ (β={self.beta.value:g})": f_prime(ap, found / n, self.beta.value),
                "PRES": pres(rels, n, n_max),
                "MOR": mor(rels, n, n_max),
            }
        except (ValueError, TypeError) as error:
            self._stale(error)
            return
        self._ranks = ranks
        self.message.value = ""
        self.readout_html.value = table_html(self.values)

        def data():
            relevant = np.asarray(rels, dtype=float)[:n_max] >= 1
            found = np.concatenate(
                [[0], np.cumsum(relevant), np.full(max(0, n_max - relevant.size), relevant.sum())]
            )[: n_max + 1]
            return [None, None, (np.arange(0, n_max + 1), found)]

        self._render(
            lambda ax: plots.recall_rank(
                rels, n, n_max, ax=ax, label="this list", legend_loc="center right"
            ),
            key=(n, n_max),
            data=data,
        )
        if self.image.layout.visibility == "hidden":
            self.image.layout.visibility = None
