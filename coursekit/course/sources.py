"""The sources of the course material and the form of one worked example."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["SOURCES", "Example", "frozen"]

#: Full references of the course material (the seeds), by key.
SOURCES: Mapping[str, str] = MappingProxyType(
    {
        "slides": (
            "Recherche d'information, chapitre 8 : Évaluation des performances des systèmes de "
            "RI (lecture slides, French; author and year not given)"
        ),
        "pyterrier": (
            "G8 Innovation, « Présentation des métriques MAP et NDCG » (talk with a PyTerrier "
            "example, French), 10 January 2020"
        ),
        "labatut": (
            "V. Labatut, « Partie 8 : Évaluation des performances », M2 lecture slides "
            "(French), LIA, Université d'Avignon, 2019/20"
        ),
        "mor": (
            "B. Audeh, P. Beaune, M. Beigbeder, « MOR : Mesure orientée rappel pour les "
            "systèmes de recherche d'information », Document numérique 18(1), 2015"
        ),
        "notes-it": "Course notes on evaluation measures (Italian; author and year not given)",
    }
)


def frozen(mapping: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Example:
    """One worked example of the course material.

    ``data`` is the raw data to recompute from; ``printed`` the values as the source prints
    them (for erratum boxes only: never use them as inputs); ``notes`` records
    inconsistencies of the source and the choice made.
    """

    key: str
    source: str
    where: str
    description: str
    data: Mapping[str, Any]
    printed: Mapping[str, Any] = field(default_factory=frozen)
    notes: str = ""

    @property
    def citation(self) -> str:
        """The full reference of the source, with the place of the example in it."""
        return f"{SOURCES[self.source]}, {self.where}"
