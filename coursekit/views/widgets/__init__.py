"""Interactive widgets: change a judgment, watch the measures move.

Each widget is a thin view over the measure functions (see :mod:`.base` for what they share):
it keeps its inputs, calls coursekit to compute every number, and shows them in ``HTML``
readouts and an ``Image`` rendered with matplotlib's Agg backend (no ``Output`` widget, so static
renders and nbval see the same thing). Every widget exposes ``values`` (the numbers of its
readout), ``readout()`` (the same as text) and methods that do what a click does
(``toggle(rank)``, ``set_grade(rank, grade)``, ...); ``show_static()`` displays its current figure
and readout without any widget machinery.
"""

from __future__ import annotations

from .assessors import AssessorAgreement
from .compare import CompareSystems
from .correlation import RankCorrelation
from .diversity import DiversityGrid
from .graded import GradedJudgments
from .online import OnlineExperiment
from .ranking import RelevanceToggler
from .recall import RecallOriented
from .setbased import SetBasedExplorer

__all__ = [
    "AssessorAgreement",
    "CompareSystems",
    "DiversityGrid",
    "GradedJudgments",
    "OnlineExperiment",
    "RankCorrelation",
    "RecallOriented",
    "RelevanceToggler",
    "SetBasedExplorer",
]
