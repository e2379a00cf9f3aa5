"""Deadlines: when each submission was handed in, and what lateness costs.

``--deadline 2026-12-15T23:59`` (ISO 8601; local time unless an offset such as ``+01:00`` or
``Z`` is given) turns this on; without it nothing of this module is used. A submission's time
is its row of ``--times FILE.csv`` (an LMS export), else its file's modification time; which
one is said in its row. ``FILE.csv`` has a header naming

- an ``id`` column (also ``student_id``, ``ID number``, ``username``, ``email``: the roster's
  id columns; the time applies to every submission of that student in the run) and/or a
  ``submission`` column (also ``path``, ``file``: the submission's path under SUBMISSIONS or
  its file name, with or without ``.ipynb``; it wins over the id);
- a ``time`` column (also ``submitted``, ``submission time``, ``timestamp``, ``last
  modified``), each cell one of: ISO 8601 (``2026-12-15T23:59``, ``2026-12-15 23:59:30``,
  ``2026-12-15T22:59Z``, ``2026-12-15T23:59+01:00``), Unix time in seconds (``1797375540``),
  or Moodle's ``Tuesday, 15 December 2026, 11:59 PM``; without an offset, local time.

``,``, ``;`` or tab between cells, UTF-8 (a byte order mark allowed). Every problem is a
ValueError naming ``file:line``.

The late rule, at most one (without one, lateness is said but costs nothing):
``--late-penalty P/day`` takes P points off the total per started day after the deadline (not
below 0), ``--late-cap C`` caps the total of a late submission at C. The rule and the lateness
("2 days late (...): -2 points (1/day)") are in grades.csv's ``late`` column and the
gradebook's notes, in English, and in the feedback, in its language (:meth:`LateRule.apply`).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePath

from ..i18n import N_, speaking
from .report import Grade
from .roster import ID_HEADERS, normal_header, table_rows
from .wording import _

ON_TIME = "on time"  # how grades.csv's ``late`` column says it (English)
FILE_TIME, NO_TIME = N_("file time"), N_("no time")  # where a submission's time comes from
DAY_SECONDS = 86_400
SUBMISSION_HEADERS = ("submission", "path", "file", "filename", "file name")
TIME_HEADERS = ("time", "submitted", "submission time", "timestamp", "last modified", "date")
MOODLE = "%A, %d %B %Y, %I:%M %p"
PENALTY = re.compile(r"\s*(\d+(?:\.\d+)?)\s*/\s*day\s*")


def parse_time(text: str, where: str) -> datetime:
    """The moment ``text`` names (see the module's formats), with its time zone (local when
    it has none); a ValueError starting with ``where``."""
    text = str(text).strip()
    if re.fullmatch(r"\d{9,11}(\.\d+)?", text):
        return datetime.fromtimestamp(float(text), tz=timezone.utc)
    iso = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        try:
            moment = datetime.strptime(text, MOODLE)
        except ValueError:
            raise ValueError(
                f"{where}: {text[:40]!r} is not a time (ISO 8601 such as 2026-12-15T23:59, "
                "Unix seconds, or 'Tuesday, 15 December 2026, 11:59 PM')"
            ) from None
    else:
        if not re.search(r"\d[T ]\d", iso):
            raise ValueError(f"{where}: {text[:40]!r} has no time of day (2026-12-15T23:59)")
    return moment if moment.tzinfo is not None else moment.astimezone()


def parse_penalty(text: str) -> float:
    """The points of ``--late-penalty P/day``."""
    found = PENALTY.fullmatch(str(text))
    if found is None:
        raise ValueError(f"--late-penalty {text!r}: write points per started day as P/day (1/day)")
    return float(found[1])


def check_options(
    deadline: str | None, times: object, penalty: str | None, cap: float | None
) -> None:
    """Refuse a bad ``--deadline``, ``--late-penalty`` or ``--late-cap``, or one given
    without what it needs (the option named)."""
    if deadline is None:
        for given, name in ((times, "--times"), (penalty, "--late-penalty"), (cap, "--late-cap")):
            if given is not None:
                raise ValueError(f"{name} needs --deadline")
        return
    parse_time(deadline, "--deadline")
    if penalty is not None:
        parse_penalty(penalty)
    if cap is not None and (
        isinstance(cap, bool) or not isinstance(cap, (int, float)) or not math.isfinite(cap)
    ):
        raise ValueError(f"--late-cap must be a number of points, got {cap!r}")
    if cap is not None and cap < 0:
        raise ValueError(f"--late-cap must be 0 or more points, got {cap:g}")
    if penalty is not None and cap is not None:
        raise ValueError("--late-penalty and --late-cap exclude each other: choose one rule")


def _key(text: str) -> str:
    key = PurePath(text.strip().replace("\\", "/")).as_posix()
    return key[: -len(".ipynb")] if key.endswith(".ipynb") else key


def _column(header: list[str], names: Sequence[str]) -> int | None:
    normal = [normal_header(cell) for cell in header]
    return next((normal.index(n) for n in names if n in normal), None)


def _at(cells: list[str], index: int | None) -> str:
    return cells[index] if index is not None and index < len(cells) else ""


@dataclass(frozen=True)
class Times:
    """The times of ``--times``: by student id and by submission (path or file name)."""

    source: str
    by_id: Mapping[str, datetime]
    by_submission: Mapping[str, datetime]

    def of(self, name: str, owner: str) -> datetime | None:
        """The time of the submission ``name`` (of student ``owner``), or None."""
        for key in (name, PurePath(name).name):
            if key in self.by_submission:
                return self.by_submission[key]
        return self.by_id.get(owner) if owner else None


def read_times(path: Path, roster_ids: Sequence[str] | None) -> Times:
    """The times of the CSV ``path`` (see the module); an id not on the roster is refused."""
    path = Path(path)
    rows = table_rows(path)
    if not rows:
        raise ValueError(f"{path}: an empty file")
    line, header = rows[0]
    sid, sub, when = (_column(header, n) for n in (ID_HEADERS, SUBMISSION_HEADERS, TIME_HEADERS))
    if when is None or (sid is None and sub is None):
        raise ValueError(
            f"{path}:{line}: needs a time column ({', '.join(TIME_HEADERS)}) and an id or "
            f"submission column; found {', '.join(map(repr, header))}"
        )
    by_id: dict[str, datetime] = {}
    by_sub: dict[str, datetime] = {}
    for line, cells in rows[1:]:
        moment = parse_time(_at(cells, when), f"{path}:{line}")
        if _at(cells, sub):
            table, key = by_sub, _key(_at(cells, sub))
        elif _at(cells, sid):
            table, key = by_id, _at(cells, sid)
            if roster_ids is not None and key not in roster_ids:
                raise ValueError(f"{path}:{line}: {key[:64]!r} is not an id of the roster")
        else:
            raise ValueError(f"{path}:{line}: no student id or submission")
        if key in table:
            raise ValueError(f"{path}:{line}: {key[:64]!r} has a time already")
        table[key] = moment
    return Times(path.name, by_id, by_sub)


@dataclass(frozen=True)
class LateRule:
    """A run's deadline and late rule (see the module)."""

    deadline: datetime
    penalty: float | None = None
    cap: float | None = None
    times: Times | None = None

    def rule(self) -> str:
        if self.penalty is not None:
            return _("{penalty:g}/day").format(penalty=self.penalty)
        if self.cap is not None:
            return _("late cap {cap:g}").format(cap=self.cap)
        return _("no late rule")

    def handed_in(self, path: Path | None, name: str, owner: str) -> tuple[datetime | None, str]:
        """The submission's time and where it comes from (:data:`FILE_TIME`, :data:`NO_TIME`
        or the ``--times`` file's name)."""
        found = self.times.of(name, owner) if self.times is not None else None
        if found is not None:
            return found, self.times.source  # type: ignore[union-attr]
        try:
            stamp = os.lstat(path).st_mtime if path is not None else None
        except OSError:
            stamp = None
        if stamp is None:
            return None, NO_TIME
        return datetime.fromtimestamp(stamp, tz=timezone.utc).astimezone(), FILE_TIME

    def apply(self, grade: Grade, path: Path | None) -> None:
        """Set ``grade.late`` (English: grades.csv's column), ``grade.late_said`` (the same in
        the feedback's language, when it is not English) and ``grade.deduction`` (its
        questions' points are final)."""
        moment, source = self.handed_in(path, grade.submission, grade.owner)
        grade.deduction, days = 0.0, 0
        if moment is not None and (seconds := (moment - self.deadline).total_seconds()) > 0:
            days = math.ceil(seconds / DAY_SECONDS)
            earned = grade.total
            if self.penalty is not None:
                grade.deduction = round(min(max(earned, 0.0), self.penalty * days), 2)
            elif self.cap is not None:
                grade.deduction = round(max(0.0, earned - self.cap), 2)
        with speaking("en"):
            grade.late = self._lateness(moment, source, days)
        grade.late_said = ""
        if grade.language != "en":
            with speaking(grade.language):
                grade.late_said = self._lateness(moment, source, days)

    def _lateness(self, moment: datetime | None, source: str, days: int) -> str:
        """What is said of a submission handed in at ``moment``, ``days`` started days late
        (0: on time), in the language in use."""
        source = _(source) if source in (NO_TIME, FILE_TIME) else source
        if moment is None:
            return _("time unknown ({source}): no late rule applied").format(source=source)
        said = _("submitted {moment}, {source}").format(
            moment=moment.isoformat(timespec="minutes"), source=source
        )
        if days <= 0:
            return _("on time ({said})").format(said=said)
        late = _("{days} day late ({said})") if days == 1 else _("{days} days late ({said})")
        late = late.format(days=days, said=said)
        if self.penalty is not None:
            taken = self.penalty * days
            return _("{late}: -{taken:g} points ({rule})").format(
                late=late, taken=taken, rule=self.rule()
            )
        if self.cap is not None:
            return _("{late}: total capped at {cap:g} (late cap)").format(late=late, cap=self.cap)
        return late


def late_rule(
    deadline: str | None,
    penalty: str | None,
    cap: float | None,
    times: Path | None,
    roster_ids: Sequence[str] | None,
) -> LateRule | None:
    """The run's :class:`LateRule` (None without ``--deadline``); ``--times`` read now."""
    if deadline is None:
        return None
    return LateRule(
        parse_time(deadline, "--deadline"),
        parse_penalty(penalty) if penalty is not None else None,
        cap,
        read_times(times, roster_ids) if times is not None else None,
    )


def apply_all(rule: LateRule | None, grades: Sequence[Grade], paths: Mapping[str, Path]) -> None:
    """:meth:`LateRule.apply` to each graded submission (nothing without a rule)."""
    if rule is None:
        return
    for grade in grades:
        if grade.chapter:
            rule.apply(grade, paths.get(grade.submission))
