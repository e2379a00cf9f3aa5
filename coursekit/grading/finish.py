"""A run's start and end around the grading itself: what is checked before the first notebook
runs (:func:`prepare`) and what is written once every submission is graded (:func:`finish`).

Before: every answer key (:mod:`.keycheck`), ``--only`` (:mod:`.regrade`), ``--manual``
(:mod:`.freetext`), ``--deadline`` and ``--times`` (:mod:`.deadline`): a problem stops the run
before anything is written in OUT. After: duplicates flagged, owners set, the manual marks and
the late rule applied, then grades.csv, integrity.csv, stats, the gradebook, answers.json and
free_text.csv written (with ``--only``, from the earlier run's grades and the new ones).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import deadline, freetext, regrade
from .config import GraderConfig
from .gradebook import assign_owners, kept, modification_times, write_results
from .integrity import write_report
from .ownership import flag_duplicates
from .report import Grade, grades_csv, keep_previous, write, write_feedback
from .roster import Roster


@dataclass
class Plan:
    """What a run was told beyond grading, checked (see the module)."""

    chapters: dict[str, freetext.Chapter]  # every chapter's free-text questions
    only: list[str] | None = None
    late: deadline.LateRule | None = None
    marks: freetext.Marks = field(default_factory=dict)
    previous: list[Grade] = field(default_factory=list)  # with --only: the earlier run's


def _owner(owners: Any, name: str) -> str:
    try:
        return owners.owner(name) if owners is not None else ""
    except ValueError:
        return ""


def prepare(
    config: GraderConfig,
    keys_dir: Path,
    points: Mapping[str, Mapping[str, float]],
    roster: Roster | None,
    owners: Any,
    found: Sequence[tuple[Path, str]],
    out: Path,
) -> tuple[Plan, list[tuple[Path, str]]]:
    """The run's :class:`Plan` and the submissions to grade (all, or ``--only``'s), every
    option checked (``points``: the keys' free-text points, from
    :func:`.keycheck.check_keys_apart`); a ValueError (file:line, or the option) before
    anything is written."""
    plan = Plan(freetext.chapters_of(keys_dir, points))
    ids = list(roster.ids) if roster is not None else None
    plan.only = regrade.only_ids(config.only, config.roster)
    selected = list(found)
    if plan.only is not None and ids is not None:
        regrade.check_on_roster(plan.only, ids, out)
        plan.previous = regrade.previous_grades(out)
        selected = [(p, n) for p, n in found if _owner(owners, n) in plan.only]
    plan.late = deadline.late_rule(
        config.deadline, config.late_penalty, config.late_cap, config.times, ids
    )
    if config.manual is not None:
        students = ids if ids is not None else [name for _, name in found]
        plan.marks = freetext.read_marks(config.manual, plan.chapters, students, ids is not None)
    return plan, selected


def _free_text(
    plan: Plan,
    grades: Sequence[Grade],
    out: Path,
    roster: Roster | None,
    found: Sequence[tuple[Path, str]],
    cap: int,
) -> None:
    paths = {name: path for path, name in found}
    chosen = list(kept(grades, modification_times(found)).values()) if roster else grades
    rows = freetext.free_text_rows(chosen, plan.chapters, paths, cap)
    target = Path(out) / "free_text.csv"
    if plan.only is not None and target.is_file():
        rows = regrade.merged_rows(target.read_text(encoding="utf-8"), rows, plan.only)
    write(target, freetext.free_text_csv(sorted(rows, key=lambda row: row[:4])))


def finish(
    grades: list[Grade],
    out: Path,
    keys: Mapping[str, Any],
    keys_dir: Path,
    config: GraderConfig,
    plan: Plan,
    roster: Roster | None,
    personal: Any,
    owners: Any,
    found: Sequence[tuple[Path, str]],
) -> list[Grade]:
    """Write what a run writes once its ``grades`` are in (see the module); every grade of
    OUT (with ``--only``, the earlier ones too)."""
    for flagged in flag_duplicates(grades, found, owners):
        write_feedback(flagged, out)  # "2 submissions for <id>, ch NN": in both rows
    assign_owners(grades, owners)  # grades.csv's id column
    freetext.apply_marks(plan.marks, grades, roster is not None)
    deadline.apply_all(plan.late, grades, {name: path for path, name in found})
    for grade in grades:  # again: with its owner (what --only reads back), marks, lateness
        write_feedback(grade, out)
    every = regrade.merged(plan.previous, grades, plan.only) if plan.only is not None else grades
    late = plan.late is not None or any(g.late for g in every)
    text = grades_csv(every, keys, late=late)
    keep_previous(out / "grades.csv", text)
    write(out / "grades.csv", text)
    write_report(every, out, keys, personal, keys_dir)  # copies
    write_results(every, out, roster, found)  # stats; with a roster the gradebook
    write(out / regrade.ANSWERS_FILE, regrade.answers_json(every))
    _free_text(plan, grades, out, roster, found, config.max_notebook_mb << 20)
    return every
