"""The course's own material: the worked examples of its sources, its test collection and the
retrieval systems that made the collection's runs.

>>> from coursekit import course
>>> course.example("slides-ab").source
'slides'
"""

from __future__ import annotations

from .collection import load_collection
from .examples import EXAMPLES, SOURCES, Example, example, examples
from .glossary import glossary, term

__all__ = [
    "EXAMPLES",
    "SOURCES",
    "Example",
    "example",
    "examples",
    "glossary",
    "load_collection",
    "term",
]
