"""The shared base of the course's widgets: readout tables, input checks, ``Widget``.

Each widget is a thin view over the measure functions: it keeps its inputs, calls coursekit to
compute every number, and shows them in ``HTML`` readouts and an ``Image`` rendered with
matplotlib's Agg backend (no ``Output`` widget, so static renders and nbval see the same thing).

Every widget exposes ``values`` (the numbers of its readout), ``readout()`` (the same as text)
and methods that do what a click does (``toggle(rank)``, ``set_grade(rank, grade)``, ...), so that
tests and notebook cells can drive it. Display a widget by leaving it as the last expression of a
cell; ``show_static()`` displays its current figure and readout without any widget machinery.
Figures are drawn on a :class:`~coursekit.views.widgets.canvas.BlitCanvas` (re-exported here).

A widget checks its arguments with the helpers below before it builds a control, and a method
that changes its state checks first too: a refused call leaves the widget as it was. A value
outside a control's range is refused with the range (ipywidgets would clamp it silently).
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import ipywidgets as w
import numpy as np

from ...i18n import N_, _
from ...validation import check_scalar, describe
from .canvas import LEGEND_PLACES, BlitCanvas, free_legend_place

__all__ = [
    "BlitCanvas",
    "Widget",
    "as_list",
    "check_in_range",
    "check_position",
    "figure_box",
    "frame_html",
    "image_widget",
    "nice_limit",
    "number",
    "table_html",
    "text_keys",
]

SMALL = w.Layout(width="auto")
KEPT_CANVASES = 6

#: Readouts, messages and notes: colours of the JupyterLab theme (light fallbacks elsewhere).
TEXT = "var(--jp-content-font-color1, #111)"
ERROR = "var(--jp-error-color1, #b00)"
MUTED = "var(--jp-content-font-color3, #777)"
#: The text form of a widget (after its class name).
INTERACTIVE = N_("widget (interactive when the notebook runs)")


# --- checks shared by the widgets ------------------------------------------------------------


def check_position(value: Any, n: int, name: str = "rank") -> int:
    """A 1-based position among ``n`` (a rank, a place in a list): a whole number from 1 to
    ``n``. 0 and negative numbers are refused, never read as Python indexes from the end.

    >>> check_position(2, 3)
    2
    >>> check_position(0, 3)
    Traceback (most recent call last):
    ValueError: rank must be between 1 and 3, got 0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be a whole number between 1 and {n}, "
            f"got {type(value).__name__} {describe(value)}"
        )
    if not 1 <= value <= n:
        raise ValueError(f"{name} must be between 1 and {n}, got {value}")
    return int(value)


def check_in_range(value: Any, name: str, low: float, high: float, whole: bool = True) -> Any:
    """The starting value of a control with a range (a slider, a bounded box): a whole number
    (or, with ``whole=False``, any number) from ``low`` to ``high``, returned as an int (a
    float). Outside the range it is refused with the range, not clamped as ipywidgets would."""
    if whole:
        checked = check_scalar(
            value, name, numbers.Integral, what="a whole number", min_val=low, max_val=high
        )
        return int(checked)
    return float(
        check_scalar(value, name, numbers.Real, what="a number", min_val=low, max_val=high)
    )


def as_list(values: Any, name: str, what: str) -> list:
    """``values`` read once (a generator is used up by one reading) into a list. Refused: a
    string (it would be read letter by letter), a set (no order, no repeated value), a dict (it
    would give its keys) and anything that is not a collection."""
    kind = type(values).__name__
    if isinstance(values, (str, bytes)):
        raise TypeError(
            f"{name} must be a sequence of {what}, such as a list, got the string "
            f"{describe(values)}"
        )
    if isinstance(values, AbstractSet):
        raise TypeError(
            f"{name} must be a sequence of {what}, such as a list, got {kind} "
            f"{describe(values)}: a {kind} keeps no order and no repeated value"
        )
    if isinstance(values, Mapping):
        raise TypeError(
            f"{name} must be a sequence of {what}, such as a list, got {kind} "
            f"{describe(values)}: a {kind} would give its keys (its values: list(d.values()))"
        )
    if not isinstance(values, Iterable):
        raise TypeError(
            f"{name} must be a sequence of {what}, such as a list, got {kind} {describe(values)}"
        )
    return list(values)


def text_keys(mapping: Mapping, name: str, what: str) -> list[str]:
    """The keys of ``mapping`` read as text (``str(key)``), as the widgets name them; refused
    when two keys read the same (``1`` and ``"1"``), which would merge two of them into one."""
    seen: dict[str, Any] = {}
    for key in mapping:
        text = str(key)
        if text in seen:
            raise ValueError(
                f"{name} has two {what} named {text!r} ({describe(seen[text])} and "
                f"{describe(key)}): names are read as text, so they must differ as text"
            )
        seen[text] = key
    return list(seen)


def nice_limit(value: float) -> float:
    """The smallest of 1, 1.5, 2, 3, 5, 7.5 times a power of ten that is above ``value``
    (with a margin): an axis limit that changes only now and then as the data grow."""
    scale = 10 ** np.floor(np.log10(value * 1.05))
    for step in (1, 1.5, 2, 3, 5, 7.5, 10):
        if step * scale >= value * 1.05:
            return float(step * scale)
    return float(10 * scale)  # pragma: no cover


def number(value: float, name: str = "") -> str:
    """A readout value: a count (an ``int``) as it is, a percentage (a ``name`` with ``%``) to
    2 decimals with its sign, any other number to 4 decimals.

    >>> number(3), number(0.25), number(1.00093, "gain %")
    ('3', '0.2500', '1.00 %')
    """
    if isinstance(value, int):
        return str(value)
    if "%" in name:
        return f"{value:.2f} %"
    return f"{value:.4f}"


def label(name: str) -> str:
    """A readout value's name in the language in use: its catalog entry, or, for a name cut at
    a rank (``ideal alpha-DCG@5``), the entry of its pattern (``ideal alpha-DCG@{k}``). The
    values keep their English names: a cell reads them.

    >>> label("ideal alpha-DCG@5"), label("P@10")
    ('ideal alpha-DCG@5', 'P@10')
    """
    shown = _(name)
    head, at, k = name.rpartition("@")
    if shown == name and at and k.isdigit():
        pattern = f"{head}@{{k}}"
        return _(pattern).format(k=k)
    return shown


def table_html(values: dict[str, float], stale: bool = False) -> str:
    """The readout table; ``stale``: greyed out and struck through (the numbers no longer match
    the inputs, e.g. after an input that could not be read)."""
    from .. import style

    rows = "".join(
        f"<tr><td style='padding-right:1em'>{html.escape(label(name))}</td>"
        f"<td style='text-align:right'><b>{number(value, name)}</b></td></tr>"
        for name, value in values.items()
    )
    look = f"color:{MUTED};text-decoration:line-through" if stale else f"color:{TEXT}"
    return f"<table style='{look};font-size:{style.readout_font_size()}'>{rows}</table>"


def frame_html(frame) -> str:
    """A small DataFrame as an HTML table (pandas' ``to_html`` is slow for a widget)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def image_widget() -> w.Image:
    """The Image of a widget's figure: shown at its own size (never wider than the output
    area), with its aspect ratio kept whatever the flex box around it does."""
    from .. import style

    width = round(style.widget_figsize()[0] * style.DPI)
    image = w.Image(
        format="png",
        layout=w.Layout(
            width=f"{width}px",
            max_width="100%",
            height="auto",
            flex="0 0 auto",
            align_self="flex-start",
            object_fit="contain",
        ),
    )
    image.add_class("coursekit-figure")
    return image


def figure_box(image: w.Widget, readout: w.Widget) -> w.Box:
    """The figure and the readout side by side, the readout going below when space is short."""
    return w.HBox([image, readout], layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))


class Widget:
    """What every widget shares: a readout, an optional image, display and static display."""

    title = ""

    def __init__(self) -> None:
        self.values: dict[str, float] = {}
        self.readout_html = w.HTML(layout=w.Layout(min_width="14em"))
        self.readout_html.add_class("coursekit-readout")  # for the browser test and benchmark
        self.image: w.Image | None = None
        self._canvas: BlitCanvas | None = None
        self._canvases: dict[Any, BlitCanvas] = {}  # other keys' canvases, oldest first

    def _render(self, draw, key: Any = None, data=None, frame=None, changing=None) -> None:
        """Draw with ``draw(ax)`` and put the PNG into the Image widget; ``key`` names what
        fixes the frame (title, limits, legend), drawn once per key, and ``data`` gives the new
        data of the artists directly; ``frame(ax)`` changes an axes already drawn to the frame
        of a new key, ``changing(ax)`` the artists ``frame`` changes (see :class:`BlitCanvas`)."""
        if frame is not None:  # one canvas, which keeps a frame bitmap per key
            self._canvas = self._canvas or BlitCanvas()
        elif self._canvas is None or self._canvas.key != key:
            # One canvas per key, the last few kept: going back to a key already seen (a DCG
            # formula, a measure, a y limit) redraws only the data, on the frame drawn the
            # first time.
            if self._canvas is not None and self._canvas.key is not None:
                self._canvases[self._canvas.key] = self._canvas
            self._canvas = self._canvases.pop(key, None) or BlitCanvas()
            while len(self._canvases) > KEPT_CANVASES:
                self._canvases.pop(next(iter(self._canvases)))
        if self.image is None:
            self.image = image_widget()
        self.image.value = self._canvas.png(key, draw, data, frame, changing)

    def _render_clear(
        self,
        draw,
        key: tuple,
        lines: list,
        first: str = "lower left",
        frame=None,
        changing=None,
        warm: bool = False,
        more: list | None = None,
    ) -> None:
        """:meth:`_render` with the legend where it covers no point of ``lines`` (the data of
        the axes' artists, as ``data`` gives them): ``draw(ax, place)`` draws with the legend
        at ``place``, found on the frame drawn last, and measured again on a new frame. With
        ``frame(ax)`` (see :meth:`_render`), a new key reuses the axes drawn: the legend is
        moved to its place there (``changing``: as :meth:`_render` takes it); ``warm`` (with
        ``frame``): the frames of the other legend places are drawn now too (see
        :meth:`_warm_places`), for a widget being built; ``more``: the data of the artists
        drawn after ``lines`` whose points the legend may cover (e.g. a line across the axes)."""
        points = np.concatenate([np.column_stack(line) for line in lines if line is not None])
        place = free_legend_place(self._canvas, points, first)
        moving = None
        if frame is not None:

            def moving(ax, at):
                frame(ax)
                legend = ax.get_legend()
                if legend is not None:
                    legend.set_loc(at)

        for _attempt in range(2):  # (a first drawing measures the legend, a second may move it)
            drawn_before = self._canvas
            self._render(
                lambda ax, at=place: draw(ax, at),
                key=(*key, place),
                data=lambda: [*lines, *(more or [])],
                frame=None if moving is None else (lambda ax, at=place: moving(ax, at)),
                changing=changing,
            )
            if self._canvas is drawn_before and frame is None:  # measured already
                break
            moved = free_legend_place(self._canvas, points, place)
            if moved == place:
                break
            place = moved
        if warm and moving is not None:
            self._warm_places(key, place, moving, changing)

    def _warm_places(self, key: tuple, place: str, moving, changing) -> None:
        """Draw and keep the frame of every legend place of ``key`` not kept yet (the legend
        moved over the rest, drawn once: ``changing``), so that a click that moves the legend
        for the first time finds its frame drawn; ``place``'s frame is the background again."""
        canvas = self._canvas
        ax = canvas.ax
        for other in LEGEND_PLACES:
            if (*key, other) not in canvas.frames:
                moving(ax, other)
                canvas._keep_frame((*key, other), changing)
        moving(ax, place)
        canvas._keep_frame((*key, place), changing)

    def _state(self) -> dict[str, Any]:
        """The constructor's arguments that rebuild the widget as it is now."""
        raise NotImplementedError

    def clone(self):
        """A new, independent widget in the current state of this one.

        A notebook cell that shows what clicks do should click a clone, so that the widget
        displayed above keeps the state its own cell gives it (after Run All too):

        >>> from coursekit.views.widgets import RelevanceToggler
        >>> shown = RelevanceToggler([1, 0, 1])
        >>> clicked = shown.clone()
        >>> clicked.toggle(2)
        >>> shown.rels, clicked.rels
        ([1, 0, 1], [1, 1, 1])
        """
        return type(self)(**self._state())

    copy = clone

    def readout(self) -> str:
        """The readout as text: one ``name = value`` per line, counts as integers, percentages
        to 2 decimals with a ``%`` sign and other values to 4 decimals."""
        return "\n".join(f"{label(n)} = {number(value, n)}" for n, value in self.values.items())

    def _repr_mimebundle_(self, **kwargs) -> dict:
        # A short, stable text form: the default repr of a widget lists every child's state
        # (PNG bytes included), which would differ from one matplotlib version to another.
        return {
            "text/plain": f"{type(self).__name__} {_(INTERACTIVE)}",
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
