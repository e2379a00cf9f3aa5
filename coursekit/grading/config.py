"""The batch grader's configuration: every limit, path and mode of a run, in one frozen object.

:class:`GraderConfig` is built once from the command line (:meth:`GraderConfig.from_args`, the
result of :func:`coursekit.grading.grade_cli.parser`), every field checked there, with the
option's name in the message. The rest of the grader reads it and nothing else: the kernel's
sandbox limits (:meth:`~GraderConfig.kernel_limits`), the judge's
(:meth:`~GraderConfig.judge_limits`), the worker's request (it pickles), and the options a
container's grader is given (:meth:`~GraderConfig.container_options`, derived from the fields
whose ``kind`` is ``"limit"``). A new limit is then one field here, one option in the parser,
and where it is used.

The personal data of graded variants (:class:`.variants.Personal`: the secret, the roster) is
not in it: it is made from ``secret_file`` and ``roster`` when a run starts and passed beside.
``roster`` alone (practice notebooks, no variants) gives the gradebook (:mod:`.gradebook`);
``secret_file`` needs it.
"""

from __future__ import annotations

import argparse
import dataclasses
import numbers
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import LANGUAGES
from ..validation import check_bool, check_positive_int, check_scalar
from . import deadline, regrade, sandbox
from .intake import MAX_NOTEBOOK_MB
from .kernel_channels import MAX_MESSAGE_MB
from .sandbox import disk as sandbox_disk

ENGINES = ("docker", "podman")  # the container engines of --container

# The least --memory a kernel can run in. An ipykernel in the sandbox running chapter 01's
# solution peaks at 725 MB of address space (VmPeak, which RLIMIT_AS limits; 58 MB resident);
# with --memory 640 it dies before it listens on its sockets, with 768 it scores full marks
# (measured). Other chapters need more: up to 2023 MB of address space (chapter 03).
MIN_MEMORY_MB = 768
WALL_MARGIN_SECONDS = 15  # a kernel's sandbox lives --timeout and this, then it is killed
JUDGE_SECONDS = 60.0  # the judge's wall time until marking sets it from its number of cases


def _limit(default: int) -> Any:
    return field(default=default, metadata={"kind": "limit"})


def _path(default: Any = None) -> Any:
    if callable(default):  # a folder every run has
        return field(default_factory=default, metadata={"kind": "path", "optional": False})
    return field(default=default, metadata={"kind": "path", "optional": True})


def _mode(default: Any) -> Any:
    return field(default=default, metadata={"kind": "mode"})


def _default_keys() -> Path:
    return Path.cwd() / "solutions" / "keys"


def _default_variants() -> Path:
    return Path.cwd() / "solutions" / "variants"


def option(name: str) -> str:
    """The command-line option of a field: ``cell_timeout`` -> ``--cell-timeout``."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class GraderConfig:
    """Limits (MB, seconds, counts), paths and modes of one grading run (see the module)."""

    jobs: int = _limit(1)  # submissions graded at once
    timeout: int = _limit(120)  # seconds for a whole notebook
    cell_timeout: int = _limit(30)  # seconds for one cell
    memory: int = _limit(2048)  # MB for a kernel and what it starts
    processes: int = _limit(64)  # processes and threads of a kernel (and of a judge)
    disk: int = _limit(sandbox_disk.DEFAULT_MB)  # MB a kernel or a judge writes in its folder
    max_notebook_mb: int = _limit(MAX_NOTEBOOK_MB)  # larger submissions are refused
    submission_timeout: int = _limit(0)  # seconds for one submission; 0: timeout + 120
    max_message_mb: int = _limit(MAX_MESSAGE_MB)  # largest frame taken from a kernel
    judge_memory: int = _limit(1024)  # MB for a judge of the students' functions
    keys: Path = _path(_default_keys)
    variants: Path = _path(_default_variants)
    secret_file: Path | None = _path()
    roster: Path | None = _path()
    id_from: str | None = _mode(None)  # whose a submission is (.ownership.IdRule)
    unsafe_no_sandbox: bool = _mode(False)
    container: str | None = _mode(None)  # docker or podman: the grader runs in it
    only: str | None = _mode(None)  # ID[,ID...]: regrade these students, merged into OUT
    manual: Path | None = _path()  # the lecturer's marks of the free-text answers
    deadline: str | None = _mode(None)  # ISO 8601 (.deadline)
    times: Path | None = _path()  # the submissions' times (an LMS export)
    late_penalty: str | None = _mode(None)  # P/day
    late_cap: float | None = _mode(None)  # the total of a late submission capped at C
    lang: str | None = _mode(None)  # the feedback's language for all; None: each notebook's

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            kind, value = f.metadata["kind"], getattr(self, f.name)
            if f.name == "submission_timeout":
                check_scalar(value, option(f.name), numbers.Integral, what="seconds", min_val=0)
            elif kind == "limit":
                check_positive_int(value, option(f.name))
            elif kind == "path" and (value is not None or not f.metadata["optional"]):
                if not isinstance(value, (str, Path)) or str(value) == "":
                    raise TypeError(f"{option(f.name)} must be a path, got {value!r}")
                object.__setattr__(self, f.name, Path(value))
        if self.memory < MIN_MEMORY_MB:
            raise ValueError(
                f"--memory {self.memory} is below what a notebook's kernel needs to start and "
                f"run: at least {MIN_MEMORY_MB} MB (2048 for every chapter)"
            )
        check_bool(self.unsafe_no_sandbox, "--unsafe-no-sandbox")
        if self.id_from is not None and not isinstance(self.id_from, str):
            raise TypeError(f"--id-from must be a rule (text), got {self.id_from!r}")
        if self.container is not None and self.container not in ENGINES:
            raise ValueError(
                f"--container must be one of {', '.join(ENGINES)}, not {self.container!r}"
            )
        if self.lang is not None and self.lang not in LANGUAGES:
            raise ValueError(f"--lang must be one of {', '.join(LANGUAGES)}, not {self.lang!r}")
        self._check_together()
        deadline.check_options(self.deadline, self.times, self.late_penalty, self.late_cap)
        regrade.only_ids(self.only, self.roster)
        given = [o for o in ("only", "manual", "deadline", "lang") if getattr(self, o) is not None]
        if self.container and given:
            raise ValueError(f"{option(given[0])} is not passed into a container: grade without it")

    def _check_together(self) -> None:
        """Options that need, or exclude, another."""
        if self.secret_file is not None and self.roster is None:
            raise ValueError(
                "--secret-file and --roster go together (graded variants): give --roster"
            )
        if self.id_from and self.roster is None:
            raise ValueError("--id-from says whose a submission is on the roster: give --roster")
        if self.container and self.unsafe_no_sandbox:
            raise ValueError("--container and --unsafe-no-sandbox exclude each other")
        if self.container and self.id_from not in (None, "folder"):
            raise ValueError(
                "--id-from is not passed into a container: lay the submissions out as "
                "SUBMISSIONS/<id>/... (the default rule), or grade without --container"
            )

    @classmethod
    def from_args(cls, options: argparse.Namespace | GraderConfig) -> GraderConfig:
        """The configuration of the parser's result ``options`` (a field it lacks keeps its
        default; what is not a field, such as ``submissions`` or ``out``, is ignored); a
        GraderConfig is returned as it is. A ValueError or TypeError names a bad option."""
        if isinstance(options, cls):
            return options
        if not isinstance(options, argparse.Namespace):
            raise TypeError(
                f"options must be an argparse.Namespace or a GraderConfig, "
                f"got {type(options).__name__}"
            )
        given = vars(options)
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{name: value for name, value in given.items() if name in names})

    @classmethod
    def limit_names(cls) -> tuple[str, ...]:
        """The numeric options (MB, seconds, counts), in the order of the fields."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.metadata["kind"] == "limit")

    @property
    def sandboxed(self) -> bool:
        """Whether notebooks and judges run in the sandbox (not ``--unsafe-no-sandbox``)."""
        return not self.unsafe_no_sandbox

    def kernel_limits(self) -> sandbox.Limits | None:
        """The sandbox limits of a notebook's kernel; None with ``--unsafe-no-sandbox``."""
        if self.unsafe_no_sandbox:
            return None
        return sandbox.Limits(
            memory_mb=self.memory,
            processes=self.processes,
            wall_seconds=self.timeout + WALL_MARGIN_SECONDS,
            disk_mb=self.disk,
        )

    def judge_limits(self) -> sandbox.Limits | None:
        """The sandbox limits of a judge of the students' functions (its wall time,
        :data:`JUDGE_SECONDS` here, is set by marking from its cases); None with
        ``--unsafe-no-sandbox``."""
        if self.unsafe_no_sandbox:
            return None
        return sandbox.Limits(
            memory_mb=self.judge_memory,
            processes=self.processes,
            wall_seconds=JUDGE_SECONDS,
            disk_mb=self.disk,
        )

    def budget(self) -> float:
        """Seconds for one submission: reading, running and judging."""
        return float(self.submission_timeout or self.timeout + 120)

    def container_options(self) -> dict[str, int]:
        """The numeric options given as they are to the grader in a container: every
        ``limit`` field (``submission_timeout`` only when set)."""
        plain = {name: getattr(self, name) for name in self.limit_names()}
        if not plain["submission_timeout"]:
            del plain["submission_timeout"]
        return plain
