"""The language of what coursekit draws: figure titles, axis labels, legends, widget labels
and readouts, erratum boxes.

    import coursekit as ck
    ck.set_language("fr")      # what ck.views draws from now on is in French
    ck.set_language("en")      # back to English (the default)

The English text is written in the code, marked ``_("...")`` where it is drawn (or
``N_("...")`` where it is only named, e.g. an argument's default, and translated when drawn);
its French is in the gettext catalog ``coursekit/locale/fr/LC_MESSAGES/coursekit.po``, read with
polib (only when a language other than English is chosen). A message the catalog lacks, or
whose entry is empty or fuzzy, is drawn in English. ``tests/test_i18n.py`` fails when a marked
message has no French.

Only the language changes: numbers, the order of things and the names a notebook uses to read a
widget's ``values`` stay as they are.

>>> set_language("fr"); _("recall"), language()
('rappel', 'fr')
>>> set_language("en"); _("recall")
'recall'
"""

from __future__ import annotations

import functools
from pathlib import Path

from ..validation import check_choice

__all__ = ["LANGUAGES", "N_", "_", "catalog_path", "language", "set_language"]

#: The languages coursekit draws in (English needs no catalog).
LANGUAGES = ("en", "fr")
LOCALE = Path(__file__).resolve().parents[1] / "locale"

_language = "en"


def catalog_path(language: str) -> Path:
    """The gettext catalog of ``language``."""
    return LOCALE / language / "LC_MESSAGES" / "coursekit.po"


@functools.cache
def _messages(language: str) -> dict[str, str]:
    import polib

    po = polib.pofile(str(catalog_path(language)))
    return {entry.msgid: entry.msgstr for entry in po.translated_entries()}  # not fuzzy


def set_language(language: str) -> None:
    """Draw figures, widgets and boxes in ``language`` ("en" or "fr") from now on (those
    already shown stay as they are)."""
    global _language
    language = check_choice(language, "language", LANGUAGES)
    if language != "en":
        _messages(language)  # read now: a missing or broken catalog fails here, not mid-figure
    _language = language


def language() -> str:
    """The language in use ("en" by default)."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in use (itself when the catalog has no French for it)."""
    if _language == "en" or not isinstance(message, str):
        return message
    return _messages(_language).get(message) or message


def N_(message: str) -> str:
    """``message`` itself: marks a text translated later, where it is drawn (``_(text)``)."""
    return message
