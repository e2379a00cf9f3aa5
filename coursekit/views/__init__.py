"""What a reader sees: figures (:mod:`.plots`), erratum boxes (:mod:`.display`), step-by-step
tables (:mod:`.tables`), interactive widgets (:mod:`.widgets`) and their look (:mod:`.style`).

Submodules are imported when first used: matplotlib and ipywidgets load only then.
``lecture_mode()`` switches figures and widgets to the projector look (see :mod:`.style`).
"""

from __future__ import annotations

import importlib
from typing import Any

_SUBMODULES = {"plots", "display", "style", "tables", "widgets"}


def lecture_mode(on: bool = True) -> None:
    """Bigger figures and fonts for a projector (``on``), or back to the default look."""
    from .style import lecture_mode as switch

    switch(on)


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(_SUBMODULES | {"lecture_mode"})
