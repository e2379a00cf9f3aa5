"""Chapter 10: an A/B test and interleaving side by side, session after session.

:class:`OnlineExperiment` shows, for two systems and a click model, the z statistics of the
A/B test (reciprocal rank of the first click, Welch) and of team-draft interleaving (sign
test) after N sessions. The sessions are simulated in bulk by
:class:`coursekit.measures.SessionSimulator`, once per choice of systems and click model.

>>> rankings = {"good": {"q1": ["d1", "d2"]}, "bad": {"q1": ["d2", "d1"]}}
>>> view = OnlineExperiment(rankings, {"q1": {"d1": 2}}, max_sessions=200, n_sessions=200)
>>> view.values["interleaving: A wins"] > view.values["interleaving: B wins"]
True
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import ipywidgets as w
import numpy as np

from ...i18n import N_, _
from ...measures.clicks import as_probabilities
from ...measures.paired import check_seed
from ...measures.simulation import CLICK_MODELS, SessionSimulator
from ...validation import check_positive_int, describe, first_ranks, fits_a_float, preview
from .base import Widget, as_list, figure_box, table_html, text_keys

__all__ = ["OnlineExperiment"]

#: Two-sided 5 % critical value of the standard normal distribution (scipy.stats.norm.ppf(0.975)).
Z_CRITICAL = 1.959963984540054
#: The figure's z axis: values beyond are drawn at the edge (fixed, so the frame never changes).
Z_LIMIT = 8.0
# wide enough for "position-based" and "bm25_b0_stem" beside a 6em description (16em cut
# them: the menu's arrow takes about 2em of its box)
_MENU = w.Layout(width="19em")
#: How a verdict line starts (the method named: "A/B" or "interleaving").
VERDICT = N_("{method} verdict:")
#: The click models' names as the menu shows them (translated; :data:`CLICK_MODELS` in order).
CLICK_MODEL_NAMES = (N_("cascade"), N_("position-based"))
HEADER = N_("<b>A/B test or interleaving?</b> — choose two systems and the users, then N")
_MENU_STYLE = {"description_width": "6em"}


def _grade(value: Any, where: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{where} must be a grade (a number), got {type(value).__name__} {value!r}")
    if not fits_a_float(value) or not math.isfinite(value):
        raise ValueError(f"{where} must be a finite grade, got {describe(value)}")
    return float(value)


def _docs(ranking: Any, where: str) -> list[str]:
    """A ranking's document ids as text, best first: hashable, each given once (as text)."""
    docs = as_list(ranking, where, "document ids, best first")
    return list(first_ranks(docs, where, as_text=True))


def _read_inputs(rankings: Any, qrels: Any, depth: int) -> tuple[dict, dict]:
    """``rankings`` and ``qrels`` with every name read as text (names that collide as text
    refused), rankings cut at ``depth``, grades as finite floats; each system must rank at
    least one judged query."""
    for name, value, what in (
        ("rankings", rankings, "{system: {query: [doc ids, best first]}}"),
        ("qrels", qrels, "{query: {doc id: grade}}"),
    ):
        if not isinstance(value, Mapping) or not value:
            raise TypeError(f"{name} must be a non-empty dict {what}, got {type(value).__name__}")
        text_keys(value, name, "systems" if name == "rankings" else "queries")
        for key, inner in value.items():
            if not isinstance(inner, Mapping):
                raise TypeError(f"{name}[{key!r}] must be a dict, got {type(inner).__name__}")
            text_keys(inner, f"{name}[{key!r}]", "queries" if name == "rankings" else "documents")
    grades = {
        str(q): {str(d): _grade(g, f"qrels[{q!r}][{d!r}]") for d, g in judged.items()}
        for q, judged in qrels.items()
    }
    lists = {}
    for s, per_query in rankings.items():
        lists[str(s)] = {
            str(q): _docs(r, f"rankings[{s!r}][{q!r}]")[:depth] for q, r in per_query.items()
        }
        if not set(lists[str(s)]) & set(grades):
            raise ValueError(
                f"system {str(s)!r} ranks none of the queries of qrels (its queries: "
                f"{preview(lists[str(s)]) or 'none'}; those of qrels: {preview(grades)}): "
                "query names are read as text and must match"
            )
    return lists, grades


class OnlineExperiment(Widget):
    """Systems A and B, a click model and N sessions -> the A/B and interleaving verdicts
    (chapter 10).

    ``rankings``: ``{system: {query: [doc ids, best first]}}`` (cut at ``depth``), ``qrels``:
    ``{query: {doc id: grade}}`` (finite numbers). Names and ids are read as text (``str``):
    two that read the same are refused, and ``a=1`` names the system ``'1'``. Each system must
    rank at least one query of ``qrels``. A choice of A, B and click model draws from
    ``numpy.random.default_rng([seed, i, j, m])`` (positions of A, B, click model); the
    starting choice is simulated by the constructor, any other on first use, then kept.
    :meth:`select` and :meth:`set_sessions` do what clicks do. ``attractiveness``: the
    position-based users' click probability by grade (as :class:`SessionSimulator` takes it;
    by default :func:`coursekit.measures.default_attractiveness`).
    """

    title = "Online evaluation"

    def __init__(
        self,
        rankings: Mapping[str, Mapping[Hashable, Sequence[Hashable]]],
        qrels: Mapping[Hashable, Mapping[Hashable, float]],
        a: str | None = None,
        b: str | None = None,
        click_model: str = "cascade",
        n_sessions: int = 100,
        *,
        max_sessions: int = 1000,
        depth: int = 10,
        seed: int = 0,
        attractiveness: Sequence[float] | None = None,
    ) -> None:
        self.depth = check_positive_int(depth, "depth")
        self.attractiveness = None
        if attractiveness is not None:  # (read once: a generator too)
            self.attractiveness = tuple(as_probabilities(attractiveness, "attractiveness").tolist())
        self._lists, self._grades = _read_inputs(rankings, qrels, self.depth)
        self.systems, self.queries = list(self._lists), sorted(self._grades)
        self.max_sessions = check_positive_int(max_sessions, "max_sessions")
        self.seed = check_seed(seed)
        self.max_grade = max([1.0] + [g for gs in self._grades.values() for g in gs.values()])
        self._cache: dict[tuple[str, str, str], dict[str, np.ndarray]] = {}
        a = self.systems[0] if a is None else a
        b = self.systems[min(1, len(self.systems) - 1)] if b is None else b
        a, b, click_model = self._choice(a, b, click_model)
        n_sessions = self._check_sessions(n_sessions)
        self.simulation(a, b, click_model)  # the starting choice, simulated now
        super().__init__()  # the arguments are checked: build the widget
        menus = [(_("system A"), self.systems, a), (_("system B"), self.systems, b)]
        # each click model named in the language in use (the value stays the simulator's name)
        menus.append((_("users click"), [(_(m), m) for m in CLICK_MODELS], click_model))
        self.a, self.b, self.model = (
            w.Dropdown(options=o, value=v, description=d, layout=_MENU, style=_MENU_STYLE)
            for d, o, v in menus
        )
        self.sessions = w.IntSlider(
            value=n_sessions,
            min=1,
            max=self.max_sessions,
            description=_("sessions N"),
            continuous_update=False,
            layout=w.Layout(width="30em"),
            style=_MENU_STYLE,
        )
        self._holding = False
        for control in self._controls():
            control.observe(lambda _: self.update(), names="value")
        self.update()
        self.widget = w.VBox(
            [
                w.HTML(_(HEADER)),
                w.HBox([self.a, self.b, self.model], layout=w.Layout(flex_flow="row wrap")),
                self.sessions,
                figure_box(self.image, self.readout_html),
            ]
        )

    def _state(self) -> dict:
        inputs = {"rankings": self._lists, "qrels": self._grades, "seed": self.seed}
        sizes = {"max_sessions": self.max_sessions, "depth": self.depth}
        sizes["attractiveness"] = self.attractiveness
        chosen = zip(("a", "b", "click_model", "n_sessions"), self._controls(), strict=True)
        return inputs | sizes | {k: c.value for k, c in chosen}

    def _controls(self) -> tuple:
        return self.a, self.b, self.model, self.sessions

    def clone(self):
        """An independent copy, sharing the simulations (never changed once computed)."""
        twin = super().clone()
        twin._cache = self._cache
        return twin

    def _choice(self, a: Any, b: Any, model: Any) -> tuple[str, str, str]:
        """Systems A and B by name, read as text as the keys of ``rankings`` are (1 names the
        system '1'), and the click model."""
        chosen = []
        for name, system in (("a", a), ("b", b)):
            if str(system) not in self.systems:
                raise ValueError(
                    f"{name}={system!r} is not a system; the systems (names read as text): "
                    f"{self.systems}"
                )
            chosen.append(str(system))
        if not isinstance(model, str) or model not in CLICK_MODELS:
            raise ValueError(f"click_model must be one of {CLICK_MODELS}, got {model!r}")
        return chosen[0], chosen[1], model

    def _check_sessions(self, n: Any) -> int:
        n = check_positive_int(n, "n_sessions")
        if n > self.max_sessions:
            raise ValueError(
                f"n_sessions={n} is above max_sessions={self.max_sessions} (the sessions "
                "simulated in advance)"
            )
        return n

    # --- what a click does -------------------------------------------------------------------

    def select(self, a: str | None = None, b: str | None = None, click_model: str | None = None):
        """Choose system A, system B and/or the click model, as the menus would."""
        a = self.a.value if a is None else a
        b = self.b.value if b is None else b
        click_model = self.model.value if click_model is None else click_model
        a, b, click_model = self._choice(a, b, click_model)
        self._holding = True
        try:
            self.a.value, self.b.value, self.model.value = a, b, click_model
        finally:
            self._holding = False
        self.update()

    def set_sessions(self, n: int) -> None:
        """Show the experiments after ``n`` sessions, as the slider would."""
        self.sessions.value = self._check_sessions(n)

    # --- simulation (cached) -----------------------------------------------------------------

    def simulation(self, a: str, b: str, model: str) -> dict[str, np.ndarray]:
        """Running counts after each session (entry n - 1: after n) for A = ``a``, B = ``b``:
        A/B sessions per arm, sums of the reciprocal rank of the first click and of its square,
        team-draft wins and ties, and both z statistics. Both see the same queries."""
        a, b, model = self._choice(a, b, model)
        key = (a, b, model)
        if key not in self._cache:
            triples = [
                (self._lists[a].get(q, []), self._lists[b].get(q, []), self._grades[q])
                for q in self.queries
            ]
            index = [self.seed, self.systems.index(a), self.systems.index(b)]
            rng = np.random.default_rng(index + [CLICK_MODELS.index(model)])
            sessions = SessionSimulator(
                triples, model, self.max_grade, attractiveness=self.attractiveness, depth=self.depth
            )
            queries = rng.integers(len(triples), size=self.max_sessions)
            shown_b, first = sessions.ab(queries, rng)
            rr = (first >= 0) / (np.abs(first) + 1.0)  # 0 without a click
            winner = sessions.interleave("team draft", queries, rng)
            counts = {"shown_a": np.cumsum(~shown_b), "shown_b": np.cumsum(shown_b)}
            for arm, shown in (("a", ~shown_b), ("b", shown_b)):
                counts[f"rr_{arm}"] = np.cumsum(rr * shown)
                counts[f"rr2_{arm}"] = np.cumsum(rr**2 * shown)
            for name, value in (("wins_a", -1), ("wins_b", 1), ("ties", 0)):
                counts[name] = np.cumsum(winner == value)
            counts["z_ab"], counts["z_interleaving"] = self._z(counts)
            self._cache[key] = counts
        return self._cache[key]

    @staticmethod
    def _z(c: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """z after every session, B − A: Welch's for the mean RR of the first click of the A/B
        groups, the sign test (normal approximation) for the interleaving wins; nan if undefined."""
        with np.errstate(divide="ignore", invalid="ignore"):
            se2 = 0.0
            means = {}
            for arm in ("a", "b"):
                n = c[f"shown_{arm}"].astype(float)
                means[arm] = c[f"rr_{arm}"] / n
                var = (c[f"rr2_{arm}"] - n * means[arm] ** 2) / (n - 1)
                se2 = se2 + np.where(n > 1, np.maximum(var, 0.0), np.nan) / n
            z_ab = np.where(se2 > 0, (means["b"] - means["a"]) / np.sqrt(se2), np.nan)
            decided = (c["wins_a"] + c["wins_b"]).astype(float)
            z_inter = np.where(decided > 0, (c["wins_b"] - c["wins_a"]) / np.sqrt(decided), np.nan)
        return z_ab, z_inter

    # --- numbers and figure ------------------------------------------------------------------

    def update(self) -> None:
        if self._holding:
            return
        c = self.simulation(self.a.value, self.b.value, self.model.value)
        i = self.sessions.value - 1
        shown_a, shown_b = int(c["shown_a"][i]), int(c["shown_b"][i])
        nan = float("nan")
        self.values = {
            N_("sessions"): i + 1,
            N_("A/B: sessions shown A"): shown_a,
            N_("A/B: sessions shown B"): shown_b,
            N_("A/B: mean RR of first click, A"): float(c["rr_a"][i] / shown_a) if shown_a else nan,
            N_("A/B: mean RR of first click, B"): float(c["rr_b"][i] / shown_b) if shown_b else nan,
            N_("A/B: z (B − A)"): float(c["z_ab"][i]),
            N_("interleaving: A wins"): int(c["wins_a"][i]),
            N_("interleaving: B wins"): int(c["wins_b"][i]),
            N_("interleaving: ties"): int(c["ties"][i]),
            N_("interleaving: z (B − A)"): float(c["z_interleaving"][i]),
        }
        self.verdicts = {
            "A/B": self._verdict(self.values["A/B: z (B − A)"]),
            N_("interleaving"): self._verdict(self.values["interleaving: z (B − A)"]),
        }
        self.readout_html.value = table_html(self.values) + "".join(
            f"<div>{_(VERDICT).format(method=_(m))} <b>{t}</b></div>"
            for m, t in self.verdicts.items()
        )
        self._render(self._draw, key="z", data=self._lines)

    def _verdict(self, z: float) -> str:
        if not np.isfinite(z) or abs(z) < Z_CRITICAL:
            return _("no verdict yet (|z| < 1.96)")
        better = self.b.value if z > 0 else self.a.value
        return _("{better} is better (|z| >= 1.96)").format(better=better)

    def readout(self) -> str:
        """A line naming A, B and the click model, the numbers, then the two verdicts."""
        head = _("A: {a} · B: {b} · {model} clicks").format(
            a=self.a.value, b=self.b.value, model=_(self.model.value)
        )
        verdicts = "\n".join(
            f"{_(VERDICT).format(method=_(m))} {t}" for m, t in self.verdicts.items()
        )
        return f"{head}\n{super().readout()}\n{verdicts}"

    def _curves(self) -> list:
        c = self.simulation(self.a.value, self.b.value, self.model.value)
        x, n = np.arange(1, self.max_sessions + 1), self.sessions.value
        z_ab, z_inter = (np.clip(c[k], -Z_LIMIT, Z_LIMIT) for k in ("z_ab", "z_interleaving"))
        return [(x, z_ab), (x, z_inter), ([n, n], [-Z_LIMIT, Z_LIMIT])]

    def _lines(self) -> list:  # the two threshold lines do not move
        return self._curves() + [None, None]

    def _draw(self, ax) -> None:
        (x, z_ab), (_x, z_inter), marker = self._curves()
        ax.plot(x, z_ab, color="C0", label=_("A/B test (RR of first click)"))
        ax.plot(x, z_inter, color="C1", label=_("interleaving (team draft)"))
        ax.plot(*marker, color="black", lw=0.8, ls=":", label="N")
        for level in (Z_CRITICAL, -Z_CRITICAL):
            ax.plot([1, self.max_sessions], [level, level], color="grey", lw=0.8, ls="--")
        ax.set_xlim(1, self.max_sessions)
        ax.set_ylim(-Z_LIMIT, Z_LIMIT)
        ax.set_xlabel(_("sessions"))
        ax.set_ylabel("z (B − A)")
        ax.set_title(_("Evidence by sessions (dashed: |z| = 1.96)"))
        ax.grid(alpha=0.3)
        # the legend below the axes, where no curve can reach it (inside, it hid the curves of
        # the first sessions, where z swings widely, and the upper half of the N line)
        figure = ax.figure
        figure.subplots_adjust(bottom=0.29)
        ax.set_yticks(np.arange(-Z_LIMIT, Z_LIMIT + 1, 2))  # (as on the taller axes before)
        ax.legend(
            loc="lower center",
            bbox_to_anchor=(0.5, 0.01),
            bbox_transform=figure.transFigure,
            ncol=2,
            fontsize="small",
            borderaxespad=0,
        )
