"""Grade a folder of exercise notebooks: ``python -m coursekit.grade SUBMISSIONS --out OUT``.

Each submission (every ``*.ipynb`` under SUBMISSIONS) is read as a regular file only (no link,
FIFO or device; at most ``--max-notebook-mb``: :mod:`coursekit.grading.intake`), copied to a
temporary folder of its own and run there by nbclient in a fresh kernel inside the grading
sandbox (:mod:`coursekit.grading.sandbox`: bubblewrap; the copy's folder is the only one the
notebook can see and write; the answer keys, SUBMISSIONS, OUT, the other submissions and the
grader's home are not in it) under a per-cell and a whole-notebook time limit, a memory limit
for the whole process tree and a process limit. The submission itself is never modified.
While it runs, each ``check(...)`` call records the student's answer in that folder; the
answers are then judged outside the sandbox, by the grader's code, against the lecturer's key
(``solutions/keys/NN_topic.py``; ``--keys`` to use another folder): values by the same code as
the students' self-check, functions by running them on the key's public and hidden inputs in
another sandbox without coursekit (:mod:`coursekit.grading.judge`) and comparing with
coursekit (:mod:`coursekit.grading.marking`). Nothing the notebook prints or changes in its
kernel or its folder can change how it is judged, and nothing of it outlives its sandbox.
Each submission is read, run and judged in a process of its own (:mod:`.isolation`,
:mod:`.worker`), under its own memory limit: what a kernel sends can grow, block or kill that
process only, and its death is that submission's error.

Without a usable sandbox (no bubblewrap) the grader refuses to run, unless given
``--unsafe-no-sandbox``: then notebooks run with the grader's rights (a warning says so).

Written to OUT:

- ``grades.csv``: one row per submission, one column per question (points), ``total``,
  ``max`` and ``error`` (why the run stopped, or the first error of a cell); a text cell
  that a spreadsheet would take for a formula starts with a single quote;
- ``feedback/<submission>-<hash>.json`` and ``.html``: each question's points and the one-line
  message of the self-check (what is wrong, never the expected value), in the submission's
  language (:func:`.intake.feedback_language`), chosen in its worker for it alone;
- ``stats.csv`` and ``stats.html``: the class's statistics (:mod:`.stats`);
- with ``--roster``: an ``id`` column in grades.csv, ``gradebook.csv`` (a row per student) and
  the feedback again as ``feedback/<id>/<chapter>.html`` (:mod:`.gradebook`);
- ``integrity.csv`` (:mod:`.integrity`), ``answers.json`` (its input, for ``--only``) and
  ``free_text.csv`` (the free-text answers to mark, ``--manual``: :mod:`.freetext`).

Every answer key is checked before the first notebook runs (:mod:`.keycheck`), and so are
``--only`` (:mod:`.regrade`), ``--manual`` and ``--deadline`` (:mod:`.deadline`), in
:mod:`.finish`, which also writes the files once the grades are in.

Running again gives the same files; a ``grades.csv`` that would change is first kept as
``grades.previous-N.csv``. Files of OUT are written whole (a temporary file then a rename), so
an interrupted run leaves the feedback of every submission graded so far, and no temporary
folder (SIGINT and SIGTERM end the run cleanly).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..i18n import N_, speaking
from . import finish, isolation, sandbox
from .config import GraderConfig
from .feedback_lines import not_graded
from .gradebook import owners_of
from .intake import chapter_of, feedback_language, find_submissions, parse_notebook, read_submission
from .integrity import recorded
from .isolation import grade_in_worker, over_budget, worker_env
from .keycheck import check_keys_apart
from .keys import load_keys
from .marking import log_capped, mark, read_answers
from .questions import ANSWER_LOG
from .report import Grade, write_feedback
from .roster import read as read_roster_file
from .sandbox import fs as sandbox_fs
from .variants import Personal, questions_for
from .wording import Fixed, said
from .zygote import Zygote

UNSAFE_WARNING = (
    "WARNING: --unsafe-no-sandbox: the notebooks and the students' functions run with YOUR "
    "rights, not in the sandbox; a submission can read the answer keys and the other "
    "submissions, and change the grades. Use it only for trusted notebooks."
)


ANSWERS = ".coursekit-answers.jsonl"  # in the kernel's folder: a name no notebook writes by chance


class Interrupted(Exception):
    """The run was stopped by SIGTERM (SIGINT gives KeyboardInterrupt)."""


def _config(
    options: GraderConfig | argparse.Namespace, personal: Personal | None
) -> tuple[GraderConfig, Personal | None]:
    """The configuration of ``options`` (a parser's result is converted once) and the
    personal data: ``personal``, or the ``personal`` a caller set on a Namespace."""
    if isinstance(options, argparse.Namespace) and personal is None:
        personal = vars(options).get("personal")
    return GraderConfig.from_args(options), personal


def _not_graded(grade: Grade, keys: Mapping[str, Any], error: str) -> Grade:
    """``grade`` not graded for ``error`` (English: the error column; one of our
    :class:`~.wording.Fixed` texts is said in the feedback's language)."""
    grade.error = error
    if isinstance(error, Fixed) and grade.language != "en":
        with speaking(grade.language):
            grade.error_said = error.said()
    try:  # still show the chapter's questions (and its maximum) when the name tells it
        grade.chapter = grade.chapter or chapter_of({}, grade.submission, keys)
    except ValueError:
        return grade
    grade.questions = {
        q.qid: not_graded(q.qid, q.points, error, grade.language) for q in keys[grade.chapter]
    }
    return grade


async def _grade_in(
    grade: Grade,
    work: Path,
    path: Path,
    name: str,
    keys: Mapping[str, Any],
    config: GraderConfig,
    personal: Personal | None,
) -> Grade:
    from .notebooks import run_limited

    try:
        data = await asyncio.to_thread(read_submission, path, config.max_notebook_mb << 20)
        notebook = await asyncio.to_thread(parse_notebook, data)
        grade.language = feedback_language(notebook, config.lang)
        grade.chapter = chapter_of(notebook, name, keys)
        questions = keys[grade.chapter]
        # personal None: a variant is not graded
        questions, notes = questions_for(personal, notebook, name, grade.chapter, questions)
    except ValueError as error:
        return _not_graded(grade, keys, str(error))
    limits = config.kernel_limits()
    folder = work / isolation.KERNEL_FOLDER  # the kernel's only writable folder
    folder.mkdir(parents=True)
    copy = folder / "submission.ipynb"
    copy.write_bytes(data)
    env = {ANSWER_LOG: str(folder / ANSWERS)}
    # matplotlib's font list, made once per run by grade_folder next to the submissions' folders
    fonts = work.parent / "matplotlib"
    if limits is not None and work.parent.name.startswith("coursekit-grade-") and fonts.is_dir():
        shutil.copytree(fonts, folder / ".matplotlib")
        env["MPLCONFIGDIR"] = str(folder / ".matplotlib")
    grade.error, grade.cell_errors = await run_limited(
        copy,
        env,
        config.cell_timeout,
        config.timeout,
        config.memory,
        limits=limits,
        max_message_mb=config.max_message_mb,
    )
    with speaking(grade.language):  # in this task only: never the next student's
        mismatch = [note for note in notes if note.startswith("id mismatch")]  # English
        grade.notes = [said(note) for note in notes]
        answers, notes = read_answers(folder, ANSWERS, grade.chapter)
        grade.answers = recorded(answers, questions)  # for integrity.csv, not for the feedback
        grade.notes += notes
        truncated = log_capped(notes)
        judge = config.judge_limits()
        await mark(grade, questions, answers, work, config.judge_memory, judge, truncated)
    if not grade.error and grade.cell_errors:
        cell, text = grade.cell_errors[0]
        grade.error = f"cell {cell}: {text}"
    if mismatch:
        error = grade.error
        grade.error = "; ".join(filter(None, [*mismatch, error]))
        if grade.language != "en":
            with speaking(grade.language):
                grade.error_said = "; ".join(filter(None, [*map(said, mismatch), error]))
    return grade


async def grade_one(
    path: Path,
    name: str,
    keys: Mapping[str, Any],
    options: GraderConfig | argparse.Namespace,
    work: Path | None = None,
    personal: Personal | None = None,
) -> Grade:
    """Read, run and judge one submission in ``work`` (a new temporary folder if None),
    within :meth:`.GraderConfig.budget` seconds; never raises for a problem of the
    submission. ``personal``: the graded variants' data (None: a variant is not graded)."""
    config, personal = _config(options, personal)
    work = Path(tempfile.mkdtemp(prefix="coursekit-grade-")) if work is None else work
    grade = Grade(name, language=config.lang or "en")  # the notebook's language once read
    grading = _grade_in(grade, work, path, name, keys, config, personal)
    try:
        return await asyncio.wait_for(grading, config.budget())
    except asyncio.TimeoutError:
        stopped = Grade(name, chapter=grade.chapter, language=grade.language)
        return _not_graded(stopped, keys, over_budget(config.budget()))
    finally:
        remove_tree(work)


async def grade_apart(
    path: Path,
    name: str,
    keys: Mapping[str, Any],
    config: GraderConfig,
    work: Path,
    personal: Personal | None = None,
    zygote: Zygote | None = None,
) -> Grade:
    """:func:`grade_one` in a process of its own (:mod:`.isolation`; forked warm by the run's
    ``zygote`` if given): what a notebook sends can grow, block or kill that process only;
    its death is this submission's error."""
    try:
        chapter = chapter_of({}, name, keys)  # a guess from the name: the key warmed first
    except ValueError:
        chapter = None
    try:
        result = await grade_in_worker(
            path, name, work, config, config.budget(), personal, zygote, chapter
        )
    finally:
        remove_tree(work)
    if isinstance(result, str):
        return _not_graded(Grade(name, language=config.lang or "en"), keys, result)
    return result


def font_cache(folder: Path, config: GraderConfig) -> None:
    """Make matplotlib's font list once, in a sandbox, in ``folder`` (each kernel gets a copy:
    a fresh sandbox would spend seconds of its first plot building it)."""
    if not config.sandboxed:
        return
    folder.mkdir()
    code = "import matplotlib.font_manager"
    limits = sandbox.Limits(memory_mb=1024, processes=config.processes, wall_seconds=120)
    done = sandbox.run_sandboxed(
        [sandbox_fs.PYTHON, "-c", code],
        writable=folder,
        limits=limits,
        env={"MPLCONFIGDIR": str(folder)},
    )
    if done.returncode != 0:
        remove_tree(folder)


def remove_tree(path: Path) -> None:
    """Remove ``path`` and everything in it, whatever modes a notebook gave its files."""
    if not os.path.lexists(path):
        return
    for top, dirs, _files in os.walk(path, followlinks=False):
        for d in dirs:
            full = os.path.join(top, d)
            if not os.path.islink(full):
                try:
                    os.chmod(full, stat.S_IRWXU)
                except OSError:
                    pass
    shutil.rmtree(path, ignore_errors=True)


# --------------------------------------------------------------------------------------------
# A folder


def _refuse_visible(paths: dict[str, Path]) -> None:
    """The answer keys, SUBMISSIONS and OUT must not lie in what the sandbox shows."""
    shown = [*sandbox_fs.python_paths(), sandbox_fs.PACKAGE]
    for what, path in paths.items():
        if sandbox_fs.within(path, shown):
            raise ValueError(
                f"{what} ({path}) lies inside {next(p for p in shown if path.is_relative_to(p))}, "
                "which the sandbox shows to every notebook: move it"
            )


def grade_folder(
    submissions: Path, out: Path, options: GraderConfig | argparse.Namespace
) -> list[Grade]:
    """Grade every notebook under ``submissions``; write grades.csv and the feedback.
    ``options``: the run's configuration, or the parser's result (converted once)."""
    config = GraderConfig.from_args(options)
    submissions, out = Path(submissions).resolve(), Path(out).resolve()
    if not submissions.is_dir():
        raise ValueError(f"{submissions} is not a folder of submissions")
    if out == submissions or submissions in out.parents:
        raise ValueError("the output folder must not be inside the submissions folder")
    keys_dir = config.keys.resolve()
    # every key checked, in a process of its own: a broken one stops the run here, nothing
    # written; the grader then loads only the keys of the chapters it grades
    points = check_keys_apart(keys_dir)
    keys = load_keys(keys_dir)
    if config.sandboxed:
        _refuse_visible({"the answer keys": keys_dir, "SUBMISSIONS": submissions, "OUT": out})
    personal = None  # graded variants: the secret and the roster (never in the config)
    if config.secret_file is not None and config.roster is not None:
        personal = Personal.load(
            config.secret_file,
            config.roster,
            config.variants,
            list(keys),
            keys_dir,  # the keys' generate(rng) first, then --variants
            config.id_from,  # whose a submission is (ownership.IdRule)
        )
    roster = read_roster_file(config.roster) if config.roster is not None else None
    owners = owners_of(roster, personal, config.id_from)  # whose a submission is; None: no roster
    every = find_submissions(submissions)
    # --only, --manual, --deadline checked (and the keys' free-text questions read): the run
    # stops here on a problem, before anything is written
    plan, found = finish.prepare(config, keys_dir, points, roster, owners, every, out)
    top = Path(tempfile.mkdtemp(prefix="coursekit-grade-"))

    async def all_submissions() -> list[Grade]:
        slots = asyncio.Semaphore(config.jobs)
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGTERM, task.cancel)
        except (ValueError, RuntimeError, NotImplementedError):  # not the main thread
            pass

        full: list[str] = []  # why the disk took no more submissions: the rest is not graded

        async def one(index: int, path: Path, name: str) -> Grade:
            async with slots:
                from .sandbox.disk import free_space_problem, space_needed

                need = space_needed(config.disk)
                full.extend([] if full else filter(None, [free_space_problem(top, need)]))
                try:
                    if full:
                        grade = _not_graded(
                            Grade(name, language=config.lang or "en"),
                            keys,
                            Fixed(
                                "not graded: {problem}",
                                shown=N_("not graded: the grader's disk is full"),
                                problem=full[0],
                            ),
                        )
                    else:
                        work = top / f"{index:05d}"
                        grade = await grade_apart(path, name, keys, config, work, personal, zygote)
                except Exception as error:  # noqa: BLE001 - one submission never stops the rest
                    grade = Grade(name, error=f"grader error: {type(error).__name__}: {error}")
            write_feedback(grade, out)
            return grade

        # the run's fork server warms up (imports, keys) while matplotlib's fonts are listed
        zygote = await Zygote.start(keys_dir, worker_env()) if found else None
        await asyncio.to_thread(font_cache, top / "matplotlib", config)
        if zygote is not None and not await zygote.ready():
            zygote = None  # workers start as new Pythons
        jobs = (one(i, path, name) for i, (path, name) in enumerate(found))
        try:
            return list(await asyncio.gather(*jobs))
        except asyncio.CancelledError:
            raise Interrupted("stopped by a signal") from None
        finally:
            if zygote is not None:
                await zygote.close()

    try:
        grades = asyncio.run(all_submissions())
    finally:
        remove_tree(top)
    finish.finish(grades, out, keys, keys_dir, config, plan, roster, personal, owners, every)
    return grades
