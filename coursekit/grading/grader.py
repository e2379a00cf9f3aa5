"""Grade a folder of exercise notebooks: ``python -m coursekit.grade SUBMISSIONS --out OUT``.

Each submission (every ``*.ipynb`` under SUBMISSIONS) is copied to a temporary folder and run
there by nbclient in a fresh kernel (:func:`coursekit.grading.notebooks.run_limited`) under a
per-cell and a whole-notebook time limit and a memory limit. The submission itself is never
modified.
While it runs, each ``check(...)`` call records the student's answer; the answers are then
judged *here*, in the grader's process, against the lecturer's answer key
(``solutions/keys/NN_topic.py``; ``--keys`` to use another folder): values by the same code as
the students' self-check, functions by running them on the key's public and hidden inputs in a
separate limited process (:mod:`coursekit.grading.judge`) and comparing with coursekit. Nothing the
notebook prints or changes in its kernel can change how it is judged.

Written to OUT:

- ``grades.csv``: one row per submission, one column per question (points), ``total``,
  ``max`` and ``error`` (why the run stopped, or the first error of a cell);
- ``feedback/<submission>.json`` and ``.html``: each question's points and the one-line
  message of the self-check (what is wrong, never the expected value).

Running again gives the same files; a ``grades.csv`` that would change is first kept as
``grades.previous-N.csv``. Files of OUT are written whole (a temporary file then a rename), so
an interrupted run leaves the feedback of every submission graded so far.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .build import load_key
from .judging import call_with_copies, compare_outputs, judge_value, reference_function
from .questions import ANSWER_LOG, PASSED, Choice, Function, Value
from .report import Grade, grades_csv, keep_previous, write, write_feedback

HERE = Path(__file__).parent
JUDGE_SECONDS = 2  # per case of a function
MAX_LOG_BYTES = 5 << 20
PYTHON_KERNELS = {"python3", "python", "python3.10", "python3.11", "python3.12", "python3.13"}


def load_keys(keys_dir: Path) -> dict[str, list[Value | Choice | Function]]:
    """Every answer key of ``keys_dir`` by chapter (``01_precision_recall`` ...)."""
    keys = {path.stem: load_key(path) for path in sorted(Path(keys_dir).glob("[0-9][0-9]_*.py"))}
    if not keys:
        raise ValueError(f"no answer key (NN_topic.py) in {keys_dir}; pass --keys")
    return keys


def _chapter(notebook: dict[str, Any], name: str, keys: dict[str, Any]) -> str:
    metadata = notebook.get("metadata")
    own = metadata.get("coursekit") if isinstance(metadata, dict) else None
    chapter = own.get("chapter") if isinstance(own, dict) else None
    if isinstance(chapter, str) and chapter in keys:
        return chapter
    for key in sorted(keys, key=len, reverse=True):
        if key in name or key[:2] == Path(name).name[:2]:
            return key
    raise ValueError(
        "cannot tell which chapter this is (no coursekit chapter in its metadata "
        "and no chapter number at the start of its file name)"
    )


def _read(path: Path) -> dict[str, Any]:
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise ValueError(f"not a notebook: not UTF-8 text ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise ValueError(
            f"not a notebook: invalid JSON at line {error.lineno}, column "
            f"{error.colno} ({error.msg})"
        ) from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError("not a notebook: no list of cells")
    metadata = notebook.get("metadata")
    kernelspec = metadata.get("kernelspec") if isinstance(metadata, dict) else None
    kernelspec = kernelspec if isinstance(kernelspec, dict) else {}
    name = kernelspec.get("name", "python3")
    if name not in PYTHON_KERNELS and kernelspec.get("language") != "python":
        raise ValueError(f"unknown kernel {name!r}: the exercises run on Python 3")
    return notebook


async def _run(copy: Path, work: Path, options: argparse.Namespace) -> tuple[str, list]:
    from .notebooks import run_limited

    env = {ANSWER_LOG: str(work / "answers.jsonl")}
    return await run_limited(copy, env, options.cell_timeout, options.timeout, options.memory)


def _answers(log: Path, chapter: str) -> dict[str, dict[str, Any]]:
    """The last answer recorded for each question (lines that do not parse are skipped)."""
    answers: dict[str, dict[str, Any]] = {}
    if not log.exists():
        return answers
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read(MAX_LOG_BYTES)
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("chapter") == chapter and "qid" in entry:
            answers[str(entry["qid"])] = entry
    return answers


async def _judge_functions(
    pending: list[tuple[Function, dict[str, Any]]], work: Path, options: argparse.Namespace
) -> dict[str, list[Any]]:
    if not pending:
        return {}
    request = {
        "memory_mb": options.judge_memory,
        "seconds": JUDGE_SECONDS,
        "functions": [
            {
                "qid": q.qid,
                "name": entry.get("name", q.name),
                "source": str(entry["source"]),
                "cases": [[label, list(args)] for label, args in [*q.cases, *q.hidden]],
            }
            for q, entry in pending
        ],
    }
    (work / "judge-in.json").write_text(json.dumps(request), encoding="utf-8")
    out = work / "judge-out.json"
    limit = JUDGE_SECONDS * sum(len(f["cases"]) for f in request["functions"]) + 20
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-I",
        str(HERE / "judge.py"),
        str(work / "judge-in.json"),
        str(out),
        cwd=work,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        await asyncio.wait_for(process.wait(), limit)
        results = json.loads(out.read_text(encoding="utf-8"))
    except (asyncio.TimeoutError, OSError, ValueError):
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
        results = {}
    return {
        q.qid: results.get(q.qid)
        or ["raised RuntimeError: the function could not be run"] * (len(q.cases) + len(q.hidden))
        for q, _ in pending
    }


async def _judge(
    grade: Grade,
    questions: Sequence[Value | Choice | Function],
    answers: dict[str, dict[str, Any]],
    work: Path,
    options: argparse.Namespace,
) -> None:
    pending = []
    for q in questions:
        entry = answers.get(q.qid)
        record = {"points": 0.0, "max": float(q.points), "message": f"{q.qid}: not answered"}
        grade.questions[q.qid] = record
        if entry is None:
            continue
        if "unreadable" in entry:
            record["message"] = f"{q.qid}: the answer could not be read ({entry['unreadable']})"
        elif isinstance(q, Function):
            if "source" not in entry:
                record["message"] = f"{q.qid}: expected the function {q.name} itself"
            elif entry.get("uses_coursekit"):
                record["message"] = (
                    f"{q.qid}: write it without coursekit (it uses {entry['uses_coursekit']})"
                )
            else:
                pending.append((q, entry))
        else:
            record["message"] = judge_value(q.public(grade.chapter), entry.get("value"))
    outputs = await _judge_functions(pending, work, options)
    for q, _ in pending:
        reference = reference_function(q.reference)
        cases = [*q.cases, *[(f"hidden: {label}", args) for label, args in q.hidden]]
        results = [
            (label, got, call_with_copies(reference, args))
            for (label, args), got in zip(cases, outputs[q.qid], strict=False)
        ]
        grade.questions[q.qid]["message"] = compare_outputs(q.qid, results)
    for record in grade.questions.values():
        if record["message"].endswith(f": {PASSED}"):
            record["points"] = record["max"]


async def grade_one(
    path: Path, name: str, keys: dict[str, Any], options: argparse.Namespace
) -> Grade:
    """Run and judge one submission (never raises for a problem of the submission)."""
    grade = Grade(name)
    try:
        notebook = _read(path)
        grade.chapter = _chapter(notebook, name, keys)
    except ValueError as error:
        grade.error = str(error)
        try:  # still show the chapter's questions (and its maximum) when the name tells it
            grade.chapter = _chapter({}, name, keys)
        except ValueError:
            return grade
        for q in keys[grade.chapter]:
            grade.questions[q.qid] = {
                "points": 0.0,
                "max": float(q.points),
                "message": f"{q.qid}: not graded ({error})",
            }
        return grade
    with tempfile.TemporaryDirectory(prefix="coursekit-grade-") as tmp:
        work = Path(tmp)
        (work / "notebook").mkdir()
        copy = work / "notebook" / "submission.ipynb"
        shutil.copyfile(path, copy)
        grade.error, grade.cell_errors = await _run(copy, work, options)
        await _judge(
            grade,
            keys[grade.chapter],
            _answers(work / "answers.jsonl", grade.chapter),
            work,
            options,
        )
    if not grade.error and grade.cell_errors:
        cell, text = grade.cell_errors[0]
        grade.error = f"cell {cell}: {text}"
    return grade


# --------------------------------------------------------------------------------------------
# Output


def grade_folder(submissions: Path, out: Path, options: argparse.Namespace) -> list[Grade]:
    """Grade every notebook under ``submissions``; write grades.csv and the feedback."""
    submissions, out = Path(submissions).resolve(), Path(out).resolve()
    if not submissions.is_dir():
        raise ValueError(f"{submissions} is not a folder of submissions")
    if out == submissions or submissions in out.parents:
        raise ValueError("the output folder must not be inside the submissions folder")
    keys = load_keys(Path(options.keys))
    paths = sorted(p for p in submissions.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    names = [str(p.relative_to(submissions).with_suffix("")) for p in paths]

    async def all_submissions() -> list[Grade]:
        slots = asyncio.Semaphore(max(1, options.jobs))

        async def one(path: Path, name: str) -> Grade:
            async with slots:
                try:
                    grade = await grade_one(path, name, keys, options)
                except Exception as error:  # noqa: BLE001 - one submission never stops the rest
                    grade = Grade(name, error=f"grader error: {type(error).__name__}: {error}")
            write_feedback(grade, out)
            return grade

        return list(await asyncio.gather(*(one(p, n) for p, n in zip(paths, names, strict=True))))

    grades = asyncio.run(all_submissions())
    text = grades_csv(grades, keys)
    keep_previous(out / "grades.csv", text)
    write(out / "grades.csv", text)
    return grades


def _default_keys() -> str:
    return str(Path.cwd() / "solutions" / "keys")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m coursekit.grade", description=__doc__.split("\n")[0]
    )
    p.add_argument("submissions", help="folder of submitted .ipynb files (searched recursively)")
    p.add_argument("--out", required=True, help="folder for grades.csv and feedback/")
    p.add_argument("--jobs", type=int, default=1, help="submissions run at once (default 1)")
    p.add_argument(
        "--timeout", type=int, default=120, help="seconds for a whole notebook (default 120)"
    )
    p.add_argument("--cell-timeout", type=int, default=30, help="seconds for one cell (default 30)")
    p.add_argument(
        "--memory",
        type=int,
        default=2048,
        help="memory limit of a notebook's kernel in MB (default 2048)",
    )
    p.add_argument("--judge-memory", type=int, default=1024, help=argparse.SUPPRESS)
    p.add_argument(
        "--keys",
        default=_default_keys(),
        help="folder of answer keys NN_topic.py (default: solutions/keys)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    options = parser().parse_args(argv)
    try:
        grades = grade_folder(Path(options.submissions), Path(options.out), options)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for g in grades:
        suffix = f"  ({g.error})" if g.error else ""
        print(f"{g.total:5g} / {g.max:<4g} {g.submission}{suffix}")
    print(f"{len(grades)} submissions graded; see {Path(options.out) / 'grades.csv'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
