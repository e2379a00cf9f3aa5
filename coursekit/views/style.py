"""Two looks for the course's figures and widgets: ``"default"`` (a notebook on a laptop) and
``"lecture"`` (a projector), switched in one line, before the figures and widgets are made::

    import coursekit as ck
    ck.views.lecture_mode()          # or: from coursekit.views import style; style.use("lecture")
    ck.views.lecture_mode(False)     # back to the default look

The lecture look draws every new figure at a higher resolution (144 instead of 100 pixels per
inch: a ``figsize=(6, 4)`` figure becomes 864 x 576 pixels) with larger fonts, so that the
smallest text of a figure (legends, tick labels) is at least 16 pixels high; the widgets' figures
grow likewise, and their readouts are drawn 1.3 times larger. Numbers do not change, only sizes.

>>> use("lecture"); current(), widget_figsize(), smallest_font_px() >= 16
('lecture', (5.0, 3.4), True)
>>> use("default"); current()
'default'
"""

from __future__ import annotations

from typing import Any

from ..validation import check_bool, check_choice

__all__ = ["STYLES", "current", "lecture_mode", "smallest_font_px", "use", "widget_figsize"]

#: Matplotlib settings of each look (the other settings are left as they are).
STYLES: dict[str, dict[str, Any]] = {
    "default": {"figure.dpi": 100.0, "font.size": 10.0},
    "lecture": {"figure.dpi": 144.0, "font.size": 11.0},
}
#: What the widgets take from each look: the size of their readouts' text.
_READOUT_FONT = {"default": "inherit", "lecture": "1.3em"}
_WIDGET_FIGSIZE = (5.0, 3.4)
_SMALL = 0.833  # matplotlib's "small", the legends' size, relative to font.size

_current = "default"
DPI = STYLES["default"]["figure.dpi"]


def use(name: str) -> None:
    """Switch to the look ``name`` ("default" or "lecture") for the figures and widgets made
    from now on (figures already shown keep their size)."""
    global _current, DPI
    _check_style(name)
    import matplotlib

    matplotlib.rcParams.update(STYLES[name])
    matplotlib.rcParams["savefig.dpi"] = "figure"
    _current = name
    DPI = STYLES[name]["figure.dpi"]


def lecture_mode(on: bool = True) -> None:
    """The lecture look (``on``) or the default one: ``ck.views.lecture_mode()``."""
    use("lecture" if check_bool(on, "on") else "default")


def current() -> str:
    """The name of the look in use."""
    return _current


def widget_figsize() -> tuple[float, float]:
    """The size of a widget's figure, in inches (its pixels grow with the look's DPI)."""
    return _WIDGET_FIGSIZE


def readout_font_size() -> str:
    """The CSS font size of the widgets' readouts."""
    return _READOUT_FONT[_current]


def smallest_font_px(name: str | None = None) -> float:
    """The height in pixels of the smallest text of a figure (a legend) in the look ``name``."""
    settings = STYLES[_current if name is None else _check_style(name)]
    return settings["font.size"] * _SMALL * settings["figure.dpi"] / 72


def _check_style(name: Any) -> str:
    """The name of a look: "default" or "lecture" (a ``ValueError`` for anything else)."""
    return check_choice(name, "style", STYLES)
