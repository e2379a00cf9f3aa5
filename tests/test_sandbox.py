"""The grading sandbox against hostile code: one test per kind of attack.

Each test runs the attack in the sandbox, checks that it failed there, and checks from the
host that nothing outside changed or survived. They need bubblewrap: without it they are
skipped, unless COURSEKIT_REQUIRE_SANDBOX=1 (CI), which makes them fail instead.
"""

from __future__ import annotations

import asyncio
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
from coursekit.grading.sandbox import (
    OPEN_FILES,
    Limits,
    bwrap_options,
    command,
    enforcement,
    read_output,
    require_sandbox,
    run_sandboxed,
    sandbox_available,
)
from coursekit.grading.sandbox import cgroup as sandbox_cgroup
from coursekit.grading.sandbox import disk as sandbox_disk
from coursekit.grading.sandbox import fs as sandbox_fs

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
    line = bwrap_options(command(["true"], writable=box, limits=Limits())[0])
    for flag in ("--unshare-all", "--die-with-parent", "--new-session", "--clearenv"):
        assert flag in line
    sources = [line[i + 1] for i, arg in enumerate(line) if arg.endswith("bind")]
    assert str(REPOSITORY) not in sources and "/" not in sources
    binds = [line[i + 1 : i + 3] for i, arg in enumerate(line) if arg == "--bind"]
    assert binds == [[str(box.resolve()), "/home/student"]]


# what a notebook could print of the lecturer's folders (issue 32): the checkout, the virtual
# environment, a base interpreter outside /usr, the grader's own folder for the submission
PEEK = r"""
import glob, json, os, sys
seen = {"cmdline": [open(f"/proc/{p}/cmdline", "rb").read().decode(errors="replace")
                    for p in os.listdir("/proc") if p.isdigit()],
        "environ": dict(os.environ), "path": sys.path, "executable": sys.executable,
        "prefix": [sys.prefix, sys.base_prefix, sys.exec_prefix], "cwd": os.getcwd(),
        "files": {}}
seen["files"].update(dict.fromkeys(glob.glob("/opt/venv/bin/*"), ""))  # names: binaries
for pattern in ("/opt/venv/pyvenv.cfg", "/opt/venv/lib/*/site-packages/*.pth",
                "/opt/venv/lib/*/site-packages/__editable__*"):
    for name in glob.glob(pattern):
        try:
            seen["files"][name] = open(name, errors="replace").read(100000)
        except OSError as error:
            seen["files"][name] = str(error)
import coursekit
seen["coursekit"] = coursekit.__file__
print(json.dumps(seen))
"""


@needs_sandbox
def test_the_lecturers_folders_are_not_shown(box: Path) -> None:
    done = run_sandboxed(
        [sandbox_fs.PYTHON, "-c", PEEK], writable=box, limits=Limits(), env={"WHERE": str(box)}
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout if isinstance(done.stdout, str) else done.stdout.decode()
    seen = json.loads(text)
    hosts = {str(REPOSITORY), str(box), str(box.resolve()), os.path.abspath(sys.prefix)}
    if not os.path.abspath(sys.base_prefix).startswith("/usr"):
        hosts.add(os.path.abspath(sys.base_prefix))
    shown = [host for host in hosts if host in text]
    assert not shown, f"host folders shown in the sandbox: {shown}"
    assert seen["cwd"] == "/home/student" and seen["environ"]["WHERE"] == "/home/student"
    assert seen["coursekit"].startswith(("/course/", "/opt/venv/"))
    if sys.prefix != sys.base_prefix:
        assert seen["executable"] == "/opt/venv/bin/python"
        assert sorted(os.path.basename(f) for f in seen["files"] if "/bin/" in f) == ["python"]


@needs_sandbox
def test_a_sandbox_is_the_first_the_out_of_memory_killer_takes(box: Path) -> None:
    code = "print(open('/proc/self/oom_score_adj').read().strip())"
    done = run_sandboxed([sandbox_fs.PYTHON, "-c", code], writable=box, limits=Limits())
    assert done.stdout.strip() in (b"1000", "1000"), done.stderr
    own = Path("/proc/self/oom_score_adj").read_text().strip()
    assert own != "1000"  # the grader's own is left as it was


def test_scrub_names_no_host_folder(box: Path) -> None:
    text = f"error in {box}/x.ipynb, {REPOSITORY}/coursekit/a.py, {sys.prefix}/lib"
    cleaned = sandbox_fs.scrub(text, box)
    assert str(box) not in cleaned and str(REPOSITORY) not in cleaned
    assert os.path.abspath(sys.prefix) not in cleaned or sys.prefix == sys.base_prefix
    assert "/home/student/x.ipynb" in cleaned
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
    for top in tops:  # only the submission's folder: the rest is at neutral places
        allowed = {"student"} if top == "/home" else set()
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
    places = sandbox_fs.places(box)  # the arguments naming bound folders name them inside
    for path in targets:
        assert results[sandbox_fs.inside(path, places)] != "written", path
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
    assert run(visible, box).stdout.strip() == b"/course/coursekit/__init__.py"


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
    assert host_processes(os.path.basename(manager.connection_file)) == []  # its processes
    if parent is not None:  # the kernel's cgroup is gone too
        assert set(parent.dirs[0].iterdir()) <= cgroups


@needs_sandbox
def test_sandbox_of_a_dead_grader_is_killed(box: Path) -> None:
    # bwrap's PID 1 binds itself to the bwrap process only after its set-up: stand for a
    # grader killed within it with a sandbox started without --die-with-parent
    token = f"{uuid.uuid4().int % 1000}.{uuid.uuid4().int % 1000:03d}9"
    line, cgroups = command(["sleep", token], writable=box, limits=Limits())
    line = bwrap_options(line)  # its options on the command line, to take one away
    line.remove("--die-with-parent")
    process = subprocess.Popen(line)
    try:
        for _ in range(500):
            if host_sleeps(token):
                break
            time.sleep(0.01)
        process.kill()
        process.wait()
        assert host_sleeps(token)  # orphaned, still running
        command(["true"], writable=box, limits=Limits())  # the next sandbox's start
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


# --------------------------------------------------------------------------------------------
# The disk limit: files deleted but held open, the open-file limit, the free space

HOLDER = r"""
import mmap, os, sys, time
def blocks(fd):
    return os.fstat(fd).st_blocks * 512
gone = open("gone", "wb")  # deleted, held open: counted
os.unlink("gone")
gone.write(b"g" * (20 << 20))
gone.flush()
kept = open("kept", "wb")  # linked, held open: counted once, by the folder
kept.write(b"k" * (5 << 20))
kept.flush()
twice = open("two", "wb")  # one name deleted, the other kept: counted once, by the folder
twice.write(b"t" * (3 << 20))
twice.flush()
os.link("two", "two-b")
os.unlink("two")
memory = os.memfd_create("m")  # memory, not the folder's disk: not counted
os.write(memory, b"m" * (4 << 20))
mapped = open("mapped", "w+b")  # deleted, only mapped (no descriptor): counted as root
mapped.truncate(6 << 20)
view = mmap.mmap(mapped.fileno(), 6 << 20)
view[:] = b"v" * (6 << 20)
view.flush()
sizes = [blocks(gone.fileno()), blocks(mapped.fileno())]
mapped.close()
os.unlink("mapped")
for n in os.listdir("/proc/self/fd"):  # the mmap module's own copy of the descriptor
    try:
        if os.readlink(f"/proc/self/fd/{n}").endswith("mapped (deleted)"):
            os.close(int(n))
    except OSError:
        pass
print(*sizes, flush=True)
time.sleep(60)
"""


def test_deleted_files_held_open_are_counted_once(tmp_path: Path) -> None:
    folder = tmp_path / "box"
    folder.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER], cwd=folder, stdout=subprocess.PIPE, text=True
    )
    try:
        gone, mapped = map(int, holder.stdout.readline().split())
        assert gone >= 20 << 20 and mapped >= 6 << 20
        expected = gone + (mapped if os.geteuid() == 0 else 0)  # map_files: root only
        assert holder.pid in sandbox_disk.processes(holder.pid)
        assert sandbox_disk.held(sandbox_disk.processes(holder.pid), folder) == expected
        names = sorted(p.name for p in folder.iterdir())
        assert names == ["kept", "two-b"]
        linked = sum(os.lstat(folder / name).st_blocks * 512 for name in names)
        assert sandbox_disk.usage(folder)[0] == linked
        assert sandbox_disk.over(folder, 20 << 20) is None  # the folder alone: 8 MB
        reason = sandbox_disk.over(folder, 20 << 20, root=holder.pid)
        held = f"{expected >> 20} MB of it in files deleted but held open"
        assert reason == f"more than 20 MB ({held})"
        assert sandbox_disk.over(folder, 64 << 20, root=holder.pid) is None
    finally:
        holder.kill()
        holder.wait()


@needs_sandbox
def test_processes_are_found_by_cgroup_or_by_descent(
    box: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a daemon of the sandbox (double fork, new session) is one of its processes either way
    token = f"{uuid.uuid4().int % 1000}.{uuid.uuid4().int % 1000:03d}7"
    code = (
        "import os, subprocess, sys, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    subprocess.Popen(['sleep', sys.argv[1]])\n"
        "    os._exit(0)\n"
        "time.sleep(60)\n"
    )
    line, cgroups = command([sys.executable, "-c", code, token], writable=box, limits=Limits())
    process = subprocess.Popen(line)
    try:
        for _ in range(500):
            if host_sleeps(token):
                break
            time.sleep(0.01)
        (sleeper,) = host_sleeps(token)
        if sandbox_cgroup.cgroup_parent() is not None:
            assert sleeper in sandbox_cgroup.members(process.pid)
        assert sleeper in sandbox_disk.processes(process.pid)
        monkeypatch.setattr(sandbox_cgroup, "members", lambda pid: [])
        assert sleeper in sandbox_disk.processes(process.pid)
        assert os.getpid() not in sandbox_disk.processes(process.pid)
    finally:
        process.kill()
        process.wait()
        sandbox_cgroup.remove(cgroups(process.pid))


@needs_sandbox
def test_the_watch_stops_a_sandbox_holding_deleted_files(box: Path) -> None:
    code = (
        "import os, time\n"
        "held = []\n"
        "for i in range(3):\n"
        "    f = open(f'f{i}', 'wb')\n"
        "    os.unlink(f'f{i}')\n"
        "    f.write(b'x' * (10 << 20))\n"
        "    f.flush()\n"
        "    held.append(f)\n"
        "time.sleep(60)\n"
    )
    line, cgroups = command([sys.executable, "-c", code], writable=box, limits=Limits())
    process = subprocess.Popen(line)
    reasons: list[str] = []

    def stop(reason: str) -> None:
        reasons.append(reason)
        process.kill()

    watch = sandbox_disk.watch(box, 16 << 20, stop, period=0.05, root=lambda: process.pid)
    try:
        asyncio.run(asyncio.wait_for(watch, 30))
    finally:
        process.kill()
        process.wait()
        sandbox_cgroup.remove(cgroups(process.pid))
    assert len(reasons) == 1 and reasons[0].startswith("more than 16 MB ("), reasons
    assert "of it in files deleted but held open" in reasons[0]
    assert list(box.iterdir()) == []


@needs_sandbox
def test_open_files_are_limited(box: Path) -> None:
    code = """
import resource
held = []
try:
    while len(held) < 1000:
        held.append(open(f"f{len(held)}", "wb"))
except OSError as error:
    print(resource.getrlimit(resource.RLIMIT_NOFILE)[1], len(held), error.errno)
"""
    done = run(code, box)
    hard, opened, errno = map(int, done.stdout.split())
    assert hard == OPEN_FILES == 256
    assert OPEN_FILES - 10 < opened < OPEN_FILES and errno == 24  # EMFILE; stdin, stdout, stderr
    assert f"{OPEN_FILES} open per process (RLIMIT_NOFILE)" in Limits().describe()


class _Statvfs:
    def __init__(self, free_blocks: int) -> None:
        self.f_bavail, self.f_frsize = free_blocks, 4096


@pytest.mark.parametrize(("free_mb", "need_mb"), [(100, 64), (319, 64), (320, 64), (900, 512)])
def test_free_space_problem(monkeypatch: pytest.MonkeyPatch, free_mb: int, need_mb: int) -> None:
    asked = []

    def statvfs(path):
        asked.append(path)
        return _Statvfs(free_mb * 256)

    monkeypatch.setattr(sandbox_disk.os, "statvfs", statvfs)
    need = sandbox_disk.space_needed(need_mb)
    assert need == (need_mb + 256) << 20
    problem = sandbox_disk.free_space_problem(Path("/grading"), need)
    assert asked == [Path("/grading")]
    if free_mb >= need_mb + 256:
        assert problem is None
    else:
        assert problem.startswith(
            f"the disk holding the grader's temporary folder (/grading) has only {free_mb} MB "
            f"free; a submission needs {need_mb + 256} MB"
        ), problem


def test_free_space_problem_refuses_bad_needs() -> None:
    with pytest.raises(ValueError, match="need_bytes must be at least 0, got -1"):
        sandbox_disk.free_space_problem(Path("."), -1)
    with pytest.raises(TypeError, match="need_bytes must be an int, got str"):
        sandbox_disk.free_space_problem(Path("."), "1")
