"""The grader in a container (``--container docker|podman``), where bubblewrap cannot run.

No container engine runs here: a fake ``docker`` on PATH records the command the grader gives
it, and the tests check what that command lets the container see and do.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from coursekit.grading import container, grade_cli, sandbox


def _mounts(command: list[str]) -> dict[str, tuple[str, bool]]:
    """target -> (source, read-only) of the command's --mount options."""
    found = {}
    for flag, spec in zip(command, command[1:], strict=False):
        if flag == "--mount":
            fields = dict(f.split("=", 1) if "=" in f else (f, "") for f in spec.split(","))
            found[fields["target"]] = (fields["source"], "readonly" in fields)
    return found


def _option(command: list[str], flag: str) -> list[str]:
    return [b for a, b in zip(command, command[1:], strict=False) if a == flag]


def test_only_out_is_writable_and_there_is_no_network(tmp_path):
    subs, out, keys = tmp_path / "subs", tmp_path / "out", tmp_path / "keys"
    secret, roster = tmp_path / "private" / "secret.txt", tmp_path / "private" / "roster.csv"
    command = container.command(
        "docker", subs, out, keys, {"jobs": 2, "memory": 1000}, secret_file=secret, roster=roster
    )
    mounts = _mounts(command)
    assert mounts == {
        "/grading/submissions": (str(subs), True),
        "/grading/keys": (str(keys), True),
        "/grading/out": (str(out), False),
        "/grading/private/secret.txt": (str(secret), True),
        "/grading/private/roster.csv": (str(roster), True),
    }
    assert _option(command, "--network") == ["none"]
    assert "--read-only" in command
    engine = command[: command.index(container.IMAGE)]
    # two kernels with their grading workers (256 MB each), the grader, and the /tmp tmpfs
    # (memory too: two folders of --disk's default 256 MB, and 512 MB)
    assert _option(engine, "--tmpfs") == [f"/tmp:rw,exec,size={256 * 2 + 512}m"]
    assert _option(engine, "--memory") == [f"{(1000 + 256) * 2 + 1024 + 256 * 2 + 512}m"]
    assert set(_option(command, "--security-opt")) == {"seccomp=unconfined", "apparmor=unconfined"}
    assert _option(command, "--user") == [f"{os.getuid()}:{os.getgid()}"]
    after = command[command.index(container.IMAGE) + 1 :]
    assert after[:5] == ["/grading/submissions", "--out", "/grading/out", "--keys", "/grading/keys"]
    assert _option(after, "--secret-file") == ["/grading/private/secret.txt"]
    assert _option(after, "--jobs") == ["2"]


def test_podman_keeps_the_lecturers_uid():
    command = container.command("podman", Path("/s"), Path("/o"), Path("/k"), {})
    assert _option(command, "--userns") == ["keep-id"]
    assert "--user" not in command


def test_bad_engine_and_options_are_refused():
    with pytest.raises(ValueError, match="--container must be one of docker, podman"):
        container.command("lxc", Path("/s"), Path("/o"), Path("/k"), {})
    with pytest.raises(ValueError, match="not passed to a container: variants"):
        container.command("docker", Path("/s"), Path("/o"), Path("/k"), {"variants": 1})


def _fake_engine(folder: Path, name: str) -> Path:
    """A ``name`` executable that writes its arguments to ``calls.json`` and exits 0."""
    record = folder / "calls.json"
    script = folder / name
    script.write_text(
        f"#!{sys.executable}\nimport json, sys\n"
        f"open({str(record)!r}, 'w').write(json.dumps(sys.argv[1:]))\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return record


def test_the_grader_runs_itself_in_the_container(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = _fake_engine(bin_dir, "docker")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    (tmp_path / "subs").mkdir()
    argv = [str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--keys", str(tmp_path)]
    assert grade_cli.main([*argv, "--container", "docker", "--disk", "100"]) == 0
    called = json.loads(record.read_text(encoding="utf-8"))
    assert called[0] == "run"
    assert _option(called, "--disk") == ["100"]
    assert (tmp_path / "out").is_dir()  # made before it is mounted


def test_without_bubblewrap_the_refusal_names_the_container_option(tmp_path, monkeypatch, capsys):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake_engine(bin_dir, "podman")
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr(sandbox, "sandbox_available", lambda: "bwrap is not installed")
    (tmp_path / "subs").mkdir()
    argv = [str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--keys", str(tmp_path)]
    assert grade_cli.main(argv) == 2
    assert "--container podman" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_missing_engine_is_said(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    argv = [str(tmp_path), "--out", str(tmp_path / "out"), "--container", "docker"]
    assert grade_cli.main(argv) == 2
    assert "docker is not installed" in capsys.readouterr().err
