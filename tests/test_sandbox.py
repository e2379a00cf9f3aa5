"""The grading sandbox against hostile code: one test per kind of attack.

Each test runs the attack in the sandbox, checks that it failed there, and checks from the
host that nothing outside changed or survived. They need bubblewrap: without it they are
skipped, unless COURSEKIT_REQUIRE_SANDBOX=1 (CI), which makes them fail instead.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import coursekit
from coursekit.grading import sandbox_cgroup
from coursekit.grading.sandbox import (
    Limits,
    _build,
    enforcement,
    read_output,
    require_sandbox,
    run_sandboxed,
    sandbox_available,
    sandbox_command,
)

PACKAGE = Path(coursekit.__file__).resolve().parent
REPOSITORY = PACKAGE.parent
SOLUTIONS = REPOSITORY / "solutions"  # the answer keys
UNUSABLE = sandbox_available()
REQUIRED = os.environ.get("COURSEKIT_REQUIRE_SANDBOX") == "1"
needs_sandbox = pytest.mark.skipif(
    UNUSABLE is not None and not REQUIRED,
    reason=f"the sandbox cannot run here ({UNUSABLE}); COURSEKIT_REQUIRE_SANDBOX=1 fails instead",
)


@pytest.fixture
def box(tmp_path: Path) -> Path:
    """The submission's writable folder (and a check that the sandbox can run at all)."""
    require_sandbox()
    writable = tmp_path / "box"
    writable.mkdir()
    return writable


def run(code: str, box: Path, *args: str, **options) -> subprocess.CompletedProcess:
    return run_sandboxed([sys.executable, "-c", code, *args], writable=box, **options)


def host_processes(token: str, whole: bool = False) -> list[int]:
    """Processes on the host whose command line contains ``token`` (or, with ``whole``, is)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if cmdline == token.encode() if whole else token.encode() in cmdline:
                found.append(int(entry))
    return found


def host_sleeps(seconds: str) -> list[int]:
    """Processes on the host that are ``sleep seconds`` (not the sandboxes running them)."""
    return host_processes(f"sleep\0{seconds}\0", whole=True)


def test_missing_bwrap_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert "apt-get install bubblewrap" in sandbox_available()
    with pytest.raises(RuntimeError, match="bubblewrap"):
        require_sandbox()


def test_root_without_cgroup_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COURSEKIT_SANDBOX_CGROUP", "off")
    assert enforcement() == "rlimit"
    assert "RLIMIT_AS" in Limits().describe()
    if os.geteuid() == 0 and UNUSABLE is None:
        assert "RLIMIT_NPROC does not apply to uid 0" in sandbox_available()


@needs_sandbox
def test_command_binds_no_repository(box: Path) -> None:
    command = sandbox_command(["true"], writable=box, limits=Limits())
    for flag in ("--unshare-all", "--die-with-parent", "--new-session", "--clearenv"):
        assert flag in command
    sources = [command[i + 1] for i, arg in enumerate(command) if arg.endswith("bind")]
    assert str(REPOSITORY) not in sources and "/" not in sources
    assert [command[i + 1] for i, arg in enumerate(command) if arg == "--bind"] == [str(box)]
    assert enforcement() in Limits().describe()


@needs_sandbox
def test_a_cannot_read_outside(box: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    keys = tmp_path_factory.mktemp("keys") / "answers.json"
    keys.write_text('{"q1": 42}')
    assert SOLUTIONS.is_dir()
    code = """
import json, os, sys
found = {}
for path in sys.argv[1:]:
    try:
        found[path] = os.listdir(path) if os.path.isdir(path) else open(path).read()[:80]
    except OSError as error:
        found[path] = type(error).__name__
print(json.dumps(found))
"""
    targets = [str(keys), str(keys.parent), str(SOLUTIONS), str(REPOSITORY / "README.md")]
    targets += ["/etc/passwd", "/sys/fs/cgroup", "/run", "/proc/1/cmdline"]
    tops = ["/root", "/home", str(REPOSITORY)]
    done = run(code, box, *targets, *tops)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    for path in targets[:-1]:
        assert found[path] == "FileNotFoundError", (path, found[path])
    for top in tops:  # only the way to what is bound: the interpreter, the package
        bound = [sys.prefix, sys.base_prefix, str(PACKAGE)]
        allowed = {Path(p).relative_to(top).parts[0] for p in bound if Path(p).is_relative_to(top)}
        assert found[top] == "FileNotFoundError" or set(found[top]) <= allowed, found[top]
    host_init = Path("/proc/1/cmdline").read_text()[:80]
    inside_init = found["/proc/1/cmdline"]  # the sandbox's own PID 1: bubblewrap
    assert inside_init.split("\0")[0].endswith("bwrap") and inside_init != host_init
    assert keys.read_text() == '{"q1": 42}'


@needs_sandbox
def test_b_daemons_do_not_survive(box: Path) -> None:
    token = f"daemon-{uuid.uuid4().hex}"
    code = """
import os, subprocess, sys, time
token = sys.argv[1]
later = "import sys, time; open(sys.argv[1] + '.started', 'w').close(); time.sleep(1); "
later += "open(sys.argv[1] + '.later', 'w').close()"
def daemon(name):
    return [sys.executable, "-c", later, os.path.join(os.getcwd(), name), token]
if os.fork() == 0:  # double fork, then a session of its own
    if os.fork() == 0:
        os.setsid()
        os.execv(sys.executable, daemon("double"))
    os._exit(0)
subprocess.Popen(daemon("setsid"), start_new_session=True)
subprocess.Popen(["nohup", *daemon("nohup")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
names = ("double", "setsid", "nohup")
for _ in range(300):
    if all(os.path.exists(name + ".started") for name in names):
        break
    time.sleep(0.01)
print("launched")
"""
    done = run(code, box, token)
    assert done.stdout == b"launched\n", done.stderr
    for name in ("double", "setsid", "nohup"):
        assert (box / f"{name}.started").exists()  # they did start
    assert host_processes(token) == []
    time.sleep(1.5)
    assert sorted(p.name for p in box.glob("*.later")) == []
    assert host_processes(token) == []


@needs_sandbox
def test_c_fork_bomb_is_stopped(box: Path) -> None:
    token = f"{uuid.uuid4().int % 1000}.{uuid.uuid4().int % 1000:03d}7"
    code = """
import os, sys
forked, error = 0, None
for _ in range(2000):
    try:
        pid = os.fork()
    except OSError as e:
        error = type(e).__name__
        break
    if pid == 0:
        try:
            os.execv("/bin/sleep", ["sleep", sys.argv[1]])
        finally:
            os._exit(0)
    forked += 1
print(forked, error)
"""
    start = time.monotonic()
    done = run(code, box, token, limits=Limits(processes=32))
    forked, error = done.stdout.split()
    assert 0 < int(forked) < 32 and error == b"BlockingIOError", done.stdout
    assert time.monotonic() - start < 10
    assert host_sleeps(token) == []
    assert subprocess.run(["true"]).returncode == 0  # the host can still fork


MEMORY = """
import os, sys, time
size, count = int(sys.argv[1]) << 20, int(sys.argv[2])
children = []
for _ in range(count):
    pid = os.fork()
    if pid == 0:
        try:
            block = b"x" * size
            time.sleep(0.5)
            os._exit(0)
        except MemoryError:
            os._exit(3)
    children.append(pid)
codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]
print("ALL-OK" if codes == [0] * count else codes)
"""


@needs_sandbox
def test_d_memory_over_children_is_limited(box: Path) -> None:
    limits = Limits(memory_mb=256)
    control = run(MEMORY, box, "20", "4", limits=limits)  # 80 MB in all: fits
    assert control.stdout == b"ALL-OK\n", control.stderr
    if enforcement() == "rlimit":  # no cgroup: each process is limited, not the total
        assert "no total" in limits.describe()
        attack = run(MEMORY, box, "300", "1", limits=limits)
    else:
        attack = run(MEMORY, box, "100", "4", limits=limits)  # 400 MB in all
    assert attack.returncode != 0 or b"ALL-OK" not in attack.stdout, attack.stdout


@needs_sandbox
def test_e_no_network(box: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    abstract = f"coursekit-{uuid.uuid4().hex}"
    unix = socket.socket(socket.AF_UNIX)
    unix.bind("\0" + abstract)
    unix.listen()
    unix.setblocking(False)
    code = """
import json, socket, sys
results = {}
for family, address in [(socket.AF_INET, ("127.0.0.1", int(sys.argv[1]))),
                        (socket.AF_INET, ("1.1.1.1", 53)), (socket.AF_UNIX, "\\0" + sys.argv[2])]:
    s = socket.socket(family)
    s.settimeout(2)
    try:
        s.connect(address)
        results[str(address)] = "connected"
    except OSError as error:
        results[str(address)] = type(error).__name__
print(json.dumps(results))
"""
    with listener, unix:
        done = run(code, box, str(listener.getsockname()[1]), abstract)
        results = json.loads(done.stdout)
        assert "connected" not in results.values(), results
        for server in (listener, unix):
            with pytest.raises(BlockingIOError):
                server.accept()


@needs_sandbox
def test_f_writes_stay_inside(box: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "keep.txt").write_text("original")
    site_packages = next(p for p in sys.path if p.endswith("site-packages"))
    code = """
import json, os, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
results = {}
def write(path, size=10):
    try:
        with open(path, "wb") as f:
            f.write(b"x" * size)
        results[path] = "written"
    except OSError as error:
        results[path] = type(error).__name__
for path in sys.argv[1:]:
    write(path)
write("inside.txt")
write("/tmp/scratch.txt")
write("big.bin", 2 << 20)  # over file_mb
write("/tmp/big.bin", 3 << 20)  # over tmp_mb
print(json.dumps(results))
"""
    targets = [str(outside / "keep.txt"), str(outside / "new.txt"), str(PACKAGE / "evil.py")]
    targets += [f"{site_packages}/evil.pth", "/etc/evil", "/evil", "/usr/evil", "/dev/evil"]
    before = {p: p.stat().st_mtime_ns for p in [*outside.iterdir(), PACKAGE]}
    done = run(code, box, *targets, limits=Limits(file_mb=1, tmp_mb=2))
    results = json.loads(done.stdout)
    for path in targets:
        assert results[path] != "written", path
    assert results["inside.txt"] == results["/tmp/scratch.txt"] == "written"
    assert results["big.bin"] == "OSError" and results["/tmp/big.bin"] == "OSError"
    assert (box / "inside.txt").read_bytes() == b"x" * 10
    assert (box / "big.bin").stat().st_size <= 1 << 20
    assert sorted(outside.iterdir()) == [outside / "keep.txt"]
    assert (outside / "keep.txt").read_text() == "original"
    assert not (PACKAGE / "evil.py").exists() and not Path(site_packages, "evil.pth").exists()
    assert before == {p: p.stat().st_mtime_ns for p in [*outside.iterdir(), PACKAGE]}


@needs_sandbox
def test_g_hidden_coursekit_stays_hidden(box: Path) -> None:
    code = """
import importlib, importlib.util, json, os, site, sys
package, sites = sys.argv[1], sys.argv[2:]
results = {}
def attempt(label):
    for name in [m for m in sys.modules if m.split(".")[0] == "coursekit"]:
        del sys.modules[name]
    importlib.invalidate_caches()
    sys.path_importer_cache.clear()
    try:
        import coursekit
        results[label] = "imported " + str(coursekit.__file__)
    except ImportError:
        results[label] = "ImportError"
attempt("plain")
sys.path[:0] = [os.path.dirname(package), package, *sites]
attempt("sys.path")
for directory in sites:
    site.addsitedir(directory)
    for name in os.listdir(directory):
        if name.startswith("__editable__") and name.endswith(".py"):
            try:
                importlib.import_module(name[:-3]).install()
            except Exception as error:
                results[name] = type(error).__name__
attempt("editable finder")
sys.meta_path.reverse()
attempt("meta_path")
try:
    spec = importlib.util.spec_from_file_location("coursekit", package + "/__init__.py")
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    results["file"] = "imported"
except OSError as error:
    results["file"] = type(error).__name__
print(json.dumps(results))
"""
    sites = [p for p in sys.path if p.endswith("site-packages")]
    done = run(code, box, str(PACKAGE), *sites, hide_coursekit=True)
    results = json.loads(done.stdout)
    for label in ("plain", "sys.path", "editable finder", "meta_path"):
        assert results[label] == "ImportError", results
    assert results["file"] == "FileNotFoundError", results
    visible = "import importlib.util; print(importlib.util.find_spec('coursekit').origin)"
    assert run(visible, box).stdout.strip() == str(PACKAGE / "__init__.py").encode()


@needs_sandbox
def test_h_wall_time_kills_everything(box: Path) -> None:
    token = f"{uuid.uuid4().int % 1000}.{uuid.uuid4().int % 1000:03d}3"
    code = "import subprocess, sys\nsubprocess.Popen(['sleep', sys.argv[1]])\nwhile True: pass"
    done = run(code, box, token, limits=Limits(wall_seconds=1))
    assert done.timed_out and done.returncode != 0
    assert 1 <= done.seconds < 3
    assert host_sleeps(token) == []


@needs_sandbox
def test_i_sandboxed_kernel_runs_a_notebook(box: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from coursekit.grading.sandbox_kernel import SandboxedKernelManager

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("print(6 * 7)"),
        nbformat.v4.new_code_cell(f"import os\nprint(os.path.exists({str(SOLUTIONS)!r}))"),
    ]
    manager = SandboxedKernelManager(writable=box, limits=Limits(memory_mb=1024))
    assert manager.transport == "ipc" and manager.ip.startswith(str(box.resolve()))
    parent = sandbox_cgroup.cgroup_parent()
    cgroups = set(parent.dirs[0].iterdir()) if parent else set()
    client = nbclient.NotebookClient(notebook, km=manager, timeout=30)
    client.execute(cleanup_kc=True)
    outputs = ["".join(o.get("text", "") for o in cell.outputs) for cell in notebook.cells]
    assert outputs == ["42\n", "False\n"]
    assert host_processes(str(box.resolve())) == []
    if parent is not None:  # the kernel's cgroup is gone too
        assert set(parent.dirs[0].iterdir()) <= cgroups


@needs_sandbox
def test_sandbox_of_a_dead_grader_is_killed(box: Path) -> None:
    # bwrap's PID 1 binds itself to the bwrap process only after its set-up: stand for a
    # grader killed within it with a sandbox started without --die-with-parent
    token = f"{uuid.uuid4().int % 1000}.{uuid.uuid4().int % 1000:03d}9"
    command, cgroups = _build(["sleep", token], writable=box, limits=Limits())
    command.remove("--die-with-parent")
    process = subprocess.Popen(command)
    try:
        for _ in range(500):
            if host_sleeps(token):
                break
            time.sleep(0.01)
        process.kill()
        process.wait()
        assert host_sleeps(token)  # orphaned, still running
        sandbox_command(["true"], writable=box, limits=Limits())  # the next sandbox's start
        for _ in range(100):
            if not host_sleeps(token):
                break
            time.sleep(0.01)
        assert host_sleeps(token) == []
    finally:
        sandbox_cgroup.remove(cgroups(process.pid))


@needs_sandbox
def test_results_are_read_without_links(box: Path) -> None:
    code = """
import os
os.symlink("/etc/hostname", "result.json")  # a host file, to be read by the grader's rights
os.symlink("/etc", "etc")
os.mkfifo("fifo")
os.mkdir("sub")
open("sub/ok.json", "w").write("42")
"""
    assert run(code, box).returncode == 0
    assert read_output(box, "sub/ok.json") == b"42"
    for name in ("result.json", "etc/hostname", "fifo", "sub"):
        with pytest.raises(OSError):
            read_output(box, name)


def run_setup(parent: sandbox_cgroup.CgroupParent) -> Path:
    """Run a cgroup's set-up script on ordinary folders standing for cgroups: what it wrote."""
    command, dirs = sandbox_cgroup.wrap(parent, 256 << 20, 10, ["true"])
    process = subprocess.Popen(command)
    assert process.wait() == 0
    made = dirs(process.pid)
    assert [p.parent for p in made] == list(parent.dirs)
    for directory in made:
        assert (directory / "cgroup.procs").read_text() == f"{process.pid}\n"
    return made


def test_cgroup_v2_setup(tmp_path: Path) -> None:
    delegated = tmp_path / "user.slice"
    own = delegated / "session.scope"
    own.mkdir(parents=True)
    (delegated / "cgroup.subtree_control").write_text("cpu memory pids\n")
    (delegated / "cgroup.procs").write_text("")
    (own / "cgroup.subtree_control").write_text("")
    mounts = [("/", tmp_path, "cgroup2", {"rw"})]
    parent = sandbox_cgroup._find_v2(mounts, {"": "/user.slice/session.scope"})
    assert parent == sandbox_cgroup.CgroupParent(2, (delegated,))
    (made,) = run_setup(parent)
    assert (made / "memory.max").read_text() == f"{256 << 20}\n"
    assert (made / "pids.max").read_text() == "10\n"


def test_cgroup_v1_setup(tmp_path: Path) -> None:
    memory, pids = tmp_path / "memory", tmp_path / "pids"
    (memory / "grader").mkdir(parents=True)
    pids.mkdir()
    (memory / "grader" / "cgroup.procs").write_text("")
    (pids / "cgroup.procs").write_text("")
    mounts = [("/", memory, "cgroup", {"rw", "memory"}), ("/", pids, "cgroup", {"rw", "pids"})]
    parent = sandbox_cgroup._find_v1(mounts, {"memory": "/grader", "pids": "/"})
    assert parent == sandbox_cgroup.CgroupParent(1, (memory / "grader", pids))
    made_memory, made_pids = run_setup(parent)
    assert (made_memory / "memory.limit_in_bytes").read_text() == f"{256 << 20}\n"
    assert (made_pids / "pids.max").read_text() == "10\n"
