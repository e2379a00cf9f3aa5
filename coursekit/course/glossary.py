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

from ..i18n import N_, _
from ..validation import check_choice
from .sources import known_name

__all__ = ["LANGUAGES", "glossary", "term"]

LANGUAGES = ("French", "Italian")
_PATH = files("coursekit") / "data" / "glossary.csv"


#: The table's headings, drawn in the language in use (``ck.set_language``): a French
#: chapter's glossary is headed « Anglais », « Français », « Italien », « chapitre ».
_HEADINGS = (N_("English"), N_("French"), N_("Italian"), N_("chapter"))


@cache
def _table() -> pd.DataFrame:
    with _PATH.open(encoding="utf-8") as handle:
        table = pd.read_csv(handle, dtype=str, keep_default_na=False)
    if tuple(table.columns) != _HEADINGS:  # (a heading not marked would be drawn in English)
        raise ValueError(f"{_PATH}: headings {list(table.columns)}, expected {list(_HEADINGS)}")
    return table.set_index("English")


def glossary() -> pd.DataFrame:
    """The glossary as a table indexed by the English term (columns French, Italian, chapter),
    headed in the language in use.

    >>> import coursekit as ck
    >>> ck.set_language("fr"); glossary().columns.tolist(); ck.set_language("en")
    ['Français', 'Italien', 'chapitre']
    """
    table = _table().copy()
    table.columns = [_(heading) for heading in table.columns]
    return table.rename_axis(_(table.index.name))


def term(english: str, language: str) -> str:
    """The course's spelling of ``english`` in ``language``: "French" or "Italian", or the
    language's name as :func:`glossary` heads it in the language in use ("Français",
    "Italien" in French); a term not in the glossary is a ``KeyError`` (also a
    ``ValueError``) naming the close ones.

    >>> import coursekit as ck
    >>> ck.set_language("fr"); term("recall", "Français"), term("recall", "French")
    ('rappel', 'rappel')
    >>> ck.set_language("en")
    """
    names = {name: name for name in LANGUAGES} | {_(name): name for name in LANGUAGES}
    language = names[check_choice(language, "language", names)]
    table = _table()
    where = "glossary() lists every term"
    known_name(english, "english", table.index, "{} is not in the glossary", where)
    return str(table.loc[english, language])
