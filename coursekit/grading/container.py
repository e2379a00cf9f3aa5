"""Grading where bubblewrap cannot run (macOS, Windows): the grader inside a Linux container.

The sandbox (:mod:`coursekit.grading.sandbox`) needs Linux user namespaces. Elsewhere, Docker
or Podman runs a Linux machine anyway: ``python -m coursekit.grade SUBS --out OUT --container
docker`` runs the same grader, with the same bubblewrap sandbox and the same limits, inside the
image built from the course's ``Containerfile``. The container itself adds a second wall:

* no network (``--network none``), a read-only root, a size-limited ``/tmp``;
* SUBMISSIONS, the answer keys, the secret and the roster mounted **read-only**, OUT the only
  folder of the host it can write, under the lecturer's own uid (``--user`` with Docker,
  ``--userns keep-id`` with Podman), so the files it writes belong to the lecturer;
* a memory and process limit for the whole grader (``--memory``, ``--pids-limit``), on top of
  each sandbox's own limits;
* the seccomp and AppArmor profiles that forbid user namespaces inside a container relaxed
  (``--security-opt seccomp=unconfined``, ``apparmor=unconfined``): bubblewrap needs them, and
  it is bubblewrap, not the container, that confines each notebook.

Build the image once from the course's folder: ``docker build -t coursekit-grader -f
Containerfile .`` (or ``podman build``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .config import ENGINES, GraderConfig

IMAGE = "coursekit-grader"
INSIDE = Path("/grading")
#: options of the grader given to the container's grader as they are (no path in them): every
#: numeric field of the configuration (:meth:`.GraderConfig.container_options`)
PLAIN_OPTIONS = GraderConfig.limit_names()


def available(engine: str) -> str | None:
    """The path of ``engine`` ("docker" or "podman") if it is installed, else None."""
    if engine not in ENGINES:
        raise ValueError(f"--container must be one of {', '.join(ENGINES)}, not {engine!r}")
    return shutil.which(engine)


def command(
    engine: str,
    submissions: Path,
    out: Path,
    keys: Path,
    options: dict[str, int],
    *,
    secret_file: Path | None = None,
    roster: Path | None = None,
    image: str = IMAGE,
) -> list[str]:
    """The command line running the grader in a container (see the module's docstring).

    ``options`` are the grader's numeric options (:data:`PLAIN_OPTIONS`), passed on as they are.

    >>> cmd = command("docker", Path("/s"), Path("/o"), Path("/k"), {"jobs": 2}, image="img")
    >>> cmd[:3], "--network" in cmd, cmd[cmd.index("--network") + 1]
    (['docker', 'run', '--rm'], True, 'none')
    >>> for spec in (a for a in cmd if a.startswith("type=bind")):
    ...     print(spec)
    type=bind,source=/s,target=/grading/submissions,readonly
    type=bind,source=/k,target=/grading/keys,readonly
    type=bind,source=/o,target=/grading/out
    >>> " ".join(cmd[cmd.index("img") :])
    'img /grading/submissions --out /grading/out --keys /grading/keys --jobs 2'
    """
    if engine not in ENGINES:
        raise ValueError(f"--container must be one of {', '.join(ENGINES)}, not {engine!r}")
    unknown = set(options) - set(PLAIN_OPTIONS)
    if unknown:
        raise ValueError(f"options not passed to a container: {', '.join(sorted(unknown))}")
    jobs = max(1, options.get("jobs", 1))
    tmp_mb = options.get("disk", 256) * jobs + 512  # the submissions' folders live in /tmp
    # each job: the kernel's limit, and its grading worker (about 210 MB resident, measured);
    # and /tmp, a tmpfs, whose files are memory. No cgroup holds a notebook's total in a
    # container: its sandboxes are the out-of-memory killer's first choice, the grader its last
    memory_mb = (options.get("memory", 2048) + 256) * jobs + 1024 + tmp_mb
    run = [engine, "run", "--rm", "--network", "none", "--read-only", "--env", "HOME=/tmp"]
    run += ["--tmpfs", f"/tmp:rw,exec,size={tmp_mb}m", "--memory", f"{memory_mb}m"]
    run += ["--pids-limit", "4096"]
    run += ["--security-opt", "seccomp=unconfined", "--security-opt", "apparmor=unconfined"]
    if engine == "podman":
        run += ["--userns", "keep-id"]
    elif hasattr(os, "getuid"):
        run += ["--user", f"{os.getuid()}:{os.getgid()}"]
    mounts = [
        (submissions, INSIDE / "submissions", True),
        (keys, INSIDE / "keys", True),
        (out, INSIDE / "out", False),
    ]
    grader = [str(INSIDE / "submissions"), "--out", str(INSIDE / "out")]
    grader += ["--keys", str(INSIDE / "keys")]
    for flag, path in (("--secret-file", secret_file), ("--roster", roster)):
        if path is not None:
            inside = INSIDE / "private" / Path(path).name
            mounts.append((Path(path), inside, True))
            grader += [flag, str(inside)]
    for source, target, readonly in mounts:
        spec = f"type=bind,source={Path(os.path.abspath(source))},target={target}"
        run += ["--mount", spec + (",readonly" if readonly else "")]
    for name, value in options.items():
        grader += [f"--{name.replace('_', '-')}", str(int(value))]
    return [*run, image, *grader]
