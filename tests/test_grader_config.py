"""The grader's configuration (:mod:`coursekit.grading.config`): built once from the command
line, every bad option refused with its name, and the one source of the sandbox limits and of
the options a container's grader is given."""

from __future__ import annotations

import argparse
import dataclasses
import pickle
from pathlib import Path

import pytest

from coursekit.grading import container, grade_cli, sandbox
from coursekit.grading.config import MIN_MEMORY_MB, GraderConfig


def _parsed(*more: str) -> argparse.Namespace:
    return grade_cli.parser().parse_args(["subs", "--out", "out", *more])


LIMITS = GraderConfig.limit_names()


@pytest.mark.parametrize(
    "argv, error, message",
    [
        *[
            ([f"--{n.replace('_', '-')}", "0"], ValueError, f"--{n.replace('_', '-')} must be")
            for n in LIMITS
            if n != "submission_timeout"
        ],
        *[
            ([f"--{n.replace('_', '-')}", "-3"], ValueError, f"--{n.replace('_', '-')} must be")
            for n in LIMITS
        ],
        (["--memory", str(MIN_MEMORY_MB - 1)], ValueError, f"at least {MIN_MEMORY_MB} MB"),
        (["--secret-file", "s"], ValueError, "--secret-file and --roster go together"),
        (["--id-from", "folder"], ValueError, "--id-from .*give --roster"),
        (["--container", "docker", "--unsafe-no-sandbox"], ValueError, "--container and --unsafe"),
        (
            ["--container", "docker", "--secret-file", "s", "--roster", "r", "--id-from", "map:x"],
            ValueError,
            "--id-from is not passed into a container",
        ),
    ],
)
def test_every_bad_option_is_refused_with_its_name(argv, error, message):
    with pytest.raises(error, match=message):
        GraderConfig.from_args(_parsed(*argv))


@pytest.mark.parametrize(
    "fields, error, message",
    [
        ({"jobs": True}, TypeError, "--jobs must be a positive integer"),
        ({"timeout": 1.5}, TypeError, "--timeout must be a positive integer"),
        ({"max_message_mb": "8"}, TypeError, "--max-message-mb must be"),
        ({"keys": None}, TypeError, "--keys must be a path"),
        ({"secret_file": 3, "roster": "r"}, TypeError, "--secret-file must be a path"),
        ({"unsafe_no_sandbox": "no"}, TypeError, "--unsafe-no-sandbox must be True or False"),
        ({"container": "lxc"}, ValueError, "--container must be one of docker, podman"),
        ({"id_from": 3, "roster": "r", "secret_file": "s"}, TypeError, "--id-from must be"),
    ],
)
def test_bad_values_given_directly_are_refused_with_the_option(fields, error, message):
    with pytest.raises(error, match=message):
        GraderConfig(**fields)


def test_from_args_refuses_what_is_not_options():
    with pytest.raises(TypeError, match="options must be an argparse.Namespace"):
        GraderConfig.from_args({"jobs": 2})


def test_the_cli_says_a_bad_option_and_stops(capsys):
    assert grade_cli.main(["subs", "--out", "out", "--cell-timeout", "0"]) == 2
    assert "--cell-timeout must be a positive integer" in capsys.readouterr().err


def test_the_parser_defaults_are_the_configs():
    parsed = GraderConfig.from_args(_parsed())
    assert dataclasses.replace(parsed, keys=GraderConfig().keys) == GraderConfig()


def test_the_limits_are_the_options():
    argv = ["--memory", "1500", "--processes", "33", "--timeout", "70", "--disk", "99"]
    config = GraderConfig.from_args(_parsed(*argv, "--judge-memory", "900"))
    kernel = config.kernel_limits()
    assert (kernel.memory_mb, kernel.processes, kernel.disk_mb) == (1500, 33, 99)
    assert kernel.wall_seconds == 70 + 15
    judge = config.judge_limits()
    assert (judge.memory_mb, judge.processes, judge.disk_mb) == (900, 33, 99)
    assert (judge.tmp_mb, judge.file_mb) == (sandbox.Limits.tmp_mb, sandbox.Limits.file_mb)
    unsafe = GraderConfig.from_args(_parsed("--unsafe-no-sandbox"))
    assert unsafe.kernel_limits() is None and unsafe.judge_limits() is None
    assert config.budget() == 70 + 120
    assert GraderConfig(submission_timeout=30).budget() == 30


def test_the_container_gets_every_numeric_option():
    numeric = [f.name for f in dataclasses.fields(GraderConfig) if f.type in ("int", int)]
    assert list(container.PLAIN_OPTIONS) == numeric == list(LIMITS)
    given = {name: index + 7 for index, name in enumerate(numeric)}
    config = GraderConfig(**{**given, "memory": 4000})
    assert config.container_options() == {**given, "memory": 4000}
    # each is accepted by container.command and passed on as its option
    command = container.command("docker", Path("/s"), Path("/o"), Path("/k"), given)
    inside = command[command.index(container.IMAGE) + 1 :]  # the container's grader's options
    for name, value in given.items():
        flag = f"--{name.replace('_', '-')}"
        assert inside[inside.index(flag) + 1] == str(value)
        assert grade_cli.parser().parse_args(["s", "--out", "o", flag, "5"]) is not None
    # 0 (the default) lets the container's grader compute the budget itself
    assert "submission_timeout" not in GraderConfig().container_options()


def test_a_config_pickles_and_is_frozen():
    config = GraderConfig.from_args(_parsed("--jobs", "3", "--secret-file", "s", "--roster", "r"))
    again = pickle.loads(pickle.dumps(config))
    assert again == config and again.secret_file == Path("s")
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.jobs = 4  # type: ignore[misc]
    assert GraderConfig.from_args(config) is config
