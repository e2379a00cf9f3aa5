"""``evaluate()``: every measure of a run, query by query, against relevance judgments."""

from __future__ import annotations

from .evaluate import Evaluation, evaluate

__all__ = ["Evaluation", "evaluate"]
