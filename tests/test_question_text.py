"""A question's text cannot drift from a student's data (issue 33, item 6).

In a released variant only the data cell changes: the questions' text is the public one. So a
question names the data cell's variables (``rels``, ``k``, ``ctr_a``) and never states one of
their values: "n = 8" written in the text would be wrong for every student whose data cell
says 11. This test draws variants of every chapter and looks for a decimal number of the public
data cell, absent from a variant's data cell, in the text of the questions.
"""

from __future__ import annotations

import re

import nbformat
import numpy as np
import pytest
from exercise_support import CHAPTERS, ROOT, load_key

DECIMAL = re.compile(r"(?<![\w.@])\d+\.\d+(?![\w.])")
# a number of the text that equals a data value by coincidence, with what it is in the text
SAME_BY_CHANCE = {"10_users_online": {"0.8": "q6's power of the test, not RBP's p"}}


def _question_text(chapter: str) -> str:
    notebook = nbformat.read(ROOT / "exercises" / f"{chapter}.ipynb", as_version=4)
    return " ".join(
        cell.source
        for cell in notebook.cells
        if cell.get("metadata", {}).get("coursekit", {}).get("role") == "question"
    )


def _drifting(key, text: str, ignored=()) -> set[str]:
    """The decimals of ``text`` that are values of the key's public data cell and that some
    drawn variant's data cell does not hold."""
    public = set(DECIMAL.findall(key.generate(None)[0]))
    stated = set(DECIMAL.findall(text)) - set(ignored)
    found = set()
    for seed in range(8):
        drawn = set(DECIMAL.findall(key.generate(np.random.default_rng(seed))[0]))
        found |= {x for x in stated if x in public and x not in drawn}
    return found


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_question_states_a_value_of_the_data(chapter):
    found = _drifting(load_key(chapter), _question_text(chapter), SAME_BY_CHANCE.get(chapter, {}))
    assert found == set(), f"{chapter}: the questions state data values {sorted(found)}"


def test_the_check_finds_a_stated_value():
    """The check itself: chapter 10's RBP persistence p, written in a question, drifts."""
    key = load_key("10_users_online")
    assert _drifting(key, "**q1.** With p = 0.8, what is RBP?") == {"0.8"}
    assert _drifting(key, "**q1.** With `p` of the data cell, what is RBP?") == set()
