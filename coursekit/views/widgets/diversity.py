"""Chapter 11: tick which subtopics each ranked document covers, move α, watch alpha-nDCG@k,
S-recall@k and the novelty gains rank by rank move.

:class:`DiversityGrid` shows a ranking as a grid of toggle buttons, one row per rank and one
column per subtopic (pressed: the document is relevant to that subtopic). Every number comes
from :mod:`coursekit.measures.diversity` and :mod:`coursekit.measures.intent_aware`
(``novelty_gains``, ``alpha_dcg``, ``alpha_ndcg``, ``ideal_diversity_ranking``,
``subtopic_recall``), with the judgments of the grid: the ranked documents are the query's
judged documents, so the ideal ranking re-orders them.

>>> view = DiversityGrid([[1, 0], [1, 0], [0, 1]], alpha=0.5, k=2)
>>> view.gains
[1.0, 0.5, 1.0]
>>> view.toggle(2, 2)  # rank 2 now covers the second subtopic too
>>> view.gains
[1.0, 1.5, 0.5]
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import numpy as np

from ...i18n import N_, _
from ...measures.diversity import alpha_dcg, alpha_ndcg, ideal_diversity_ranking, novelty_gains
from ...measures.intent_aware import subtopic_recall
from ...validation import describe
from .. import plots
from .base import (
    Widget,
    as_list,
    check_in_range,
    check_position,
    nice_limit,
    table_html,
)

__all__ = ["DiversityGrid"]

#: The most ranks and subtopics of the grid (a toggle button each).
MAX_RANKS, MAX_SUBTOPICS = 20, 10
#: The cut-off k when none is given (or the number of ranks, if fewer).
DEFAULT_K = 5
#: The step of the α slider.
ALPHA_STEP = 0.05
#: The readout's name of the ideal ranking's α-DCG at the cut-off k, a pattern that the
#: catalog translates (:func:`.base.label`).
IDEAL_AT_K = N_("ideal alpha-DCG@{k}")

#: The starting grid: 8 documents, 4 subtopics. The first three repeat subtopic 1, the
#: subtopics 3 and 4 come late: a ranking that relevance alone would be happy with.
DEFAULT_COVERAGE = (
    (1, 0, 0, 0),
    (1, 0, 0, 0),
    (1, 1, 0, 0),
    (0, 0, 0, 0),
    (0, 1, 0, 0),
    (0, 0, 1, 0),
    (1, 0, 0, 0),
    (0, 0, 0, 1),
)


def _names(values: Any, n: int, name: str, prefix: str) -> list[str]:
    """``n`` distinct non-empty names (read as text); ``prefix`` + 1, 2, ... when None."""
    if values is None:
        return [f"{prefix}{i}" for i in range(1, n + 1)]
    names = [str(v) for v in as_list(values, name, "names")]
    if len(names) != n:
        raise ValueError(
            f"{name} must give {n} names (one per {prefix or 'row'}), got {len(names)}"
        )
    if any(not v.strip() for v in names):
        raise ValueError(f"{name} must not hold an empty name, got {describe(names, 60)}")
    if len(set(names)) != len(names):
        raise ValueError(f"{name} must not name two of them alike, got {describe(names, 60)}")
    return names


def _tick(value: Any, name: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return int(value)
    raise ValueError(f"{name} must be 0 or 1 (covered or not), got {describe(value)}")


def _coverage(coverage: Any) -> list[list[int]]:
    """The grid, checked: one row per rank, the same number of 0/1 ticks in each row."""
    rows = [
        as_list(row, f"coverage[{i}]", "0/1 ticks")
        for i, row in enumerate(
            as_list(coverage, "coverage", "rows of 0/1 ticks (one row per rank)")
        )
    ]
    if not rows or not rows[0]:
        raise ValueError("coverage is empty: give at least one rank and one subtopic")
    if len(rows) > MAX_RANKS:
        raise ValueError(
            f"coverage has {len(rows)} ranks, at most {MAX_RANKS} (a row of buttons each)"
        )
    width = len(rows[0])
    if width > MAX_SUBTOPICS:
        raise ValueError(f"coverage has {width} subtopics, at most {MAX_SUBTOPICS}")
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(
                f"coverage[{i}] (rank {i + 1}) has {len(row)} ticks, the first row {width}: "
                "every rank has one tick per subtopic"
            )
    return [
        [_tick(v, f"coverage[{i}][{j}]") for j, v in enumerate(row)] for i, row in enumerate(rows)
    ]


class DiversityGrid(Widget):
    """A ranking as a grid of toggle buttons (rank × subtopic: does the document cover it?),
    an α slider and a cut-off k -> the novelty gains rank by rank, alpha-DCG@k, the greedy ideal
    ranking and its alpha-DCG@k, alpha-nDCG@k and S-recall@k (chapter 11).

    ``coverage``: one row per rank, a 0/1 tick per subtopic; ``docs``, ``subtopics``: their
    names (``d1``, ``d2``, ... and ``s1``, ``s2``, ... by default); ``alpha``: a number in
    [0, 1] (the slider moves by 0.05); ``k``: the cut-off, from 1 to the number of ranks (5 by
    default, or the number of ranks if fewer). The judgments are those of the grid: each
    ranked document is judged, relevant to the subtopics ticked on its row.
    """

    def __init__(
        self,
        coverage: Sequence[Sequence[int]] = DEFAULT_COVERAGE,
        subtopics: Sequence[str] | None = None,
        docs: Sequence[str] | None = None,
        alpha: float = 0.5,
        k: int | None = None,
    ):
        start = _coverage(coverage)
        n, m = len(start), len(start[0])
        self.docs = _names(docs, n, "docs", "d")
        self.subtopics = _names(subtopics, m, "subtopics", "s")
        alpha = check_in_range(alpha, "alpha", 0.0, 1.0, whole=False)
        k = min(DEFAULT_K, n) if k is None else check_in_range(k, "k", 1, n)
        super().__init__()  # the arguments are checked: build the widget
        self.buttons = [
            [
                w.ToggleButton(
                    value=bool(tick),
                    description=subtopic,
                    tooltip=f"rank {i}, {doc}: covers {subtopic}?",
                    # as wide as its name (4.2em cut "source" and "drinking" to "sou…"),
                    # alike in every row: the columns stay aligned
                    layout=w.Layout(width="auto", min_width="4.2em"),
                )
                for tick, subtopic in zip(row, self.subtopics, strict=True)
            ]
            for i, (row, doc) in enumerate(zip(start, self.docs, strict=True), start=1)
        ]
        self.alpha = w.FloatSlider(
            value=alpha, min=0.0, max=1.0, step=ALPHA_STEP, description="α", readout_format=".2f"
        )
        self.k = w.IntSlider(value=k, min=1, max=n, description="k")
        self.table_html = w.HTML()
        for control in (*(b for row in self.buttons for b in row), self.alpha, self.k):
            control.observe(lambda _: self.update(), names="value")
        self.update()
        rows = [
            w.HBox(
                [
                    w.HTML(
                        f"<code>{_('rank {i}').format(i=i)} · {html.escape(doc)}</code>",
                        layout=w.Layout(width="9em"),
                    ),
                    *row,
                ]
            )
            for i, (doc, row) in enumerate(zip(self.docs, self.buttons, strict=True), start=1)
        ]
        self.widget = w.VBox(
            [
                w.HTML(
                    _(
                        "<b>Diversity grid</b> — tick the subtopics each ranked document "
                        "covers, move α (how much a subtopic already seen is worth less)"
                    )
                ),
                # the grid, its sliders and the readout beside the figure where there is room
                # (a lecture slide), the figure below them otherwise
                w.HBox(
                    [
                        w.VBox([*rows, w.HBox([self.alpha, self.k]), self.readout_html]),
                        self.image,
                    ],
                    layout=w.Layout(flex_flow="row wrap", align_items="flex-start"),
                ),
                self.table_html,
            ]
        )

    def _state(self) -> dict:
        return {
            "coverage": self.coverage,
            "subtopics": list(self.subtopics),
            "docs": list(self.docs),
            "alpha": self.alpha.value,
            "k": self.k.value,
        }

    @property
    def coverage(self) -> list[list[int]]:
        """The grid as it is now: one row per rank, 1 where the document covers the subtopic."""
        return [[int(b.value) for b in row] for row in self.buttons]

    @property
    def judgments(self) -> dict[str, dict[str, int]]:
        """The grid as subtopic judgments, ``{doc: {subtopic: 1}}`` (every ranked document is
        judged; one with no tick is relevant to no subtopic)."""
        return {
            doc: {s: 1 for s, tick in zip(self.subtopics, row, strict=True) if tick}
            for doc, row in zip(self.docs, self.coverage, strict=True)
        }

    @property
    def gains(self) -> list[float]:
        """The novelty gains of the ranking, rank by rank (:func:`coursekit.novelty_gains`)."""
        return novelty_gains(self.docs, self.judgments, self.alpha.value).tolist()

    @property
    def ideal(self) -> list[str]:
        """The greedy ideal ranking (:func:`coursekit.ideal_diversity_ranking`)."""
        return ideal_diversity_ranking(self.judgments, self.alpha.value)

    def _subtopic_column(self, subtopic: Any) -> int:
        if isinstance(subtopic, str):
            if subtopic not in self.subtopics:
                raise ValueError(
                    f"subtopic must be one of {self.subtopics} or a position from 1 to "
                    f"{len(self.subtopics)}, got {subtopic!r}"
                )
            return self.subtopics.index(subtopic)
        return check_position(subtopic, len(self.subtopics), "subtopic") - 1

    def toggle(self, rank: int, subtopic: int | str) -> None:
        """Flip whether the document at ``rank`` (1-based) covers ``subtopic`` (its name, or
        its column, 1-based), as a click on its button would."""
        row = self.buttons[check_position(rank, len(self.buttons)) - 1]
        button = row[self._subtopic_column(subtopic)]
        button.value = not button.value

    def set_alpha(self, alpha: float) -> None:
        """Move the α slider (a number in [0, 1])."""
        self.alpha.value = check_in_range(alpha, "alpha", 0.0, 1.0, whole=False)

    def set_k(self, k: int) -> None:
        """Move the cut-off k (1 to the number of ranks)."""
        self.k.value = check_in_range(k, "k", 1, len(self.buttons))

    def readout(self) -> str:
        """The readout as text, then the novelty gains rank by rank and the ideal ranking."""
        gains = ", ".join(f"{g:.4f}".rstrip("0").rstrip(".") for g in self._gains)
        ideal = ", ".join(self._ideal)
        lines = (_("novelty gains by rank: {gains}"), _("ideal ranking (greedy): {ideal}"))
        return "\n".join(
            [super().readout(), *(line.format(gains=gains, ideal=ideal) for line in lines)]
        )

    def update(self) -> None:
        judgments, alpha, k = self.judgments, self.alpha.value, self.k.value
        for row in self.buttons:  # the click's own feedback first
            for button in row:
                button.button_style = "success" if button.value else ""
        ranking = list(self.docs)
        self._gains = novelty_gains(ranking, judgments, alpha).tolist()
        self._ideal = ideal_diversity_ranking(judgments, alpha)
        ideal_gains = novelty_gains(self._ideal, judgments, alpha).tolist()
        n = len(ranking)
        curves = {
            N_("alpha-DCG"): [alpha_dcg(ranking, judgments, r, alpha) for r in range(1, n + 1)],
            N_("ideal alpha-DCG"): [
                alpha_dcg(self._ideal, judgments, r, alpha) for r in range(1, n + 1)
            ],
        }
        self.values = {
            f"alpha-DCG@{k}": curves["alpha-DCG"][k - 1],
            IDEAL_AT_K.format(k=k): curves["ideal alpha-DCG"][k - 1],
            f"alpha-nDCG@{k}": alpha_ndcg(ranking, judgments, k, alpha),
            f"S-recall@{k}": subtopic_recall(ranking, judgments, k),
        }
        # The y axis fits the higher curve (a nice round limit, which few clicks change: the
        # frame is redrawn only then).
        top = nice_limit(max(1.0, *curves["alpha-DCG"], *curves["ideal alpha-DCG"]))

        def draw(ax, place):
            plots.gain_curves(
                curves,
                ax=ax,
                title=N_("alpha-DCG by rank"),
                ylabel=N_("alpha-DCG"),
                legend_loc=place,
            )
            ax.axvline(k + 0.5, color="0.5", ls=":", lw=1)
            ax.set_xlim(0.5, n + 0.5)
            ax.set_ylim(0, top)

        ranks = np.arange(1, n + 1)
        lines = [(ranks, curves["alpha-DCG"]), (ranks, curves["ideal alpha-DCG"])]
        building = self.image is None
        # The dotted line at k is data (x in data, y in axes units, as axvline draws it): a
        # new k draws no frame. A new y limit or legend place reuses the axes and draws only
        # the y axis, the spines and the legend over the rest, drawn once; the frames of every
        # legend place are drawn when the widget is built (a first k, limit or place drew the
        # whole figure: 100-200 ms).
        self._render_clear(
            draw,
            key=(n, top),
            lines=lines,
            first="lower right",
            frame=lambda ax: ax.set_ylim(0, top),
            changing=lambda ax: [ax.yaxis, *ax.spines.values(), ax.get_legend()],
            warm=building,
            more=[([k + 0.5, k + 0.5], [0, 1])],
        )
        self.readout_html.value = f"<div>α = {alpha:.2f}</div>" + table_html(self.values)
        self.table_html.value = self._table(ranking, judgments, ideal_gains, curves)

    def _table(self, ranking, judgments, ideal_gains, curves) -> str:
        """Rank by rank: the document, its subtopics, its novelty gain, alpha-DCG so far, and
        the same for the ideal ranking (one column per rank)."""
        cells = {
            N_("rank"): [str(r) for r in range(1, len(ranking) + 1)],
            N_("document"): ranking,
            N_("subtopics"): [" ".join(judgments[d]) or "·" for d in ranking],
            N_("gain G_r"): [f"{g:.3f}" for g in self._gains],
            N_("alpha-DCG@r"): [f"{v:.3f}" for v in curves["alpha-DCG"]],
            N_("ideal document"): self._ideal,
            N_("ideal gain"): [f"{g:.3f}" for g in ideal_gains],
            N_("ideal alpha-DCG@r"): [f"{v:.3f}" for v in curves["ideal alpha-DCG"]],
        }
        body = "".join(
            f"<tr><th style='text-align:left;padding-right:0.6em'>{html.escape(_(name))}</th>"
            + "".join(
                f"<td style='text-align:right;padding:0 0.4em'>{html.escape(v)}</td>"
                for v in values
            )
            + "</tr>"
            for name, values in cells.items()
        )
        return (
            "<div style='max-width:100%;overflow-x:auto'><table style='border-collapse:collapse;"
            f"font-variant-numeric:tabular-nums'>{body}</table></div>"
        )
