"""Salted hashes: what the public self-check data hold instead of an expected value.

A value is hashed rounded to 2, 3 and 4 decimals (:func:`digest`), a function's output to the
judge's tolerance (:func:`output_digest`); a student's answer is compared by hashing it the same
way (:func:`matches`). Used by the questions of :mod:`.questions` and by the judging.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
from typing import Any


def _canonical_float(value: float, decimals: int, significant: bool = False) -> str:
    if significant:  # ``decimals`` significant digits: 0.00020695 to 4 is 2.070e-04
        return "0" if value == 0 else f"{value:.{decimals - 1}e}"
    text = f"{value:.{decimals}f}"
    return "0." + "0" * decimals if float(text) == 0 else text  # -0.0000 is 0.0000


def _canonical(value: Any, decimals: int, significant: bool = False, exact: bool = False) -> str:
    if isinstance(value, str):  # (``exact``: case kept, as for document ids)
        return "x:" + value.strip() if exact else "s:" + value.strip().lower()
    if isinstance(value, numbers.Integral):
        return f"i:{int(value)}"
    kind = "g:" if significant else "f:"
    return kind + _canonical_float(float(value), decimals, significant)


def digest(
    salt: str, value: Any, decimals: int = 4, significant: bool = False, exact: bool = False
) -> str:
    """Salted SHA-256 of ``value`` rounded to ``decimals`` (or to that many ``significant``
    digits; strings: stripped, lower case unless ``exact``).

    >>> digest("demo", 0.123449999999) == digest("demo", 0.1234)
    True
    >>> digest("demo", 0.000206951, 4, True) == digest("demo", 0.0002070, 4, True)
    True
    """
    text = f"coursekit:{salt}:{_canonical(value, decimals, significant, exact)}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def matches(
    salt: str,
    value: Any,
    hashes: dict[str, str],
    decimals: int,
    significant: bool = False,
    exact: bool = False,
) -> bool:
    """Whether ``value`` rounded to ``decimals`` has the hash ``hashes[decimals]`` (or the
    other rounding of an expected value that lies on a tie, ``hashes[f"{decimals}~"]``: 0.625
    is 0.62 to Python, 0.63 to a student rounding half up). A value a hair away from a rounding
    boundary counts as its neighbour too."""
    expected = {hashes.get(str(decimals)), hashes.get(f"{decimals}~")} - {None}
    if not expected:
        return False
    if isinstance(value, float) and math.isfinite(value):
        hair = abs(value) * 1e-9 if significant else 1e-9
        near = (value, value - hair, value + hair)
        return any(digest(salt, v, decimals, significant) in expected for v in near)
    return digest(salt, value, decimals, significant, exact) in expected


def precisions(hashes: dict[str, str]) -> list[int]:
    """The decimals a value is hashed to (the keys of its hashes, ties' other roundings aside)."""
    return [int(key) for key in hashes if key.isdigit()]


def _canonical_output(value: Any) -> Any:
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_canonical_output(v) for v in value]
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return _canonical_float(float(value), 6) if math.isfinite(value) else str(float(value))
    return value if isinstance(value, (str, bool)) or value is None else repr(value)


def output_digest(salt: str, value: Any) -> str:
    """Salted hash of a function's output, numbers to 6 decimals (the judge's tolerance)."""
    text = json.dumps(_canonical_output(value), sort_keys=True)
    return hashlib.sha256(f"coursekit-output:{salt}:{text}".encode()).hexdigest()[:24]
