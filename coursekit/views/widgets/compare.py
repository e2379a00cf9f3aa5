"""A widget that compares two systems query by query (chapter 08).

:class:`CompareSystems` takes per-query scores, one table per measure (rows: queries, columns:
systems), and three menus: system A, system B and the measure. On every change it recomputes
the mean of each system, the difference of the means, the gain of B over A in percent, the
number of queries each system wins, and the p-values of the paired t-test, the Wilcoxon
signed-rank test and a seeded randomization test (:mod:`coursekit.measures.significance`); it
draws the per-query differences B − A as bars.

Picking the same system as A and B is allowed: every difference is then 0, the p-values are
1, and the readout says that the two systems are the same (a menu that refused the choice would
block a student who changes A before B).

Like :mod:`coursekit.widgets`, whose base class it uses, this module imports ipywidgets when it
is imported and matplotlib on the first drawing; ``import coursekit`` does not import it.

>>> import pandas as pd
>>> ap = pd.DataFrame({"base": [0.2, 0.4, 0.3], "new": [0.3, 0.5, 0.3]}, index=["q1", "q2", "q3"])
>>> view = CompareSystems({"AP": ap}, a="base", b="new")
>>> print(view.readout())
A: base · B: new · AP over 3 queries
mean A = 0.3000
mean B = 0.3667
difference of means (B − A) = 0.0667
gain % (B over A) = 22.22 %
queries where B is higher = 2
queries where A is higher = 0
paired t-test p = 0.1835
Wilcoxon p = 0.5000
randomization p = 0.5000
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from typing import Any

import ipywidgets as w
import numpy as np
import pandas as pd

from ...evaluation import Evaluation
from ...i18n import N_, _
from ...measures.paired import check_resamples, check_seed
from ...measures.significance import gain_percent, paired_t_test, randomization_test, wilcoxon_test
from ...validation import preview
from .. import plots
from ._input import _check_tables
from .base import ERROR, Widget, figure_box, nice_limit, table_html

__all__ = ["CompareSystems"]

_MENU = w.Layout(width="17em")
_MENU_STYLE = {"description_width": "5.5em"}


class CompareSystems(Widget):
    """Two systems and a measure -> their means, the gain of B over A in percent, three paired
    tests and the per-query differences B − A as bars (chapter 08).

    ``per_query`` maps a measure name to a DataFrame of per-query scores, one row per query
    and one column per system; every table must hold the same queries and systems. Build it
    from :func:`coursekit.evaluate` results with :meth:`from_evaluations`. ``a``, ``b`` and
    ``measure`` are the first choices (by default the first two systems and the first
    measure); the randomization test uses ``n_resamples`` label swaps (1 to 1,000,000) drawn
    with ``seed``, a whole number >= 0 (an exact test when there are at most
    ``log2(n_resamples)`` queries).

    Use :meth:`select` to change the menus as a click would, ``readout()`` for the numbers as
    text, :attr:`differences` for the bars, and ``show_static()`` for a static picture.
    """

    def __init__(
        self,
        per_query: Mapping[str, pd.DataFrame],
        a: str | None = None,
        b: str | None = None,
        measure: str | None = None,
        *,
        n_resamples: int = 2000,
        seed: int = 0,
    ) -> None:
        self.measures, self.queries, self.systems, self._scores = _check_tables(per_query)
        self.n_resamples = check_resamples(n_resamples, 1)
        self.seed = check_seed(seed)
        a = self.systems[0] if a is None else a
        b = self.systems[min(1, len(self.systems) - 1)] if b is None else b
        measure = self.measures[0] if measure is None else measure
        self._check_choice(a=a, b=b, measure=measure)
        super().__init__()  # the arguments are checked: build the widget
        self._per_query = per_query
        self._tests: dict[tuple[str, str, str], tuple[float, float, float]] = {}
        self.a = w.Dropdown(
            options=self.systems,
            value=a,
            description=_("system A"),
            tooltip=_("the baseline"),
            layout=_MENU,
            style=_MENU_STYLE,
        )
        self.b = w.Dropdown(
            options=self.systems,
            value=b,
            description=_("system B"),
            tooltip=_("the system compared with A"),
            layout=_MENU,
            style=_MENU_STYLE,
        )
        self.measure = w.Dropdown(
            options=self.measures,
            value=measure,
            description=_("measure"),
            layout=_MENU,
            style=_MENU_STYLE,
        )
        self._holding = False
        for control in (self.a, self.b, self.measure):
            control.observe(lambda _: self.update(), names="value")
        self.update()
        self.widget = w.VBox(
            [
                w.HTML(
                    _(
                        "<b>Comparing two systems</b> — choose systems A and B and a measure; "
                        "the bars show B − A query by query"
                    )
                ),
                w.HBox([self.a, self.b, self.measure], layout=w.Layout(flex_flow="row wrap")),
                figure_box(self.image, self.readout_html),
            ]
        )

    def _state(self) -> dict:
        return {
            "per_query": self._per_query,
            "a": self.a.value,
            "b": self.b.value,
            "measure": self.measure.value,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
        }

    @classmethod
    def from_evaluations(
        cls, evaluations: Mapping[str, Evaluation], **options: Any
    ) -> CompareSystems:
        """Build the widget from ``{system: ck.evaluate(run, qrels, measures)}``.

        Every evaluation must hold the same measures and the same queries (evaluate with
        ``missing_as_zero=True`` so that a query a run does not answer counts 0); ``options``
        go to the constructor.
        """
        if not isinstance(evaluations, Mapping) or not evaluations:
            raise ValueError("evaluations must be a non-empty dict {system: Evaluation}")
        tables = {}
        for system, evaluation in evaluations.items():
            if not isinstance(evaluation, Evaluation):
                raise TypeError(
                    f"the evaluation of system {system!r} must be a coursekit Evaluation "
                    f"(the result of ck.evaluate), got {type(evaluation).__name__}"
                )
            tables[str(system)] = evaluation.table()
        (first, reference), *others = tables.items()
        for system, table in others:
            if list(table.columns) != list(reference.columns):
                raise ValueError(
                    f"system {system!r} was evaluated on measures {preview(table.columns)} "
                    f"but {first!r} on {preview(reference.columns)}: evaluate every system on "
                    "the same measures"
                )
            if set(table.index) != set(reference.index):
                only_first = preview(sorted(set(reference.index) - set(table.index))) or "none"
                only_this = preview(sorted(set(table.index) - set(reference.index))) or "none"
                raise ValueError(
                    f"systems {first!r} and {system!r} were evaluated on different queries "
                    f"(only {first!r}: {only_first}; only {system!r}: {only_this}): evaluate "
                    "with missing_as_zero=True so that every system has every query"
                )
        per_query = {
            measure: pd.DataFrame({s: t.loc[reference.index, measure] for s, t in tables.items()})
            for measure in reference.columns
        }
        return cls(per_query, **options)

    # --- what a click does ----------------------------------------------------------------------

    def _check_choice(
        self, a: str | None = None, b: str | None = None, measure: str | None = None
    ) -> None:
        for role, name in (("system A", a), ("system B", b)):
            if name is not None and name not in self.systems:
                raise ValueError(
                    f"unknown {role} {name!r}; the systems are {preview(self.systems, 20)}"
                )
        if measure is not None and measure not in self.measures:
            raise ValueError(
                f"unknown measure {measure!r}; the measures are {preview(self.measures, 20)}"
            )

    def select(
        self, a: str | None = None, b: str | None = None, measure: str | None = None
    ) -> None:
        """Choose system A, system B and/or the measure, as the menus would (one update)."""
        self._check_choice(a=a, b=b, measure=measure)
        self._holding = True
        try:
            for menu, value in ((self.a, a), (self.b, b), (self.measure, measure)):
                if value is not None:
                    menu.value = value
        finally:
            self._holding = False
        self.update()

    # --- what is shown --------------------------------------------------------------------------

    def _columns(self) -> tuple[np.ndarray, np.ndarray]:
        scores = self._scores[self.measure.value]
        return (
            scores[:, self.systems.index(self.a.value)],
            scores[:, self.systems.index(self.b.value)],
        )

    @property
    def differences(self) -> pd.Series:
        """The per-query differences B − A of the chosen measure (the bars), by query."""
        x, y = self._columns()
        return pd.Series(y - x, index=self.queries, name=f"{self.measure.value} B − A")

    @property
    def heading(self) -> str:
        """What is compared, in words: ``A: … · B: … · measure over n queries``."""
        return _("A: {a} · B: {b} · {measure} over {n} queries").format(
            a=self.a.value, b=self.b.value, measure=self.measure.value, n=len(self.queries)
        )

    @property
    def note(self) -> str:
        """A warning about the current choice ('' when there is none)."""
        if self.a.value == self.b.value:
            return _(
                "A and B are the same system ({a}): every difference is 0, there is nothing "
                "to test (p = 1)"
            ).format(a=self.a.value)
        if math.isnan(self.values.get("paired t-test p", 0.0)):
            return _(
                "every difference B − A is the same: the paired t-test has no spread to "
                "weigh it against (nan)"
            )
        if self.values.get("mean A") == 0:
            return _("the mean of A is 0: a gain in percent over it is undefined (nan)")
        return ""

    def readout(self) -> str:
        """The readout as text: a heading line naming A, B and the measure, then one
        ``name = value`` per line (4 decimals), then the note, if any."""
        lines = [self.heading, super().readout()]
        if self.note:
            lines.append(f"{_('note:')} {self.note}")
        return "\n".join(lines)

    def update(self) -> None:
        if self._holding:
            return
        x, y = self._columns()
        mean_a, mean_b = float(np.mean(x)), float(np.mean(y))
        difference = y - x
        self._draw(difference)  # the figure first: it does not wait for the tests
        if self.a.value == self.b.value or not np.any(difference):
            p_t = p_w = p_r = 1.0
        else:
            # The tests are seeded, so the same choice gives the same p-values: each choice
            # is tested once (the randomization test is the slowest part of a change).
            choice = (self.a.value, self.b.value, self.measure.value)
            if choice not in self._tests:
                self._tests[choice] = (
                    _t_test_p(y, x),
                    wilcoxon_test(y, x).pvalue,
                    randomization_test(y, x, n_resamples=self.n_resamples, seed=self.seed).pvalue,
                )
            p_t, p_w, p_r = self._tests[choice]
        self.values = {
            N_("mean A"): mean_a,
            N_("mean B"): mean_b,
            N_("difference of means (B − A)"): mean_b - mean_a,
            N_("gain % (B over A)"): gain_percent(mean_b, mean_a) if mean_a != 0 else math.nan,
            N_("queries where B is higher"): int(np.count_nonzero(difference > 0)),
            N_("queries where A is higher"): int(np.count_nonzero(difference < 0)),
            N_("paired t-test p"): p_t,
            N_("Wilcoxon p"): p_w,
            N_("randomization p"): p_r,
        }
        note = self.note
        self.readout_html.value = (
            f"<div>{html.escape(self.heading)}</div>"
            + (f"<div style='color:{ERROR}'>{html.escape(note)}</div>" if note else "")
            + table_html(self.values)
        )

    def _draw(self, difference: np.ndarray) -> None:
        measure = self.measure.value
        # The y axis fits the bars, symmetric about 0, with a "nice" limit (1, 1.5, 2, 3, 5, 7.5
        # times a power of ten) that changes only now and then as A and B change.
        largest = float(np.max(np.abs(difference))) if difference.size else 0.0
        limit = nice_limit(largest) if largest > 0 else 1.0
        bars = dict(zip(self.queries, difference.tolist(), strict=True))

        title = f"{measure}: B − A"  # (short: the legend stands right of it)

        def draw(ax):
            from matplotlib.patches import Patch

            plots.per_query_bars(bars, ax=ax, title="", ylabel=f"{measure}: B − A")
            ax.set_title(title, loc="left")
            ax.set_ylim(-limit, limit)
            # A legend that does not depend on the data (the default one takes the colour of
            # the first bar), so that the frame drawn once stays right for every A and B; above
            # the axes, right of the title, where no bar can reach it.
            ax.legend(
                handles=[
                    Patch(color="C0", label=_("B higher")),
                    Patch(color="C3", label=_("A higher")),
                ],
                loc="lower right",
                bbox_to_anchor=(1.0, 1.0),
                ncol=2,
                fontsize="small",
                frameon=False,
                borderaxespad=0.1,
            )
            step = -(-len(bars) // 20)  # at most about 20 query labels: every step-th one
            for i, label in enumerate(ax.get_xticklabels()):
                label.set_visible(i % step == 0)
            ax.figure.subplots_adjust(left=0.17, bottom=0.2)  # room for the labels

        def data():
            colours = ["C0" if d >= 0 else "C3" for d in difference.tolist()]
            return [None] + [
                {"height": d, "facecolor": c}
                for d, c in zip(difference.tolist(), colours, strict=True)
            ]

        def frame(ax):  # what the key names, set as draw sets it: the bars and labels stay
            ax.set_title(title, loc="left")
            ax.set_ylabel(f"{measure}: B − A")
            ax.set_ylim(-limit, limit)

        # Each frame (measure, y limit) is drawn once, then only the bars; a new frame reuses
        # the axes built for the first (see Widget._render).
        def changing(ax):  # what frame changes, in the order of a full drawing: the x axis
            # (54 query labels, most of a frame's cost) and the legend are drawn once
            titles = [ax.title, ax._left_title, ax._right_title]
            return [ax.yaxis, *ax.spines.values(), *titles]

        self._render(draw, key=(measure, limit), data=data, frame=frame, changing=changing)


def _t_test_p(y: np.ndarray, x: np.ndarray) -> float:
    """The paired t-test's p-value, nan when every difference is the same (non-zero): the
    test is then undefined (:func:`paired_t_test` refuses it)."""
    try:
        return paired_t_test(y, x).pvalue
    except ValueError:
        return math.nan
