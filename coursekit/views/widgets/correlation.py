"""Chapter 07: swap two items of a ranking, watch Spearman's rho and Kendall's tau move."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from ...measures.correlation import kendall_tau, spearman_rho
from ..tables import concordant_pairs
from .base import Widget, frame_html, table_html

__all__ = ["RankCorrelation"]


class RankCorrelation(Widget):
    """Two orderings of K items, with buttons that swap neighbours -> Spearman's rho and
    Kendall's tau, and the list of concordant and discordant pairs (chapter 07)."""

    def __init__(
        self, first: Sequence[Any] = ("A", "B", "C", "D", "E"), second: Sequence[Any] | None = None
    ):
        super().__init__()
        self.orders = [list(first), list(second if second is not None else first)]
        # Labels and buttons are made once; a swap only changes the labels' text.
        self.labels = [[w.Label() for _ in order] for order in self.orders]
        self.rows = [w.HBox(self._row(which)) for which in (0, 1)]
        self.pairs_html = w.HTML()
        self.update()
        self.widget = w.VBox(
            [
                w.HTML(
                    "<b>Rank correlation</b> — swap neighbours in either ranking "
                    "(the ⇄ button swaps the items on its two sides)"
                ),
                w.HTML("first ranking"),
                self.rows[0],
                w.HTML("second ranking"),
                self.rows[1],
                self.readout_html,
                self.pairs_html,
            ]
        )

    def _state(self) -> dict:
        return {"first": list(self.orders[0]), "second": list(self.orders[1])}

    def swap(self, which: int, position: int) -> None:
        """Swap the items at ``position`` and ``position + 1`` (1-based) of ranking ``which``
        (0 or 1), as the button between them would."""
        order = self.orders[which]
        if not 1 <= position < len(order):
            raise ValueError(f"position must be between 1 and {len(order) - 1}, got {position}")
        order[position - 1], order[position] = order[position], order[position - 1]
        self.update()

    def _row(self, which: int) -> list[w.Widget]:
        items: list[w.Widget] = []
        for i, label in enumerate(self.labels[which], start=1):
            items.append(label)
            if i < len(self.labels[which]):
                button = w.Button(
                    description="⇄",
                    tooltip=f"swap positions {i} and {i + 1}",
                    layout=w.Layout(width="2.6em"),
                )
                button.on_click(lambda _, which=which, i=i: self.swap(which, i))
                items.append(button)
        return items

    def show_static(self) -> None:
        """Display the two rankings, the readout and the table of pairs as plain outputs."""
        from IPython.display import HTML, display

        rows = "".join(
            f"<div>{name}: {' · '.join(html.escape(str(x)) for x in order)}</div>"
            for name, order in zip(("first", "second"), self.orders, strict=True)
        )
        display(HTML(rows + self.readout_html.value + self.pairs_html.value))

    def update(self) -> None:
        a, b = self.orders
        self.values = {
            "Spearman rho": spearman_rho(a, b),
            "Kendall tau": kendall_tau(a, b),
        }
        pairs = concordant_pairs(a, b)
        counts = pairs["verdict"].value_counts()
        self.values["concordant pairs"] = int(counts.get("concordant", 0))
        self.values["discordant pairs"] = int(counts.get("discordant", 0))
        self.readout_html.value = table_html(self.values)
        self.pairs_html.value = frame_html(pairs)
        for which in (0, 1):
            for i, item in enumerate(self.orders[which]):
                self.labels[which][i].value = f"{i + 1}. {item}"
