"""Interactive widgets: change a judgment, watch the measures move.

Each widget is a thin view over the measure functions: it keeps its inputs, calls coursekit to
compute every number, and shows them in ``HTML`` readouts and an ``Image`` rendered with
matplotlib's Agg backend (no ``Output`` widget, so static renders and nbval see the same thing).

Every widget exposes ``values`` (the numbers of its readout), ``readout()`` (the same as text)
and methods that do what a click does (``toggle(rank)``, ``set_grade(rank, grade)``, ...), so that
tests and notebook cells can drive it. Display a widget by leaving it as the last expression of a
cell; ``show_static()`` displays its current figure and readout without any widget machinery.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from typing import Any

import ipywidgets as w
import numpy as np

from . import plots
from .correlation import concordant_pairs, kendall_tau, spearman_rho
from .graded import VARIANTS, dcg, dcg_curve, ideal_gains, ndcg
from .ranked import (
    average_precision,
    pr_table,
    precision_at,
    r_precision,
    reciprocal_rank,
    rels_from_ranks,
)
from .recall import f_prime, mor, pres
from .setbased import accuracy, f_measure, precision, recall

__all__ = [
    "SetBasedExplorer",
    "RelevanceToggler",
    "GradedJudgments",
    "RecallOriented",
    "RankCorrelation",
]

_FIGSIZE = (5.0, 3.4)
_SMALL = w.Layout(width="auto")


def _figure():
    from matplotlib.figure import Figure

    figure = Figure(figsize=_FIGSIZE)
    figure.subplots_adjust(left=0.13, right=0.97, top=0.9, bottom=0.15)  # no layout engine:
    return figure, figure.subplots()  # a layout pass would draw the figure twice


class _BlitCanvas:
    """An Agg figure that draws its frame once and then only its data (blitting).

    ``png(key, draw)`` calls ``draw(ax)`` (a :mod:`coursekit.plots` function) and returns the
    figure as PNG bytes. The first time for a given ``key`` (the things that change the frame:
    title, axis limits, legend), the whole figure is drawn and its frame (axes, ticks, labels,
    legend, without the data lines) is kept as a bitmap. For a new drawing with the same key,
    ``draw`` runs on a scratch axes that is never rendered, and only its data lines are copied
    over the kept frame: the same picture, at a fraction of the cost of drawing text and ticks.
    """

    def __init__(self) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.figure, self.ax = _figure()
        self.canvas = FigureCanvasAgg(self.figure)
        self.scratch = _figure()[1]
        self.key: Any = None
        self.background = None
        self.lines: list = []

    def png(self, key: Any, draw) -> bytes:
        if key != self.key or self.background is None:
            self.ax.clear()
            draw(self.ax)
            self.lines = list(self.ax.lines) + list(self.ax.patches)  # lines and bars
            for line in self.lines:
                line.set_animated(True)  # left out of the frame
            self.canvas.draw()
            self.background = self.canvas.copy_from_bbox(self.figure.bbox)
            self.key = key
        else:
            self.scratch.clear()
            draw(self.scratch)
            fresh = list(self.scratch.lines) + list(self.scratch.patches)
            if [type(a) for a in fresh] != [type(a) for a in self.lines]:
                self.key = None  # another shape of drawing: redraw it all
                return self.png(key, draw)
            for artist, new in zip(self.lines, fresh, strict=True):
                if hasattr(new, "get_data"):  # a line
                    artist.set_data(*new.get_data())
                else:  # a bar (Rectangle)
                    artist.set_bounds(*new.get_bbox().bounds)
                    artist.set_facecolor(new.get_facecolor())
        self.canvas.restore_region(self.background)
        for line in self.lines:
            self.ax.draw_artist(line)
        legend = self.ax.get_legend()
        if legend is not None:  # keep the legend above the data, as a full drawing has it
            self.ax.draw_artist(legend)
        return plots.rgba_png(np.asarray(self.canvas.buffer_rgba()))


def _nice_limit(value: float) -> float:
    """The smallest of 1, 1.5, 2, 3, 5, 7.5 times a power of ten that is above ``value``
    (with a margin): an axis limit that changes only now and then as the data grow."""
    scale = 10 ** np.floor(np.log10(value * 1.05))
    for step in (1, 1.5, 2, 3, 5, 7.5, 10):
        if step * scale >= value * 1.05:
            return float(step * scale)
    return float(10 * scale)  # pragma: no cover


def _number(value: float) -> str:
    """A readout value: a count (an ``int``) as it is, any other number to 4 decimals."""
    return str(value) if isinstance(value, int) else f"{value:.4f}"


def _table(values: dict[str, float]) -> str:
    rows = "".join(
        f"<tr><td style='padding-right:1em'>{html.escape(name)}</td>"
        f"<td style='text-align:right'><b>{_number(value)}</b></td></tr>"
        for name, value in values.items()
    )
    return f"<table>{rows}</table>"


def _frame_html(frame) -> str:
    """A small DataFrame as an HTML table (pandas' ``to_html`` is slow for a widget)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class _Widget:
    """What every widget shares: a readout, an optional image, display and static display."""

    title = ""

    def __init__(self) -> None:
        self.values: dict[str, float] = {}
        self.readout_html = w.HTML(layout=w.Layout(min_width="14em"))
        self.image: w.Image | None = None
        self._canvas: _BlitCanvas | None = None

    def _render(self, draw, key: Any = None) -> None:
        """Draw with ``draw(ax)`` and put the PNG into the Image widget; ``key`` names what
        fixes the frame (title, limits, legend), drawn once per key (see :class:`_BlitCanvas`)."""
        if self._canvas is None:
            self._canvas = _BlitCanvas()
            self.image = w.Image(format="png", layout=w.Layout(width="420px"))
        self.image.value = self._canvas.png(key, draw)

    def readout(self) -> str:
        """The readout as text: one ``name = value`` per line, counts as integers and other
        values to 4 decimals."""
        return "\n".join(f"{name} = {_number(value)}" for name, value in self.values.items())

    def _repr_mimebundle_(self, **kwargs) -> dict:
        # A short, stable text form: the default repr of a widget lists every child's state
        # (PNG bytes included), which would differ from one matplotlib version to another.
        return {
            "text/plain": f"{type(self).__name__} widget (interactive when the notebook runs)",
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2,
                "version_minor": 0,
                "model_id": self.widget.model_id,
            },
        }

    def show_static(self) -> None:
        """Display the current figure (if any) and readout as plain outputs."""
        from IPython.display import HTML, Image, display

        if self.image is not None:
            display(Image(data=self.image.value, format="png"))
        display(HTML(self.readout_html.value))


class SetBasedExplorer(_Widget):
    """Confusion-matrix counts and beta -> precision, recall, F_beta, accuracy, and the
    harmonic against the arithmetic mean of precision and recall (chapter 01)."""

    def __init__(self, tp: int = 6, fp: int = 4, fn: int = 14, tn: int = 76, beta: float = 1.0):
        super().__init__()
        style = {"description_width": "initial"}
        self.sliders = {
            name: w.IntSlider(
                value=value, min=0, max=200, description=label, style=style, continuous_update=False
            )
            for name, value, label in (
                ("tp", tp, "TP: relevant, retrieved"),
                ("fp", fp, "FP: retrieved, not relevant"),
                ("fn", fn, "FN: relevant, missed"),
                ("tn", tn, "TN: neither"),
            )
        }
        self.beta = w.FloatLogSlider(
            value=beta,
            base=2,
            min=-3,
            max=3,
            step=0.25,
            description="β (recall weight)",
            style=style,
            continuous_update=False,
        )
        for control in (*self.sliders.values(), self.beta):
            control.observe(lambda _: self.update(), names="value")
        self.update()
        self.widget = w.VBox(
            [
                w.HTML("<b>Set-based measures</b> — set the four cells of the confusion matrix"),
                w.HBox([w.VBox([*self.sliders.values(), self.beta]), self.readout_html]),
                self.image,
            ]
        )

    def set_counts(
        self,
        tp: int | None = None,
        fp: int | None = None,
        fn: int | None = None,
        tn: int | None = None,
        beta: float | None = None,
    ) -> None:
        """Set some counts (and beta), as moving the sliders would."""
        for name, value in (("tp", tp), ("fp", fp), ("fn", fn), ("tn", tn)):
            if value is not None:
                self.sliders[name].value = value
        if beta is not None:
            self.beta.value = beta

    def update(self) -> None:
        counts = {name: slider.value for name, slider in self.sliders.items()}
        docs = [f"d{i}" for i in range(sum(counts.values()))]
        tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
        retrieved = docs[: tp + fp]
        relevant = docs[:tp] + docs[tp + fp : tp + fp + fn]
        p, r = precision(retrieved, relevant), recall(retrieved, relevant)
        n_docs = max(len(docs), 1)
        self.values = {
            "precision": p,
            "recall": r,
            f"F_beta (beta={self.beta.value:g})": f_measure(p, r, self.beta.value),
            "F1 (harmonic mean)": f_measure(p, r),
            "arithmetic mean": (p + r) / 2,
            "accuracy": accuracy(retrieved, relevant, n_docs) if docs else 0.0,
        }
        self.readout_html.value = _table(self.values)
        def draw(ax):
            plots.value_bars(self.values, ax=ax, title="Set-based measures")
            ax.figure.subplots_adjust(left=0.36)  # room for the labels

        self._render(draw, key=tuple(self.values))


class RelevanceToggler(_Widget):
    """A ranked list as toggle buttons -> the P(k)/R(k) table, the precision-recall curve with
    its interpolation, AP, P@k, R-precision and RR (chapters 02 to 04)."""

    def __init__(
        self,
        rels: Sequence[int] = (1, 1, 0, 1, 0, 1, 0, 0, 0, 0),
        n_relevant: int | None = None,
        k: int = 5,
        length: int | None = None,
    ):
        super().__init__()
        start = [int(r >= 1) for r in rels]
        length = length or len(start)
        start = (start + [0] * length)[:length]
        self.buttons = [
            w.ToggleButton(
                value=bool(r),
                description=str(i),
                tooltip=f"rank {i}: relevant?",
                layout=w.Layout(width="3.2em"),
            )
            for i, r in enumerate(start, start=1)
        ]
        found = sum(start)
        self.n_relevant = w.BoundedIntText(
            value=n_relevant if n_relevant is not None else found,
            min=0,
            max=10_000,
            description="relevant in total",
            style={"description_width": "initial"},
            layout=w.Layout(width="14em"),
        )
        self.k = w.IntSlider(value=k, min=1, max=max(length, 1), description="k for P@k")
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
                w.HBox([self.image, self.readout_html]),
                self.table_html,
            ]
        )

    @property
    def rels(self) -> list[int]:
        """The current judgments, rank by rank (1 = relevant)."""
        return [int(b.value) for b in self.buttons]

    def toggle(self, rank: int) -> None:
        """Flip the judgment at ``rank`` (1-based), as a click would."""
        button = self.buttons[rank - 1]
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
        self.readout_html.value = _table(self.values)
        table = pr_table(rels, n)
        self.table_html.value = table.round(3).to_html(index=False, border=0)
        self._render(
            lambda ax: plots.pr_curve(rels, n, ax=ax, label="ranking", legend_loc="lower left")
        )
        for button in self.buttons:
            button.button_style = "success" if button.value else ""


class GradedJudgments(_Widget):
    """A grade (0-3) per rank and a DCG variant -> gains, DCG, ideal DCG, nDCG, and the
    DCG and ideal DCG curves (chapter 05)."""

    def __init__(
        self,
        gains: Sequence[int] = (3, 2, 3, 0, 0, 1, 2, 2, 3, 0),
        ideal: Sequence[int] | None = None,
        variant: str = "jarvelin",
    ):
        super().__init__()
        # ``ideal``: every judged grade of the query. The grades of judged documents that are
        # not in the list are kept apart, so that the ideal follows the grades chosen here
        # (a grade raised above the judged ones must raise the ideal too: nDCG stays <= 1).
        self.ideal = None if ideal is None else list(ideal)
        self.unretrieved: list[int] = []
        if ideal is not None:
            left = Counter(int(g) for g in ideal)
            left.subtract(int(g) for g in gains)
            if any(n < 0 for n in left.values()):
                raise ValueError(
                    "ideal must list every judged grade of the query, the grades of the "
                    f"ranked documents included: {list(gains)} is not part of {list(ideal)}"
                )
            self.unretrieved = sorted(left.elements(), reverse=True)
        self.grades = [
            w.Dropdown(
                options=[0, 1, 2, 3],
                value=int(g),
                description=f"rank {i}",
                layout=w.Layout(width="9em"),
                style={"description_width": "4em"},
            )
            for i, g in enumerate(gains, start=1)
        ]
        self.variant = w.ToggleButtons(
            options=list(VARIANTS),
            value=variant,
            description="DCG formula",
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
                    "<b>Graded judgments</b> — choose the grade of each rank and the DCG formula"
                ),
                w.HBox(self.grades[:5]),
                w.HBox(self.grades[5:10]),
                w.HBox(self.grades[10:]),
                self.variant,
                w.HBox([self.image, self.readout_html]),
            ]
        )

    @property
    def gains(self) -> list[int]:
        return [d.value for d in self.grades]

    def set_grade(self, rank: int, grade: int) -> None:
        """Set the grade at ``rank`` (1-based), as choosing it in the menu would."""
        self.grades[rank - 1].value = grade

    def set_variant(self, variant: str) -> None:
        """Choose the DCG formula (one of ``VARIANTS``), as its button would."""
        if variant not in VARIANTS:
            raise ValueError(f"unknown DCG variant {variant!r}; known: {', '.join(VARIANTS)}")
        self.variant.value = variant

    def update(self) -> None:
        gains, variant = self.gains, self.variant.value
        judged = None if self.ideal is None else gains + self.unretrieved
        best = ideal_gains(gains, judged)[: len(gains)]
        self.values = {
            "DCG": dcg(gains, variant=variant),
            "ideal DCG": dcg(best, variant=variant),
            "nDCG": ndcg(gains, k=len(gains), ideal=judged, variant=variant),
        }
        self.readout_html.value = f"<div>gains: {gains}</div>" + _table(self.values)
        curves = {"DCG": dcg_curve(gains, variant), "ideal DCG": dcg_curve(best, variant)}
        top = _nice_limit(max([1.0, *curves["DCG"], *curves["ideal DCG"]]))

        def draw(ax):
            plots.gain_curves(
                curves, ax=ax, title=f"DCG ({variant})", ylabel="DCG", legend_loc="lower right"
            )
            ax.set_xlim(0.5, len(gains) + 0.5)
            ax.set_ylim(0, top)

        self._render(draw, key=(variant, top, len(gains)))


class RecallOriented(_Widget):
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
            w.Button(description=name, tooltip=f"ranks {ranks}", layout=_SMALL)
            for name, ranks in self.PRESETS.items()
        ]
        for button in self.presets:
            button.on_click(lambda b: self.load(b.description))
        self.message = w.HTML()
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
                w.HBox([self.image, self.readout_html]),
            ]
        )

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
        return sorted({int(part) for part in text.split(",") if part.strip()})

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
            self.message.value = f"<span style='color:#b00'>{html.escape(str(error))}</span>"
            return
        self.message.value = ""
        self.readout_html.value = _table(self.values)
        self._render(
            lambda ax: plots.recall_rank(
                rels, n, n_max, ax=ax, label="this list", legend_loc="center right"
            ),
            key=(n, n_max),
        )


class RankCorrelation(_Widget):
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
        self.readout_html.value = _table(self.values)
        self.pairs_html.value = _frame_html(pairs)
        for which in (0, 1):
            for i, item in enumerate(self.orders[which]):
                self.labels[which][i].value = f"{i + 1}. {item}"


def _median_update_ms(widget: _Widget, change, repeats: int = 21) -> float:
    """Median time of one change (recompute and redraw) in milliseconds (for benchmarks)."""
    import time

    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        change()
        times.append((time.perf_counter() - start) * 1000)
    return float(np.median(times))
