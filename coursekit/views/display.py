"""Boxes for the notebooks: an erratum shows a printed value beside the recomputed one.

The box takes its colours from the JupyterLab theme's CSS variables (``--jp-…``), with light
fallbacks elsewhere (GitHub, HTML exports), so that it stays readable in a dark theme.

The box is built in a code cell from a value that a coursekit call has just computed, so the
corrected number on the page always comes from code (and nbval checks it).
"""

from __future__ import annotations

import html
import numbers
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, _
from ..validation import check_scalar, describe, fits_a_float

__all__ = ["Erratum", "erratum"]

#: The box's words (an HTML text, translated as it is: its apostrophe is not escaped).
RECOMPUTED = N_("recomputed from the source's own data")
#: The box as text (a notebook's ``text/plain``, an export to PDF). "ERRATUM" starts it in every
#: language: ``tools/collect_errata.py`` finds the boxes of the English chapters by it.
TEXT = N_("ERRATUM ({source}) {quantity}: printed {printed}, recomputed {computed}. Cause: {cause}")
#: The quantity and its colon (French puts a space before it).
QUANTITY = N_("{quantity}:")


def _format(value: Any, digits: int) -> str:
    """A number to ``digits`` decimals (trailing zeros dropped); tuples and lists of numbers
    element by element (numpy scalars print as plain numbers); anything else with ``str``."""
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_format(v, digits) for v in value) + ")"
    if hasattr(value, "tolist") and not isinstance(value, numbers.Real):  # numpy arrays
        return _format(value.tolist(), digits)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    return f"{float(value):.{digits}f}".rstrip("0").rstrip(".") if digits else str(value)


def _check_shown(value: Any, name: str) -> None:
    """Every number of ``value`` (a number, or numbers in tuples, lists or arrays) can be shown
    to a number of decimals: none is an integer too large for a float."""
    if isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            _check_shown(item, f"{name}[{i}]")
    elif hasattr(value, "tolist") and not isinstance(value, numbers.Real):  # numpy arrays
        _check_shown(value.tolist(), name)
    elif isinstance(value, numbers.Real) and not fits_a_float(value):
        raise ValueError(f"{name} is too large to show as a number: {describe(value)}")


@dataclass(frozen=True)
class Erratum:
    """An erratum: where, what the source prints, what its own data gives, and why (``source``,
    the label, as :func:`coursekit.course.sources.cite` gives it: in the language chosen)."""

    source: str
    quantity: str
    printed: Any
    computed: Any
    cause: str
    digits: int = 4

    def __post_init__(self) -> None:
        # checked now: a bad value would otherwise fail later, when the notebook shows the box
        for name in ("source", "quantity", "cause"):
            text = getattr(self, name)
            if not isinstance(text, str):
                raise TypeError(f"{name} must be a str, got {type(text).__name__} {describe(text)}")
        what = "a number of decimals"
        check_scalar(self.digits, "digits", numbers.Integral, what=what, min_val=0, max_val=20)
        _check_shown(self.printed, "printed")
        _check_shown(self.computed, "computed")

    def __repr__(self) -> str:
        return _(TEXT).format(
            source=self.source,
            quantity=self.quantity,
            printed=_format(self.printed, 6),
            computed=_format(self.computed, self.digits),
            cause=self.cause,
        )

    def _repr_html_(self) -> str:
        e = html.escape
        return (
            '<div class="coursekit-erratum" style="'
            "border-left: 6px solid var(--jp-error-color1, #d9534f); "
            "background: var(--jp-layout-color2, #fdf2f2); "
            "color: var(--jp-content-font-color1, #1a1a1a); "
            'padding: 0.5em 1em; margin: 0.5em 0;">'
            f"<b>⚠ {e(_('Erratum'))}</b> — <i>{e(self.source)}</i><br>"
            f"{e(_(QUANTITY)).format(quantity=f'<b>{e(self.quantity)}</b>')} {e(_('printed'))} "
            f"<code>{e(_format(self.printed, 6))}</code>, "
            f"{_(RECOMPUTED)} <code>"
            f"{e(_format(self.computed, self.digits))}</code><br>"
            f"<b>{e(_('Cause:'))}</b> {e(self.cause)}</div>"
        )


def erratum(
    source: str, quantity: str, printed: Any, computed: Any, cause: str, digits: int = 4
) -> Erratum:
    """An erratum box for a notebook: show it as the last expression of a code cell.

    >>> erratum("slides 000", "MAP", 0.5138, 0.38503, "divides by 6, not 8")
    ERRATUM (slides 000) MAP: printed 0.5138, recomputed 0.385. Cause: divides by 6, not 8
    >>> import numpy as np
    >>> erratum("paper", "F'_4", (1, 0.091), np.array([1.0, 0.45876]), "wrong column").computed
    array([1.     , 0.45876])
    >>> print(repr(erratum("paper", "F'_4", (1, 0.091), np.array([1.0, 0.45876]), "swap")))
    ERRATUM (paper) F'_4: printed (1, 0.091), recomputed (1, 0.4588). Cause: swap
    """
    return Erratum(source, quantity, printed, computed, cause, digits)
