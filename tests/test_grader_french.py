"""A French exercise notebook is graded exactly like the English one: its free-text answer is
found by its cell (the French placeholder left as given is no answer), and the French public
exercise handed in for a variant is recognised as the public exercise (its data cell differs
from the English one by its comments, and in chapter 10 by its layout)."""

from __future__ import annotations

import copy
import csv
import json
import os
from pathlib import Path

import pytest
from grader_support import run_grader

from coursekit.grading import freetext, grader, variants
from coursekit.grading.build import role
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
KEYS = ROOT / "solutions" / "keys"
CHAPTER = "03_ap_map"  # a free-text question, and a data cell with a French comment
QUESTION = (
    "**In your words.** Your q2 and the report's value differ only by their divisor. Which "
    "would\nyou report when comparing systems, and what does the other one fail to see?"
)
PLACEHOLDER = "*Écrivez votre réponse ici.*"
ANSWER = "La MAP divise par R\u202f: elle voit les documents pertinents jamais retrouvés."
MORE = "Un second paragraphe, dans une cellule ajoutée."
SECRET = b"a lecturer's secret of more than thirty-two bytes"
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)


def _read(folder: Path, chapter: str = CHAPTER) -> dict:
    return json.loads((folder / f"{chapter}.ipynb").read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _french(chapter: str = CHAPTER) -> dict:
    return _read(ROOT / "exercises" / "fr", chapter)


def _answered(notebook: dict, answer: str, more: str | None = None) -> dict:
    """``notebook`` with its French placeholder replaced by ``answer`` (and a markdown cell of
    the student's, with an id of its own, after it)."""
    notebook = copy.deepcopy(notebook)
    for i, cell in enumerate(notebook["cells"]):
        text = _source(cell)
        if cell["cell_type"] == "markdown" and text.endswith(PLACEHOLDER):
            cell["source"] = text.replace(PLACEHOLDER, answer)
            if more is not None:
                added = {"cell_type": "markdown", "id": "0a1b2c3d", "metadata": {}, "source": more}
                notebook["cells"].insert(i + 1, added)
            return notebook
    raise AssertionError("no French placeholder in the notebook")


def test_a_french_free_text_answer_is_found_by_its_cell():
    chapter = freetext.Chapter(ROOT / "solutions" / f"{CHAPTER}.ipynb", {})
    assert chapter.questions == {"text1": QUESTION}
    assert chapter.answers(_french()) == {"text1": ""}  # the French placeholder: not answered
    assert chapter.answers(_read(ROOT / "exercises")) == {"text1": ""}
    assert chapter.answers(_answered(_french(), ANSWER)) == {"text1": ANSWER}
    both = _answered(_french(), ANSWER, MORE)
    assert chapter.answers(both) == {"text1": f"{ANSWER}\n\n{MORE}"}
    for cell in both["cells"]:  # a notebook without ids: the French question's text
        cell.pop("id", None)
    assert chapter.answers(both) == {"text1": f"{ANSWER}\n\n{MORE}"}
    untouched = _french()
    for cell in untouched["cells"]:
        cell.pop("id", None)
    assert chapter.answers(untouched) == {"text1": ""}


@pytest.mark.parametrize("chapter", [CHAPTER, "10_users_online"])
def test_the_french_public_exercise_is_the_public_exercise_for_a_variant(chapter):
    """Chapter 03's French data cell differs by a comment; chapter 10's by its comments and
    the layout ruff gave the longer French lines (lists one item a line, a trailing comma)."""
    english, french = _read(ROOT / "exercises", chapter), _french(chapter)
    data = [[_source(c) for c in nb["cells"] if role(c) == "data"] for nb in (english, french)]
    assert data[0] != data[1]  # what this test is about: the French comments
    generators = {chapter: variants.key_generator(KEYS, chapter)}
    personal = variants.Personal(SECRET, ["s1001"], generators)
    key = grader.load_keys(KEYS)[chapter]
    expected = [
        "id mismatch: not a released variant (no student id in its metadata); graded on "
        "'s1001''s data",
        "id mismatch: the data cell is not the one released to 's1001': it is the public "
        "exercise's; graded on 's1001''s data",
    ]
    for notebook in (english, french):
        assert personal.key_for(notebook, f"s1001/{chapter}", chapter, key)[1] == expected


def test_a_french_exercise_graded_for_variants(tmp_path):
    """One run, with the secret and roster: s1 hands in the French public exercise with a
    free-text answer, s2 the French one untouched, s3 the English one untouched."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    handed = {"s1": _answered(_french(), ANSWER), "s2": _french(), "s3": _read(ROOT / "exercises")}
    for sid, notebook in handed.items():
        (subs / sid).mkdir(parents=True)
        (subs / sid / f"{CHAPTER}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    secret, roster = tmp_path / "secret", tmp_path / "roster.csv"
    secret.write_bytes(SECRET + b"\n")
    os.chmod(secret, 0o600)
    roster.write_text("id\ns1\ns2\ns3\n", encoding="utf-8")
    done = run_grader(
        subs, out, KEYS, "--roster", str(roster), "--secret-file", str(secret), *UNSAFE,
        cell_timeout=30,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "free_text.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["id"], r["chapter"], r["question"], r["text"], r["answer"]) for r in rows] == [
        ("s1", CHAPTER, "text1", QUESTION, ANSWER),
        ("s2", CHAPTER, "text1", QUESTION, ""),
        ("s3", CHAPTER, "text1", QUESTION, ""),
    ]
    with open(out / "grades.csv", encoding="utf-8") as f:
        grades = {r["id"]: r for r in csv.DictReader(f)}
    for sid in handed:
        public = (
            f"id mismatch: the data cell is not the one released to '{sid}': it is the public "
            f"exercise's; graded on '{sid}''s data"
        )
        assert public in grades[sid]["error"], (sid, grades[sid]["error"])
        assert "edited data" not in grades[sid]["error"]
    same = {sid: grades[sid]["error"].replace(f"'{sid}'", "'S'") for sid in handed}
    assert same["s2"] == same["s3"]  # the French public exercise: the English one's notes
