"""What a reader sees: figures (:mod:`.plots`), erratum boxes (:mod:`.display`), step-by-step
tables (:mod:`.tables`) and interactive widgets (:mod:`.widgets`).

Submodules are imported when first used: matplotlib and ipywidgets load only then.
"""

from __future__ import annotations

import importlib
from typing import Any

_SUBMODULES = {"plots", "display", "tables", "widgets"}


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(_SUBMODULES)
