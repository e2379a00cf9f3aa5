"""A student's own order of the options of each multiple-choice question (a variant's shuffle).

Without it every variant has the public letters: a letter copied from a classmate, or found
from the public hashes, would be right. In a released variant each :class:`Choice` therefore
has its options in an order drawn for the student (by a generator seeded apart from the
data's, so that the data drawn do not change): the options of the question's markdown cell
(``- a) ...``, ``- b) ...``, continued on indented lines) are put in that order, their letters
written again from ``a``, and the expected letter follows its option. An option the key names
in ``FIXED_OPTIONS`` keeps its place: one that must stay last ("neither: both rows are
possible", "none of them") or whose text names another option by its letter.

>>> import numpy as np
>>> order = draw_order(np.random.default_rng(3), "abc", fixed="c")
>>> sorted(order.values()) == ["a", "b", "c"] and order["c"] == "c"
True
>>> text = "**q1.** Which? One letter.\\n\\n- a) first\\n- b) second,\\n  continued\\n- c) neither"
>>> print(reorder_options(text, {"a": "b", "b": "a", "c": "c"}, "abc"))
**q1.** Which? One letter.
<BLANKLINE>
- a) second,
  continued
- b) first
- c) neither
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .questions import Choice

#: The first line of an option: ``- a) text``.
OPTION_LINE = re.compile(r"^- ([a-z])\) ")
#: A question's markdown cell starts with its bold id: ``**q8.`` or ``**q10 (2 points).**``.
QUESTION_START = r"^\*\*{qid}\b"
#: A letter written as a string literal in a solution's code: ``"b"`` or ``'b'``.
LETTER_LITERAL = re.compile(r"""(["'])([a-z])\1""")
BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"


def draw_order(rng: Any, letters: str, fixed: str = "") -> dict[str, str]:
    """``{letter in the public text: letter in the student's}``: the options not in ``fixed``
    permuted by the numpy Generator ``rng``, the fixed ones in their place."""
    movable = [x for x in letters if x not in fixed]
    moved = [movable[int(i)] for i in rng.permutation(len(movable))]
    order = {x: x for x in letters}
    order.update(zip(moved, movable, strict=True))  # option moved[j] goes to place movable[j]
    return order


def split_options(source: str) -> tuple[list[str], list[tuple[str, list[str]]], list[str]]:
    """(lines before, ``[(letter, its lines)]``, lines after) of the first list of options of a
    markdown cell; an option goes on over its indented lines."""
    lines = source.split("\n")
    start = next((i for i, line in enumerate(lines) if OPTION_LINE.match(line)), None)
    if start is None:
        return lines, [], []
    options: list[tuple[str, list[str]]] = []
    end = start
    for end in range(start, len(lines) + 1):
        line = lines[end] if end < len(lines) else ""
        found = OPTION_LINE.match(line)
        if found:
            options.append((found[1], [line]))
        elif line.startswith((" ", "\t")) and line.strip():
            options[-1][1].append(line)
        else:
            break
    return lines[:start], options, lines[end:]


def reorder_options(source: str, order: Mapping[str, str], letters: str) -> str:
    """``source`` (a question's markdown) with its options in the order ``order`` gives
    (``{public letter: new letter}``) and lettered again in order. A ValueError when the cell's
    options are not ``letters`` (the key and the text disagree)."""
    before, options, after = split_options(source)
    found = "".join(letter for letter, _ in options)
    if found != letters:
        raise ValueError(f"the text lists the options {found!r}, the key {letters!r}")
    placed = sorted(options, key=lambda option: order[option[0]])
    lines = list(before)
    for new, (_, body) in zip(letters, placed, strict=True):
        lines.append(f"- {new}) " + OPTION_LINE.sub("", body[0], count=1))
        lines += body[1:]
    return "\n".join(lines + after)


def relabel_solution(code: str, answer: str, order: Mapping[str, str]) -> str:
    """A solution cell's code with the one-letter string literals among the options of the
    statements assigning ``answer`` (the variable the cell checks), inside ``# BEGIN
    SOLUTION`` ... ``# END SOLUTION``, relabelled by ``order``: so that the lecturer's
    solution notebook made into a variant still gives the right letter. (Only those
    statements: a letter elsewhere, such as a team "a" of the data, is not an option.) Code
    outside the solution blocks (an exercise's) is left as it is."""
    lines = code.split("\n")
    marks = [i for i, line in enumerate(lines) if line.strip() in (BEGIN, END)]
    for begin, end in zip(marks[::2], marks[1::2], strict=False):
        try:
            tree = ast.parse("\n".join(lines[begin + 1 : end]))
        except SyntaxError:
            continue
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            if any(isinstance(t, ast.Name) and t.id == answer for t in targets):
                for i in range(begin + node.lineno, begin + (node.end_lineno or node.lineno) + 1):
                    lines[i] = LETTER_LITERAL.sub(
                        lambda m: m[1] + order[m[2]] + m[1] if m[2] in order else m[0], lines[i]
                    )
    return "\n".join(lines)


def question_cell(cells: Sequence[Any], qid: str) -> Any | None:
    """The markdown cell of question ``qid``: marked so in its metadata (``coursekit``:
    ``{"role": "question", "qid": ...}``, written by the exercise build), else the one
    starting with ``**qid``."""
    markdown = [c for c in cells if c.cell_type == "markdown"]
    marked = [
        c
        for c in markdown
        if c.get("metadata", {}).get("coursekit", {}).get("role") == "question"
        and c.metadata["coursekit"].get("qid") == qid
    ]
    if marked:
        return marked[0]
    pattern = re.compile(QUESTION_START.format(qid=re.escape(qid)))
    found = [c for c in markdown if pattern.match(c.source)]
    return found[0] if len(found) == 1 else None


def shuffle_options(
    notebook: Any, letters: Mapping[str, str], orders: Mapping[str, Mapping[str, str]]
) -> None:
    """Put the options of each question ``qid`` of ``orders`` (``{qid: {public letter: new
    letter}}``; ``letters``: ``{qid: its options, "abcd"}``) of ``notebook`` in the student's
    order, and relabel the letters of its solution cell, if the notebook has one."""
    for qid, order in orders.items():
        cell = question_cell(notebook.cells, qid)
        if cell is None:
            raise ValueError(f"{qid}: no markdown cell starting with **{qid} to shuffle")
        try:
            cell.source = reorder_options(cell.source, order, letters[qid])
        except ValueError as error:
            raise ValueError(f"{qid}: {error}") from None
        call = re.compile(rf'^check\("{re.escape(qid)}", (\w+)\)', re.M)
        for code in (c for c in notebook.cells if c.cell_type == "code"):
            for answer in call.findall(code.source):
                code.source = relabel_solution(code.source, answer, order)


def options_seed(secret: bytes, chapter: str, student: str) -> int:
    """The seed of the order of ``student``'s options in ``chapter``: an HMAC-SHA256 of the
    secret with a label of its own, so that the data's generator (seeded by
    :func:`~coursekit.grading.variants.seed`) draws what it drew before."""
    message = f"coursekit-options:{chapter}:{student}".encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest(), "big")


def orders_for(
    generator: Any, questions: Sequence[Any], secret: bytes, chapter: str, student: str
) -> dict[str, dict[str, str]]:
    """``{qid: {public letter: student's letter}}`` for every :class:`Choice` of ``questions``,
    in their order; the options the key ``generator`` names in ``FIXED_OPTIONS`` (``{qid:
    letters}``) keep their place."""
    import numpy as np

    fixed = getattr(generator, "FIXED_OPTIONS", {})
    rng = np.random.default_rng(options_seed(secret, chapter, student))
    return {
        q.qid: draw_order(rng, q.options, fixed.get(q.qid, ""))
        for q in questions
        if isinstance(q, Choice)
    }


def relettered(questions: Sequence[Any], orders: Mapping[str, Mapping[str, str]]) -> list[Any]:
    """``questions`` with each choice's expected letter that of its option in ``orders``."""
    return [
        replace(q, expected=orders[q.qid].get(q.expected, q.expected))
        if isinstance(q, Choice) and q.qid in orders
        else q
        for q in questions
    ]
