"""The sources of the course material and the form of one worked example."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..i18n import N_, _

__all__ = [
    "SHORT",
    "SOURCES",
    "InLanguage",
    "Example",
    "UnknownName",
    "cite",
    "frozen",
    "known_name",
]


class InLanguage(Mapping[str, str]):
    """A read-only mapping of texts, each given in the language chosen (``ck.set_language``;
    :mod:`coursekit.i18n`): a text marked ``N_`` where it is written has its French in the
    catalog, the others are given as written.

    >>> InLanguage({"a": "slides"})["a"], list(InLanguage({"a": "slides"}))
    ('slides', ['a'])
    """

    def __init__(self, texts: Mapping[str, str]):
        self._texts = dict(texts)

    def __getitem__(self, key: str) -> str:
        return _(self._texts[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


#: Full references of the course material (the seeds), by key, in the language chosen (those
#: with English words are marked ``N_``; so are :data:`SHORT`'s and each example's place).
SOURCES: Mapping[str, str] = InLanguage(
    {
        "slides": N_(
            "Recherche d'information, chapitre 8 : Évaluation des performances des systèmes de "
            "RI (lecture slides, French; author and year not given)"
        ),
        "pyterrier": N_(
            "G8 Innovation, « Présentation des métriques MAP et NDCG » (talk with a PyTerrier "
            "example, French), 10 January 2020"
        ),
        "labatut": N_(
            "V. Labatut, « Partie 8 : Évaluation des performances », M2 lecture slides "
            "(French), LIA, Université d'Avignon, 2019/20"
        ),
        "mor": (
            "B. Audeh, P. Beaune, M. Beigbeder, « MOR : Mesure orientée rappel pour les "
            "systèmes de recherche d'information », Document numérique 18(1), 2015"
        ),
        "notes-it": N_("Course notes on evaluation measures (Italian; author and year not given)"),
    }
)


#: Short citations (author, title, year) of the same sources: the one form used in erratum boxes,
#: prose and docs/errata.md. "n.d." where the source gives no year, "Anon." where no author.
#: Those with English words are marked: an erratum box shows them in the language chosen.
SHORT: Mapping[str, str] = InLanguage(
    {
        "slides": N_("Anon., Évaluation des performances des systèmes de RI (slides), n.d."),
        "pyterrier": "G8 Innovation, Présentation des métriques MAP et NDCG, 2020",
        "labatut": N_("Labatut, Partie 8 : Évaluation des performances (M2 slides), 2019"),
        "mor": "Audeh, Beaune & Beigbeder, MOR : Mesure orientée rappel, 2015",
        "notes-it": N_("Anon., Italian course notes on evaluation measures, n.d."),
    }
)


def cite(source: str, where: str = "") -> str:
    """The short citation of a source, with a place in it if given, in the language chosen
    (:mod:`coursekit.i18n`: a text the catalog lacks, such as a place a French notebook
    writes in French, is kept as given).

    >>> cite("mor", "Table 1")
    'Audeh, Beaune & Beigbeder, MOR : Mesure orientée rappel, 2015, Table 1'
    """
    known_name(source, "source", SHORT, "unknown source {}")
    if not isinstance(where, str):
        raise TypeError(f"where must be a str (a place in the source), got {type(where).__name__}")
    return f"{SHORT[source]}, {_(where)}" if where else SHORT[source]


class UnknownName(KeyError, ValueError):
    """A name that is not among the known ones: a ``KeyError`` (as a look-up by key) and a
    ``ValueError`` (as a wrong argument) whose message names the close known names."""

    def __str__(self) -> str:  # the message as written, not quoted as KeyError's
        return str(self.args[0]) if self.args else ""


def known_name(
    name: object, argument: str, known: Iterable[str], unknown: str, see: str = ""
) -> str:
    """``name`` if it is one of ``known``; a ``TypeError`` if it is not a string, else an
    :class:`UnknownName` saying ``unknown`` (its ``{}`` replaced by the name), the close names,
    and the known ones (or ``see``, where to find them, when there are many).

    >>> known_name("mor", "source", ["mor", "slides"], "unknown source {}")
    'mor'
    """
    known = list(known)
    if not isinstance(name, str):
        raise TypeError(f"{argument} must be a str, got {type(name).__name__} {name!r:.60}")
    if name not in known:
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
        listed = f"known: {', '.join(known)}" if len(known) <= 20 or not see else see
        raise UnknownName(f"{unknown.replace('{}', repr(name))}{hint} ({listed})")
    return name


def frozen(mapping: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Example:
    """One worked example of the course material.

    ``data`` is the raw data to recompute from; ``printed`` the values as the source prints
    them (for erratum boxes only: never use them as inputs); ``note`` records
    inconsistencies of the source and the choice made, in English (:attr:`notes` gives it in the
    language chosen).
    """

    key: str
    source: str
    where: str
    description: str
    data: Mapping[str, Any]
    printed: Mapping[str, Any] = field(default_factory=frozen)
    note: str = ""

    @property
    def notes(self) -> str:
        """:attr:`note` in the language chosen (``ck.set_language``), what a chapter prints."""
        return _(self.note) if self.note else ""

    def cite(self, where: str | None = None) -> str:
        """The short citation (author, title, year) and the place: ``where`` if given, else
        the example's own place. This is the label of every erratum box."""
        return cite(self.source, self.where if where is None else where)

    @property
    def citation(self) -> str:
        """The full reference of the source, with the place of the example in it (in the
        language chosen, as :func:`cite`)."""
        return f"{SOURCES[self.source]}, {_(self.where)}"
