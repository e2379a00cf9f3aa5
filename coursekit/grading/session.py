"""What one kernel's self-check remembers: the chapter started, the answers recorded.

Shared by the public exercises' :mod:`.selfcheck` and the variants' :mod:`.variantcheck` (each
imports this, neither the other): the set-up cell that ran last, and the answer log the grader
reads (``COURSEKIT_ANSWER_LOG``), one JSON line per ``check()``.
"""

from __future__ import annotations

import json
import os
import types
from typing import Any

from ..i18n import N_
from .judging import as_plain
from .portable import function_source, uses_coursekit
from .questions import ANSWER_LOG

#: The chapter started in this kernel, its questions on the student's own data, and whether
#: the last set-up cell run was a variant's (:func:`.variantcheck.start`).
CURRENT: dict[str, Any] = {"chapter": None, "own": frozenset(), "variant": False}
#: What check() says when the set-up cell has not run in this kernel.
NO_SETUP = N_(
    "{qid}: run the set-up cell first (the first code cell of the notebook, which calls "
    "start(...)), and the cells that set up the data, then this cell again"
)


def record(qid: str, chapter: str, answer: Any) -> None:
    path = os.environ.get(ANSWER_LOG)
    if not path:
        return
    entry: dict[str, Any] = {"chapter": chapter, "qid": qid}
    try:
        if isinstance(answer, types.FunctionType):
            entry["source"] = function_source(answer)
            entry["name"] = answer.__name__
            entry["uses_coursekit"] = uses_coursekit(answer)
        else:
            entry["value"] = as_plain(answer) if answer is not ... else None
        line = json.dumps(entry, allow_nan=True)
    except (TypeError, ValueError, OSError) as error:
        line = json.dumps(
            {"chapter": chapter, "qid": qid, "unreadable": f"{type(error).__name__}: {error}"[:200]}
        )
    with open(path, "a", encoding="utf-8") as log:
        log.write(line + "\n")
