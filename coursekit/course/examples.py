"""The worked examples of the course material, as raw data, in one place.

Each :class:`Example` holds the *raw data* of one worked example of the seeds (document lists,
the ranks of the relevant documents, judgments, grades) and, separately, the values the source
*prints* for it. Notebooks recompute every number from ``data`` with coursekit and use
``printed`` only to show an erratum box where the source's own arithmetic differs:

>>> import coursekit as ck
>>> ex = ck.course.example("slides-ab")
>>> ck.precision(ex.data["retrieved"]["B"], ex.data["relevant"])
0.42857142857142855
>>> ex.printed["precision_B"]
0.428

Where a source contradicts itself, ``notes`` says which data the course trusts and why.
Nothing here is computed: this module only holds data (no measure, no I/O, no plotting);
the data of the examples themselves are in :mod:`coursekit.course.worked`.
"""

from __future__ import annotations

__all__ = ["SOURCES", "EXAMPLES", "Example", "example", "examples"]

from .sources import SOURCES, Example, known_name
from .worked import EXAMPLES

_BY_KEY = {ex.key: ex for ex in EXAMPLES}
if len(_BY_KEY) != len(EXAMPLES):  # pragma: no cover - a guard for editors of this file
    raise RuntimeError("two examples share a key")


def example(key: str) -> Example:
    """The worked example named ``key``; an unknown key is a ``KeyError`` (also a
    ``ValueError``) naming the close keys and listing the known ones."""
    return _BY_KEY[known_name(key, "key", _BY_KEY, "no example {}")]


def examples(source: str | None = None) -> list[Example]:
    """All examples, or those of one source (a key of :data:`SOURCES`)."""
    if source is not None:
        known_name(source, "source", SOURCES, "unknown source {}")
    return [ex for ex in EXAMPLES if source is None or ex.source == source]
