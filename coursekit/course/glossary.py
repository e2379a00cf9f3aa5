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
from .sources import known_name

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
    """The course's spelling of ``english`` in ``language`` ("French" or "Italian"); a term not
    in the glossary is a ``KeyError`` (also a ``ValueError``) naming the close ones."""
    check_choice(language, "language", LANGUAGES)
    table = _table()
    where = "glossary() lists every term"
    known_name(english, "english", table.index, "{} is not in the glossary", where)
    return str(table.loc[english, language])
