"""The course's glossary: each term in English, French and Italian, with the chapter that
introduces it. One spelling per term for the whole course: chapters take their FR/IT terms
from here (``coursekit/data/glossary.csv``).

>>> from coursekit.course import glossary, term
>>> term("precision", "French")
'précision'
>>> len(glossary()) >= 40
True
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

import pandas as pd

from ..validation import check_choice

__all__ = ["LANGUAGES", "glossary", "term"]

LANGUAGES = ("French", "Italian")
_PATH = files("coursekit") / "data" / "glossary.csv"


@cache
def _table() -> pd.DataFrame:
    with _PATH.open(encoding="utf-8") as handle:
        table = pd.read_csv(handle, dtype=str, keep_default_na=False)
    return table.set_index("English")


def glossary() -> pd.DataFrame:
    """The glossary as a table indexed by the English term (columns French, Italian, chapter)."""
    return _table().copy()


def term(english: str, language: str) -> str:
    """The course's spelling of ``english`` in ``language`` ("French" or "Italian")."""
    check_choice(language, "language", LANGUAGES)
    table = _table()
    if english not in table.index:
        raise KeyError(f"{english!r} is not in the glossary (coursekit/data/glossary.csv)")
    return str(table.loc[english, language])
