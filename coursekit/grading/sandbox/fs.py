"""The file system of the grading sandbox (:mod:`coursekit.grading.sandbox`): bwrap's mounts.

Read-only: ``/usr`` with the ``/bin``, ``/lib*`` links, a few files of ``/etc``, the Python
interpreter's prefixes and site-packages (but :data:`UNUSED` packages, covered), coursekit's
package directory (not with ``hide_coursekit``) and the caller's ``readonly`` paths;
size-limited tmpfs ``/tmp`` and ``/dev/shm``; ``writable`` read-write; the root and ``/dev``
remounted read-only. The repository around coursekit (``solutions/``, the answer keys) is
never bound, and is covered with an empty tmpfs should a bound path contain it.

The lecturer's own paths are not shown: the grader's places are bound at neutral ones
(:func:`places`), and every argument and environment value naming them is rewritten
(:func:`inside`):

* a virtual environment at :data:`VENV` (``/opt/venv``), its ``bin/`` holding only the
  interpreter and its ``pyvenv.cfg`` reduced to what Python reads (no ``command`` line with
  the venv's host path);
* the base interpreter's prefix, unless under ``/usr``, at :data:`BASE` (``/opt/python``);
* coursekit's package directory at ``/course/coursekit`` (:data:`COURSE`, on ``PYTHONPATH``;
  the editable install's finder, which names the checkout, covered);
* the writable folder at :data:`WORK` (``/home/student``), the sandbox's working folder.

``/proc/self/mountinfo`` still names the host folder a bind comes from (the kernel shows a
bind mount's root); what the grader reports back is scrubbed of the host places
(:func:`scrub`).
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import site
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

SYSTEM = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives", "fonts")
PACKAGE = Path(os.path.abspath(__file__)).parents[2]  # coursekit
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
VENV = Path("/opt/venv")  # a virtual environment's place in the sandbox
BASE = Path("/opt/python")  # the base interpreter's prefix, when it is not under /usr
COURSE = Path("/course")  # coursekit's package directory is COURSE/coursekit
WORK = Path("/home/student")  # the writable folder
NEUTRAL_SYSTEM = (Path("/usr"),)  # prefixes shown at their own place
PYVENV_KEYS = ("include-system-site-packages", "version", "version_info", "implementation")


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


def installed() -> bool:
    """Whether coursekit lies in site-packages (else: a checkout, an editable install)."""
    return within(PACKAGE, site_dirs())


def _venv() -> Path | None:
    """This interpreter's virtual environment, or None."""
    prefix = Path(os.path.abspath(sys.prefix))
    if os.path.realpath(sys.prefix) == os.path.realpath(sys.base_prefix):
        return None
    return prefix if (prefix / "pyvenv.cfg").is_file() else None


def _base() -> Path | None:
    """The base interpreter's prefix when it is shown at a neutral place (not under /usr)."""
    base = Path(os.path.abspath(sys.base_prefix))
    return None if within(base, list(NEUTRAL_SYSTEM)) else base


def places(writable: Path | None = None, hide_coursekit: bool = False) -> list[tuple[str, str]]:
    """``(host place, place in the sandbox)`` of the grader's folders, longest host path first
    (the most specific wins in :func:`inside`)."""
    pairs: list[tuple[Path, Path]] = []
    moved = [(_venv(), VENV), (_base(), BASE)]
    if not hide_coursekit and not installed():
        moved.append((PACKAGE, COURSE / "coursekit"))
    if writable is not None:
        moved.append((Path(os.path.abspath(writable)), WORK))
    for host, neutral in moved:
        if host is not None:
            pairs += [(host, neutral), (host.resolve(), neutral)]
    unique = {str(host): str(neutral) for host, neutral in pairs}
    return sorted(unique.items(), key=lambda pair: -len(pair[0]))


def inside(text: str, pairs: Sequence[tuple[str, str]]) -> str:
    """``text`` (a path, an argument) with a host place of ``pairs`` at its start rewritten
    to its place in the sandbox.

    >>> inside("/home/me/venv/bin/python", [("/home/me/venv", "/opt/venv")])
    '/opt/venv/bin/python'
    >>> inside("/home/me/venvs", [("/home/me/venv", "/opt/venv")])
    '/home/me/venvs'
    """
    for host, neutral in pairs:
        if text == host or text.startswith(host.rstrip("/") + "/"):
            return neutral + text[len(host) :]
    return text


def scrub(text: str, writable: Path | None = None) -> str:
    """``text`` with every host place of :func:`places` (anywhere in it) replaced by its
    neutral name: what a notebook could echo of the lecturer's folders into its feedback."""
    for host, neutral in places(writable):
        if len(host) > 1:
            text = text.replace(host, neutral)
    return text


def interpreter() -> str:
    """The interpreter's path in the sandbox: ``/opt/venv/bin/python`` in a virtual
    environment (the real interpreter bound there), else its own path moved as its prefix."""
    if _venv() is not None:
        return str(VENV / "bin" / "python")
    return inside(os.path.realpath(PYTHON), places())


@functools.cache
def _pyvenv_cfg() -> Path | None:
    """A copy of the venv's ``pyvenv.cfg`` with only what Python reads, its ``home`` moved."""
    venv = _venv()
    if venv is None:
        return None
    pairs = places()
    lines = []
    for line in (venv / "pyvenv.cfg").read_text(encoding="utf-8").splitlines():
        key, _, value = (part.strip() for part in line.partition("="))
        if key == "home":
            lines.append(f"home = {inside(os.path.realpath(value), pairs)}")
        elif key in PYVENV_KEYS:
            lines.append(f"{key} = {value}")
    folder = Path(tempfile.mkdtemp(prefix="ck-venv-"))
    os.chmod(folder, 0o755)
    atexit.register(shutil.rmtree, folder, True)
    cfg = folder / "pyvenv.cfg"
    cfg.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.chmod(cfg, 0o644)
    return cfg


def mounts(
    writable: Path, readonly: Sequence[Path], tmp_bytes: int, hide_coursekit: bool
) -> list[str]:
    """bwrap's arguments making the sandbox's file system."""
    pairs = places(writable, hide_coursekit)
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
    for source in sources:
        mounts.append((inside(str(source), pairs), ["--ro-bind", str(source), ""]))
    sites = site_dirs()
    empty = [site / name for site in sites for name in UNUSED if (site / name).is_dir()]
    if not installed() and within(repository, [*sources, writable]):
        empty.append(repository)  # a bound folder holds the repository: cover it
    if hide_coursekit and any(within(Path(os.path.abspath(p)), [package]) for p in readonly):
        raise ValueError("hide_coursekit: copy what is needed from coursekit into writable")
    if hide_coursekit and installed():
        empty.append(package)
    if hide_coursekit or not installed():  # an editable install's finder names the checkout
        for hook in coursekit_hooks(sites, repository):
            mounts.append((inside(str(hook), pairs), ["--ro-bind", "/dev/null", ""]))
    if not hide_coursekit and not installed():
        mounts.append((str(COURSE / "coursekit"), ["--ro-bind", str(package), ""]))
    venv_cfg = _pyvenv_cfg()
    if venv_cfg is not None:  # bin/: the interpreter only (its scripts name the host venv)
        bin_dir = str(VENV / "bin")
        mounts.append((bin_dir, ["--size", "4096", "--tmpfs", bin_dir]))
        mounts.append((interpreter(), ["--ro-bind", os.path.realpath(PYTHON), ""]))
        mounts.append((str(VENV / "pyvenv.cfg"), ["--ro-bind", str(venv_cfg), ""]))
        read_only.append(bin_dir)
    for path in empty:
        where = inside(str(path), pairs)
        mounts.append((where, ["--size", "4096", "--tmpfs", where]))
        read_only.append(where)
    mounts.append((str(WORK), ["--bind", str(Path(writable).resolve()), ""]))
    mounts.sort(key=lambda mount: len(Path(mount[0]).parts))  # stable: parents first
    arguments = []
    for destination, mount in mounts:  # an empty last argument: the destination
        arguments += [*mount[:-1], mount[-1] or destination]
    for path in read_only:
        arguments += ["--remount-ro", path]
    return arguments


def environment(
    env: Mapping[str, str] | None, pairs: Sequence[tuple[str, str]] = ()
) -> dict[str, str]:
    """The sandbox's environment: a small fixed one, ``env`` added, host places moved."""
    values = {
        "PATH": f"{os.path.dirname(interpreter())}:/usr/local/bin:/usr/bin:/bin",
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
    if str(COURSE / "coursekit") in dict(pairs).values():
        values["PYTHONPATH"] = str(COURSE)
    if _base() is not None:  # its libpython is found through an absolute RPATH otherwise
        values["LD_LIBRARY_PATH"] = str(BASE / "lib")
    values.update({name: inside(value, pairs) for name, value in (env or {}).items()})
    return values
