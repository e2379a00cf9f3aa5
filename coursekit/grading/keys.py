"""The answer keys of a run, by chapter, each loaded when first used (:class:`Keys`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from .build import load_key
from .questions import Choice, Function, Value


class Keys(Mapping[str, list]):
    """The answer keys of a folder by chapter, each run (:func:`.build.load_key`) when first
    asked for: a run grading one chapter does not pay for computing the others' answers.
    Every key file is compiled at once, so one with a syntax error stops the run before it
    starts; one that fails when run raises a RuntimeError for each submission of its chapter
    (a "grader error" in its row). The batch grader checks every key first, in a process of
    its own (:func:`.keycheck.check_keys_apart`), then loads here only the chapters it grades."""

    def __init__(self, keys_dir: Path) -> None:
        self._paths = {p.stem: p for p in sorted(Path(keys_dir).glob("[0-9][0-9]_*.py"))}
        if not self._paths:
            raise ValueError(f"no answer key (NN_topic.py) in {keys_dir}; pass --keys")
        for path in self._paths.values():
            compile(path.read_bytes(), str(path), "exec")
        self._loaded: dict[str, list[Value | Choice | Function] | str] = {}

    def __getitem__(self, chapter: str) -> list[Value | Choice | Function]:
        if chapter not in self._loaded:
            path = self._paths[chapter]  # KeyError for a chapter without a key
            try:
                self._loaded[chapter] = load_key(path)
            except Exception as error:  # noqa: BLE001 - said for every submission it concerns
                self._loaded[chapter] = f"{type(error).__name__}: {error}"
        key = self._loaded[chapter]
        if isinstance(key, str):
            raise RuntimeError(f"the answer key {self._paths[chapter].name} fails: {key}")
        return key

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


def load_keys(keys_dir: Path) -> Keys:
    """Every answer key of ``keys_dir`` by chapter (``01_precision_recall`` ...), each loaded
    when first used."""
    return Keys(keys_dir)
