"""Chapter 09: two assessors judge the same documents -> Cohen's kappa, the agreement table,
and the ordering of the systems under each assessor's judgments.

:class:`AssessorAgreement` shows one row of toggle buttons per assessor (a button per judged
document: pressed = relevant). On every change it recomputes, with :mod:`coursekit.measures`,
the 2 × 2 agreement table, the observed and chance agreement, Cohen's kappa, each system's AP
under each assessor's judgments, the two orderings of the systems and Kendall's tau between
them; the figure draws the two APs of every system side by side.

>>> view = AssessorAgreement(
...     first=[1, 1, 0, 0], second=[1, 0, 0, 0], items=["d1", "d2", "d3", "d4"],
...     rankings={"s1": ["d1", "d2", "d3"], "s2": ["d3", "d2", "d1"]},
... )
>>> view.values["Cohen kappa"]
0.5
>>> view.toggle(2, "d2")  # assessor 2 now agrees on every document
>>> view.values["Cohen kappa"]
1.0
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import ipywidgets as w
import numpy as np

from ...i18n import N_, _
from ...measures.agreement import agreement_table, cohen_kappa
from ...measures.correlation import kendall_tau
from ...measures.ranked import average_precision
from ...validation import first_ranks, preview
from .base import Widget, as_list, check_position, figure_box, table_html, text_keys
from .canvas import room_for_labels

__all__ = ["AssessorAgreement"]

#: The example shown when no judgments are given: 8 documents, 3 systems.
DEFAULT_ITEMS = ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8")
DEFAULT_FIRST = (1, 1, 0, 1, 0, 0, 1, 0)
DEFAULT_SECOND = (1, 0, 0, 1, 0, 1, 1, 0)
DEFAULT_RANKINGS = {
    "sys1": ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8"),
    "sys2": ("d6", "d1", "d4", "d3", "d8", "d2", "d5", "d7"),
    "sys3": ("d2", "d5", "d7", "d1", "d3", "d8", "d4", "d6"),
}
_LABELS = [0, 1]  # not relevant, relevant


def _judgments(values: Any, name: str) -> list[int]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (Sequence, np.ndarray)):
        raise TypeError(
            f"{name} must be a sequence of 0/1 judgments (1 = relevant), one per document, "
            f"got {type(values).__name__}"
        )
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    out = []
    for i, v in enumerate(items):
        if not isinstance(v, (numbers.Integral, np.bool_)) or int(v) not in (0, 1):
            raise ValueError(f"{name}[{i}] must be 0 (not relevant) or 1 (relevant), got {v!r}")
        out.append(int(v))
    return out


def _rankings(rankings: Any) -> dict[str, list]:
    if not isinstance(rankings, Mapping):
        raise TypeError(
            "rankings must map a system name to its ranking (document ids, best first), "
            f"got {type(rankings).__name__}"
        )
    if len(rankings) < 2:
        raise ValueError(
            f"rankings must hold at least two systems to order them, got {len(rankings)}"
        )
    text_keys(rankings, "rankings", "systems")
    checked = {}
    for system, ranking in rankings.items():
        if isinstance(ranking, (str, bytes, Mapping)) or not isinstance(
            ranking, (Sequence, np.ndarray)
        ):
            raise TypeError(
                f"the ranking of system {system!r} must be a sequence of document ids, got "
                f"{type(ranking).__name__}"
            )
        docs = list(ranking)
        first_ranks(docs, f"the ranking of system {system!r}", as_text=True)  # (ids as text)
        checked[str(system)] = docs
    return checked


def _tau(a: dict[str, float], b: dict[str, float]) -> float:
    """Kendall's tau-b of two score dicts; nan when a ranking ties every system."""
    try:
        return kendall_tau(a, b)
    except ValueError:
        return float("nan")


def _order(scores: dict[str, float]) -> str:
    """The systems best first, joined with '>', or '=' between two of equal AP (listed by
    name).

    >>> _order({"b": 0.5, "a": 0.5, "c": 0.9})
    'c > a = b'
    """
    ranked = sorted(scores, key=lambda s: (-scores[s], s))
    text = ranked[0] if ranked else ""
    for before, system in zip(ranked[:-1], ranked[1:], strict=True):
        text += (" = " if scores[system] == scores[before] else " > ") + system
    return text


#: A line of the readout: the systems in the order of an assessor's AP, best first.
ORDER = N_("order by AP ({who}): {order}")


class AssessorAgreement(Widget):
    """Two assessors' binary judgments of the same documents -> Cohen's kappa, the agreement
    table, and each system's AP and ordering under each assessor's judgments (chapter 09).

    ``first`` and ``second`` hold one judgment per document of ``items`` (1 relevant, 0 not;
    ``second`` defaults to a copy of ``first``); ``rankings`` maps each system to its ranking
    of document ids, best first. A ranked document outside ``items`` counts as not relevant;
    every relevant document is among ``items``, so an assessor's number of relevant documents
    is the R of AP. Use :meth:`toggle` as a click on a button would, ``readout()`` for the
    numbers, :attr:`scores` for the APs and ``show_static()`` for a static picture.
    """

    title = "Two assessors"

    def __init__(
        self,
        first: Sequence[int] = DEFAULT_FIRST,
        second: Sequence[int] | None = None,
        rankings: Mapping[str, Sequence[Hashable]] | None = None,
        items: Sequence[Hashable] | None = None,
    ) -> None:
        one = _judgments(first, "first")
        if second is None:
            second = DEFAULT_SECOND if first is DEFAULT_FIRST else one
        two = _judgments(second, "second")
        if not one:
            raise ValueError("first is empty: give at least one judged document")
        if len(two) != len(one):
            raise ValueError(
                f"first and second must judge the same documents: got {len(one)} and {len(two)}"
            )
        if items is None:
            items = DEFAULT_ITEMS if len(one) == len(DEFAULT_ITEMS) else range(1, len(one) + 1)
            items = [i if isinstance(i, str) else f"d{i}" for i in items]
        self.items = [str(i) for i in as_list(items, "items", "document ids")]
        if len(self.items) != len(one):
            raise ValueError(f"items names {len(self.items)} documents, first judges {len(one)}")
        if len(set(self.items)) != len(self.items):
            raise ValueError("items must not repeat a document id")
        self.judgments = [one, two]
        self.rankings = _rankings(DEFAULT_RANKINGS if rankings is None else rankings)
        self.systems = list(self.rankings)
        self._index = {doc: i for i, doc in enumerate(self.items)}
        # the position in items of each ranked document (-1: not judged, not relevant)
        self._positions = {
            s: np.array([self._index.get(str(d), -1) for d in r], dtype=np.int64)
            for s, r in self.rankings.items()
        }
        if not any(np.any(positions >= 0) for positions in self._positions.values()):
            ranked = preview(dict.fromkeys(str(d) for r in self.rankings.values() for d in r))
            raise ValueError(
                "no ranked document is among the judged items, so every AP would be 0: the "
                f"rankings hold {ranked or 'no document'}, the items {preview(self.items)} "
                "(ids are read as text and must match)"
            )
        super().__init__()  # the arguments are checked: build the widget
        self._syncing = False
        self.buttons = [
            [
                w.ToggleButton(
                    value=bool(v),
                    description=doc,
                    tooltip=_("assessor {a}: is {doc} relevant?").format(a=a + 1, doc=doc),
                    # as wide as its document id: a fixed width cut ids such as "W020" to
                    # "W0…" (the button's padding takes 1.5em of it)
                    layout=w.Layout(width="auto", min_width="3em"),
                )
                for doc, v in zip(self.items, self.judgments[a], strict=True)
            ]
            for a in (0, 1)
        ]
        for a in (0, 1):
            for i, button in enumerate(self.buttons[a]):
                button.observe(lambda change, a=a, i=i: self._clicked(a, i, change), names="value")
        self.table_html = w.HTML()
        self.update()
        self.widget = w.VBox(
            [
                w.HTML(
                    _(
                        "<b>Two assessors</b> — press a document to call it relevant; kappa, "
                        "the agreement table and the two orderings of the systems follow"
                    )
                ),
                w.HTML(_("assessor 1")),
                w.HBox(self.buttons[0], layout=w.Layout(flex_flow="row wrap")),
                w.HTML(_("assessor 2")),
                w.HBox(self.buttons[1], layout=w.Layout(flex_flow="row wrap")),
                figure_box(self.image, self.readout_html),
                self.table_html,
            ]
        )

    def _state(self) -> dict:
        return {
            "first": list(self.judgments[0]),
            "second": list(self.judgments[1]),
            "rankings": {s: list(r) for s, r in self.rankings.items()},
            "items": list(self.items),
        }

    # --- what a click does -------------------------------------------------------------------

    def _clicked(self, assessor: int, index: int, change: dict) -> None:
        if self._syncing:
            return
        self.judgments[assessor][index] = int(bool(change["new"]))
        self._style(assessor, index)
        self.update()

    def _check_assessor(self, assessor: Any) -> int:
        if isinstance(assessor, bool) or not isinstance(assessor, numbers.Integral):
            raise TypeError(f"assessor must be 1 or 2, got {type(assessor).__name__} {assessor!r}")
        if assessor not in (1, 2):
            raise ValueError(f"assessor must be 1 or 2, got {assessor}")
        return int(assessor) - 1

    def _check_item(self, item: Any) -> int:
        if isinstance(item, str):
            if item not in self._index:
                raise ValueError(f"item {item!r} is not among the judged documents {self.items}")
            return self._index[item]
        if isinstance(item, bool) or not isinstance(item, numbers.Integral):
            raise TypeError(f"item must be a document id or its position (1 = first), got {item!r}")
        return check_position(item, len(self.items), "item") - 1

    def toggle(self, assessor: int, item: int | str) -> None:
        """Flip the judgment of ``item`` (a document id, or its position, 1 = first) by
        ``assessor`` (1 or 2), as pressing its button would."""
        a, i = self._check_assessor(assessor), self._check_item(item)
        self.judgments[a][i] = 1 - self.judgments[a][i]
        self._syncing = True
        try:
            self.buttons[a][i].value = bool(self.judgments[a][i])
        finally:
            self._syncing = False
        self._style(a, i)
        self.update()

    def _style(self, a: int, i: int) -> None:
        self.buttons[a][i].button_style = "success" if self.judgments[a][i] else ""

    # --- numbers -----------------------------------------------------------------------------

    def _ap(self, judged: list[int]) -> dict[str, float]:
        relevant = np.array(judged + [0], dtype=float)  # index -1: not judged, not relevant
        n_relevant = int(sum(judged))
        return {
            s: average_precision(relevant[positions], n_relevant)
            for s, positions in self._positions.items()
        }

    def update(self) -> None:
        one, two = self.judgments
        for a in (0, 1):
            for i in range(len(self.items)):
                self._style(a, i)
        _, counts = agreement_table(one, two, labels=_LABELS)
        n = int(counts.sum())
        observed = float(np.trace(counts)) / n
        row, column = counts.sum(axis=1) / n, counts.sum(axis=0) / n
        self.scores = {N_("assessor 1"): self._ap(one), N_("assessor 2"): self._ap(two)}
        self.counts = counts
        self.values = {
            N_("documents"): n,
            N_("both relevant"): int(counts[1, 1]),
            N_("both not relevant"): int(counts[0, 0]),
            N_("relevant for 1 only"): int(counts[1, 0]),
            N_("relevant for 2 only"): int(counts[0, 1]),
            N_("P(A) observed agreement"): observed,
            N_("P(E) chance agreement"): float(np.dot(row, column)),
            "Cohen kappa": cohen_kappa(one, two, labels=_LABELS),
            N_("Kendall tau of the system orderings"): _tau(
                self.scores["assessor 1"], self.scores["assessor 2"]
            ),
        }
        self.orders = {who: _order(scores) for who, scores in self.scores.items()}
        self.readout_html.value = table_html(self.values)
        self.table_html.value = self._table()
        self._render(self._draw, key=tuple(self.systems), data=self._bars)

    def readout(self) -> str:
        """The numbers as text, then the two orderings of the systems (best first)."""
        orders = "\n".join(_(ORDER).format(who=_(who), order=o) for who, o in self.orders.items())
        return super().readout() + "\n" + orders

    def _table(self) -> str:
        c = self.counts
        cells = [
            ("", _("2: relevant"), _("2: not relevant"), _("total")),
            (_("1: relevant"), c[1, 1], c[1, 0], c[1].sum()),
            (_("1: not relevant"), c[0, 1], c[0, 0], c[0].sum()),
            (_("total"), c[:, 1].sum(), c[:, 0].sum(), c.sum()),
        ]
        rows = "".join(
            "<tr>"
            + "".join(f"<td style='padding:0 .6em'>{html.escape(str(x))}</td>" for x in r)
            + "</tr>"
            for r in cells
        )
        orders = "".join(
            f"<div>{html.escape(_(ORDER).format(who=_(who), order=o))}</div>"
            for who, o in self.orders.items()
        )
        return f"<table>{rows}</table>{orders}"

    # --- figure ------------------------------------------------------------------------------

    def _widths(self) -> list[float]:
        return [self.scores[who][s] for who in ("assessor 1", "assessor 2") for s in self.systems]

    def _bars(self) -> list[dict]:
        return [{"width": v} for v in self._widths()]

    def _draw(self, ax) -> None:
        y = np.arange(len(self.systems))[::-1].astype(float)
        ax.barh(
            y + 0.2,
            [self.scores["assessor 1"][s] for s in self.systems],
            0.4,
            color="C0",
            label=_("judged by assessor 1"),
        )
        ax.barh(
            y - 0.2,
            [self.scores["assessor 2"][s] for s in self.systems],
            0.4,
            color="C1",
            label=_("judged by assessor 2"),
        )
        ax.set_yticks(y, self.systems)
        ax.figure.subplots_adjust(left=room_for_labels(ax.figure, self.systems))  # names whole
        ax.set_xlim(0, 1.02)
        ax.set_xlabel("AP")
        # no legend (redrawn over the data at every change, it would double the cost): the
        # title says which bar is which
        # (right-aligned: the room the names take on the left is the title's too)
        title = _("AP by system: assessor 1 (upper bar, blue), 2 (lower, orange)")
        ax.set_title(title, fontsize=9, loc="right")
        ax.grid(alpha=0.3, axis="x")

    def show_static(self) -> None:
        """Display the judgments, the figure, the readout and the agreement table."""
        from IPython.display import HTML, Image, display

        rows = "".join(
            f"<div>{_('assessor {a}:').format(a=a + 1)} "
            + " ".join(
                f"<b>{html.escape(d)}</b>" if v else html.escape(d)
                for d, v in zip(self.items, self.judgments[a], strict=True)
            )
            + "</div>"
            for a in (0, 1)
        )
        display(HTML(rows + f" <i>{_('(bold: judged relevant)')}</i>"))
        if self.image is not None:
            display(Image(data=self.image.value, format="png"))
        display(HTML(self.readout_html.value + self.table_html.value))
