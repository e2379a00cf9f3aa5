"""The file system of the grading sandbox (:mod:`coursekit.grading.sandbox`): bwrap's mounts.

Read-only: ``/usr`` with the ``/bin``, ``/lib*`` links, a few files of ``/etc``, the Python
interpreter's prefixes and site-packages (but :data:`UNUSED` packages, covered), coursekit's
package directory (not with ``hide_coursekit``) and the caller's ``readonly`` paths;
size-limited tmpfs ``/tmp`` and ``/dev/shm``; ``writable`` read-write; the root and ``/dev``
remounted read-only. The repository around coursekit (``solutions/``, the answer keys) is
never bound, and is covered with an empty tmpfs should a bound path contain it.
"""

from __future__ import annotations

import os
import site
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

SYSTEM = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives", "fonts")
PACKAGE = Path(os.path.abspath(__file__)).parents[1]  # coursekit
# the interpreter that runs every sandboxed command, as an absolute path without ``..``: a
# grader started as ``../venv/bin/python`` has ``sys.executable`` relative to folders the
# sandbox does not show. Its folder is resolved (links followed) but not the file itself, which
# in a virtual environment is a link whose place tells Python where its environment is.
PYTHON = os.path.join(
    os.path.realpath(os.path.dirname(os.path.abspath(sys.executable))),
    os.path.basename(sys.executable),
)
# packages of site-packages covered with an empty tmpfs: debugpy, since ipykernel imports its
# debugger at every kernel start when debugpy can be imported (about 0.08 s of CPU a kernel)
# and a graded notebook has no debugger to talk to
UNUSED = ("debugpy",)


def within(path: Path, others: Sequence[Path]) -> bool:
    return any(path == other or path.is_relative_to(other) for other in others)


def python_paths() -> list[Path]:
    """The interpreter's prefixes and site directories, none inside another."""
    paths = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix}
    paths.update(site.getsitepackages() if hasattr(site, "getsitepackages") else [])
    paths.update(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
    found = sorted({Path(os.path.abspath(p)) for p in paths if p and os.path.isdir(p)}, key=str)
    executable = Path(os.path.realpath(PYTHON))
    if not within(executable, found):
        found.append(executable)
    if Path("/") in found:
        raise RuntimeError("the Python prefix is /: refusing to expose the whole file system")
    return [p for p in found if not within(p, [q for q in found if q != p])]


def site_dirs() -> list[Path]:
    dirs = set(site.getsitepackages() if hasattr(site, "getsitepackages") else [])
    dirs.update(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
    return [Path(os.path.abspath(p)) for p in sorted(dirs) if os.path.isdir(p)]


def coursekit_hooks(sites: list[Path], repository: Path) -> list[Path]:
    """Files of site-packages that can bring coursekit back: editable finders, links, .pth."""
    hooks = []
    for directory in sites:
        for name in sorted(os.listdir(directory)):  # names first: a stat only for candidates
            entry, name = directory / name, name.lower()
            if not name.endswith((".py", ".pth", ".egg-link")):
                continue
            if "coursekit" not in name and not name.endswith((".pth", ".egg-link")):
                continue
            if not entry.is_file():
                continue
            if "coursekit" in name and (name.startswith("__editable__") or ".egg-link" in name):
                hooks.append(entry)
            elif name.endswith((".pth", ".egg-link")):
                text = entry.read_text(encoding="utf-8", errors="replace")
                if "coursekit" in text or str(repository) in text:
                    hooks.append(entry)
    return hooks


def mounts(
    writable: Path, readonly: Sequence[Path], tmp_bytes: int, hide_coursekit: bool
) -> list[str]:
    """bwrap's arguments making the sandbox's file system."""
    mounts: list[tuple[str, list[str]]] = [  # (destination, arguments)
        ("/proc", ["--proc", "/proc"]),
        ("/dev", ["--dev", "/dev"]),
        ("/dev/shm", ["--size", str(tmp_bytes), "--tmpfs", "/dev/shm"]),
        ("/tmp", ["--size", str(tmp_bytes), "--tmpfs", "/tmp"]),
        ("/usr", ["--ro-bind", "/usr", "/usr"]),
    ]
    read_only = ["/dev", "/"]
    for path in SYSTEM:
        if os.path.islink(path):
            mounts.append((path, ["--symlink", os.readlink(path), path]))
        elif os.path.isdir(path):
            mounts.append((path, ["--ro-bind", path, path]))
    for name in ETC:
        if os.path.exists(f"/etc/{name}"):
            mounts.append((f"/etc/{name}", ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]))
    package, repository = PACKAGE, PACKAGE.parent
    sources = [*python_paths(), *(Path(os.path.abspath(p)) for p in readonly)]
    mounts += [(str(p), ["--ro-bind", str(p), str(p)]) for p in sources]
    sites = site_dirs()
    installed = within(package, sites)
    empty = [site / name for site in sites for name in UNUSED if (site / name).is_dir()]
    if not installed and within(repository, [*sources, writable]):
        empty.append(repository)  # a bound folder holds the repository: cover it
    if hide_coursekit:
        if any(within(Path(os.path.abspath(p)), [package]) for p in readonly):
            raise ValueError("hide_coursekit: copy what is needed from coursekit into writable")
        if installed:
            empty.append(package)
        for hook in coursekit_hooks(sites, repository):
            mounts.append((str(hook), ["--ro-bind", "/dev/null", str(hook)]))
    elif not installed:
        mounts.append((str(package), ["--ro-bind", str(package), str(package)]))
    for path in empty:
        mounts.append((str(path), ["--size", "4096", "--tmpfs", str(path)]))
        read_only.append(str(path))
    for path in dict.fromkeys([writable, writable.resolve()]):
        mounts.append((str(path), ["--bind", str(path), str(path)]))
    mounts.sort(key=lambda mount: len(Path(mount[0]).parts))  # stable: parents first
    arguments = [argument for _, mount in mounts for argument in mount]
    for path in read_only:
        arguments += ["--remount-ro", path]
    return arguments


def environment(env: Mapping[str, str] | None) -> dict[str, str]:
    bin_dir = os.path.dirname(PYTHON)
    values = {
        "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "USER": "student",
        "LOGNAME": "student",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MPLCONFIGDIR": "/tmp/matplotlib",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    values.update(env or {})
    return values
