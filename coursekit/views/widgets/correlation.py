"""Chapter 07: swap two items of a ranking, watch Spearman's rho and Kendall's tau move."""

from __future__ import annotations

import html
import numbers
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from ...i18n import N_, _
from ...measures.correlation import kendall_tau, spearman_rho
from ...validation import describe, first_ranks
from ..tables import concordant_pairs
from .base import Widget, as_list, check_position, frame_html, table_html

__all__ = ["RankCorrelation"]


def _items(values: Any, name: str) -> list:
    """A ranking's items, first to last: each hashable (a string, a number) and given once."""
    items = as_list(values, name, "items in rank order")
    first_ranks(items, name, "item")
    return items


class RankCorrelation(Widget):
    """Two orderings of K items, with buttons that swap neighbours -> Spearman's rho and
    Kendall's tau, and the list of concordant and discordant pairs (chapter 07).

    ``first`` and ``second`` are sequences of the same items, first to last (``second``
    defaults to ``first``); a string, a set or a dict is refused: to rank items by their
    scores, sort them first (``sorted(scores, key=scores.get, reverse=True)``).
    """

    def __init__(
        self, first: Sequence[Any] = ("A", "B", "C", "D", "E"), second: Sequence[Any] | None = None
    ):
        one = _items(first, "first")  # read once: a generator too
        two = one if second is None else _items(second, "second")
        self.orders = [list(one), list(two)]
        self._values(*self.orders)  # refuses what update would refuse, before any control
        super().__init__()  # the arguments are checked: build the widget
        # Labels and buttons are made once; a swap only changes the labels' text.
        self.labels = [[w.Label() for _ in order] for order in self.orders]
        self.rows = [w.HBox(self._row(which)) for which in (0, 1)]
        self.pairs_html = w.HTML()
        self.update()
        self.widget = w.VBox(
            [
                w.HTML(
                    _(
                        "<b>Rank correlation</b> — swap neighbours in either ranking "
                        "(the ⇄ button swaps the items on its two sides)"
                    )
                ),
                w.HTML(_("first ranking")),
                self.rows[0],
                w.HTML(_("second ranking")),
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
        what = "which must be 0 (the first ranking) or 1 (the second)"
        if isinstance(which, bool) or not isinstance(which, numbers.Integral):
            raise TypeError(f"{what}, got {type(which).__name__} {describe(which)}")
        if which not in (0, 1):
            raise ValueError(f"{what}, got {which}")
        order = self.orders[int(which)]
        position = check_position(position, len(order) - 1, "position")
        order[position - 1], order[position] = order[position], order[position - 1]
        self.update()

    def _row(self, which: int) -> list[w.Widget]:
        items: list[w.Widget] = []
        for i, label in enumerate(self.labels[which], start=1):
            items.append(label)
            if i < len(self.labels[which]):
                button = w.Button(
                    description="⇄",
                    tooltip=_("swap positions {i} and {j}").format(i=i, j=i + 1),
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
            for name, order in zip((_("first"), _("second")), self.orders, strict=True)
        )
        display(HTML(rows + self.readout_html.value + self.pairs_html.value))

    @staticmethod
    def _values(a: list, b: list) -> tuple[dict[str, float], Any]:
        """The readout and the table of pairs of rankings ``a`` and ``b``."""
        values: dict[str, float] = {
            "Spearman rho": spearman_rho(a, b),
            "Kendall tau": kendall_tau(a, b),
        }
        pairs = concordant_pairs(a, b)
        counts = pairs["verdict"].value_counts()
        values[N_("concordant pairs")] = int(counts.get("concordant", 0))
        values[N_("discordant pairs")] = int(counts.get("discordant", 0))
        return values, pairs

    def update(self) -> None:
        self.values, pairs = self._values(*self.orders)
        self.readout_html.value = table_html(self.values)
        self.pairs_html.value = frame_html(pairs)
        for which in (0, 1):
            for i, item in enumerate(self.orders[which]):
                self.labels[which][i].value = f"{i + 1}. {item}"
