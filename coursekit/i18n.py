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

The exercises' self-check (``check()``, ``progress()``) speaks the language chosen this way. The
grader chooses a language per submission with :func:`speaking` (a context variable: it holds in
the task that set it, never in another student's grading), and translates the texts of the
answer keys (hints, mistakes) with :func:`key_text`, from the catalogs
``coursekit/locale/fr/keys/NN_*.po`` (a text they lack stays English).

>>> set_language("fr"); _("recall"), language()
('rappel', 'fr')
>>> set_language("en"); _("recall")
'recall'
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Iterator
from pathlib import Path

from .validation import check_choice

__all__ = [
    "LANGUAGES",
    "N_",
    "_",
    "catalog_path",
    "gettext",
    "key_text",
    "language",
    "set_language",
    "speaking",
]

#: The languages coursekit draws in (English needs no catalog).
LANGUAGES = ("en", "fr")
LOCALE = Path(__file__).resolve().parent / "locale"

_language = "en"
#: The language of the code running in this context, over ``_language`` (:func:`speaking`).
_speaking: contextvars.ContextVar[str | None] = contextvars.ContextVar("speaking", default=None)


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
    return _speaking.get() or _language


@contextlib.contextmanager
def speaking(language: str) -> Iterator[str]:
    """Speak ``language`` in this context only (the grader's language for one submission):
    other tasks and threads, and the code after the ``with``, keep theirs.

    >>> with speaking("fr"):
    ...     _("recall")
    'rappel'
    >>> _("recall")
    'recall'
    """
    language = check_choice(language, "language", LANGUAGES)
    if language != "en":
        _messages(language)
    token = _speaking.set(language)
    try:
        yield language
    finally:
        _speaking.reset(token)


def _(message: str) -> str:
    """``message`` in the language in use (itself when the catalog has no French for it)."""
    current = language()
    if current == "en" or not isinstance(message, str):
        return message
    return _messages(current).get(message) or message


def keys_catalogs(language: str) -> list[Path]:
    """The catalogs of the answer keys' texts in ``language`` (one per chapter)."""
    return sorted((LOCALE / language / "keys").glob("[0-9][0-9]_*.po"))


@functools.cache
def _key_messages(language: str) -> dict[str, str]:
    import polib

    found: dict[str, str] = {}
    for path in keys_catalogs(language):
        for entry in polib.pofile(str(path)).translated_entries():
            found.setdefault(entry.msgid, entry.msgstr)
    return found


def key_text(text: str) -> str:
    """A text of an answer key (a hint, a mistake's hint) in the language in use: its
    translation in the keys' catalogs, or ``text`` itself (a chapter not translated yet, or
    a key whose text changed since its translation)."""
    current = language()
    if current == "en" or not isinstance(text, str) or not text:
        return text
    return _key_messages(current).get(text) or text


#: :func:`_` under a public name (what another subpackage imports, and binds to ``_``).
gettext = _


def N_(message: str) -> str:
    """``message`` itself: marks a text translated later, where it is drawn (``_(text)``)."""
    return message
