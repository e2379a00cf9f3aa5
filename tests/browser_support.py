"""What the real-browser tests and the browser benchmark share: Debian's Chromium, how a missing
browser is reported, and a JupyterLab server on 127.0.0.1 with a random token."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import IO

import pytest

#: Headless Chromium as root in a container, with no call home.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
#: Set by .ci/run: in CI a missing browser is a failure, not a skip.
REQUIRED = os.environ.get("COURSEKIT_REQUIRE_BROWSER") == "1"


def missing(what: str) -> None:
    """Skip the test for want of ``what``, or fail it where the browser tests are required."""
    if REQUIRED:
        pytest.fail(f"{what} (COURSEKIT_REQUIRE_BROWSER=1: the browser test must run)")
    pytest.skip(what)


def chromium() -> str:
    """The path of Debian's chromium (Playwright downloads no browser here)."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    missing("Debian's chromium is not installed (apt-get install chromium)")
    raise AssertionError  # unreachable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_lab(
    root: Path, log: IO[str] | int = subprocess.DEVNULL, env: Mapping[str, str] | None = None
) -> tuple[subprocess.Popen, str, str]:
    """JupyterLab serving ``root`` on 127.0.0.1 with a random token, no layout or settings of
    an earlier session; returns the process, the base URL and the token once it answers."""
    port, token = free_port(), secrets.token_hex(16)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={port}",
            "--ip=127.0.0.1",
            f"--ServerApp.token={token}",
            f"--ServerApp.root_dir={root}",
            "--ServerApp.allow_root=True",
            "--LabApp.expose_app_in_browser=True",
            "--JupyterNotebookApp.expose_app_in_browser=True",
            "--LabApp.news_url=",
            f"--LabApp.workspaces_dir={root / 'workspaces'}",
            f"--LabApp.user_settings_dir={root / 'settings'}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=root,
        env=dict(env) if env is not None else None,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                return process, base, token
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("JupyterLab did not start") from None
            time.sleep(0.3)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
