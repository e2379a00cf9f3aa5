"""Whose a submission is, and graded variants that never grade silently (issue 33, 3 to 5).

The owner of a submission comes from where it lies (``--id-from``: its top folder, a pattern of
its path, or an LMS's mapping), never from the notebook; a path naming two roster ids is
refused; two files of one student for one chapter are flagged in both rows. A variant is graded
only with the secret and roster, and only as "its own" when its data cell is the one released
to its owner. The secret is made with mode 0600 and what the grader writes is the lecturer's
only. No notebook is run here (every refusal happens before a kernel starts).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import pickle
import stat
from pathlib import Path

import nbformat
import pytest

from coursekit.grade import main as grade_main
from coursekit.grading import grader, report, variants
from coursekit.grading.grade_cli import parser
from coursekit.grading.ownership import IdRule, flag_duplicates, named_ids

ROOT = Path(__file__).resolve().parents[1]
KEYS_DIR = ROOT / "solutions" / "keys"
CHAPTER = "01_precision_recall"
SECRET = b"a lecturer's secret of more than thirty-two bytes"
ROSTER = ["s1001", "s1002", "s1003"]
GENERATOR = variants.key_generator(KEYS_DIR, CHAPTER)


def _personal(secret: bytes = SECRET, rule: IdRule | None = None) -> variants.Personal:
    return variants.Personal(secret, ROSTER, {CHAPTER: GENERATOR}, rule)


def _variant(student: str, secret: bytes = SECRET) -> dict:
    """``student``'s released exercise notebook, as the grader reads it (JSON)."""
    notebook = nbformat.read(ROOT / "exercises" / f"{CHAPTER}.ipynb", as_version=4)
    variants.personalise(notebook, CHAPTER, student, GENERATOR, secret)
    return json.loads(nbformat.writes(notebook))


def _public() -> dict:
    return json.loads((ROOT / "exercises" / f"{CHAPTER}.ipynb").read_text(encoding="utf-8"))


def _expected(question):
    """A question's expected value (a function question has none: its name)."""
    return getattr(question, "expected", question.qid)


# --- the rule --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, owner",
    [("s1002/01_precision_recall", "s1002"), ("s1003/week 1/01_precision_recall", "s1003")],
)
def test_the_folder_rule_reads_the_top_folder(name, owner):
    assert IdRule.parse(None).owner(name, ROSTER) == owner
    assert IdRule.parse("folder").owner(name, ROSTER) == owner


@pytest.mark.parametrize(
    "name, why",
    [
        ("01_precision_recall s1001", "not in a student's folder"),
        ("s9999/01_precision_recall", r"'s9999' \(--id-from folder\) is not an id of the roster"),
        ("lms/01_precision_recall s1001", r"'lms' \(--id-from folder\) is not an id of the roster"),
        ("s1002/01_precision_recall s1001", r"several student ids \(s1002, s1001\)"),
        ("s1002/s1001/01_precision_recall", r"several student ids \(s1002, s1001\)"),
    ],
)
def test_the_folder_rule_refuses_a_path_it_cannot_trust(name, why):
    with pytest.raises(ValueError, match=f"not graded: .*{why}"):
        IdRule.parse("folder").owner(name, ROSTER)


def test_the_ids_a_path_names_are_whole_tokens():
    roster = ["alice", "alice.b", "bob"]
    assert named_ids("alice.b/01_precision_recall", roster) == ["alice.b"]
    assert named_ids("alice.b/01 alice", roster) == ["alice", "alice.b"]
    assert named_ids("malice/bobby_01", roster) == []
    assert named_ids("x/01_bob-final", roster) == ["bob"]


def test_the_name_rule_takes_its_group_from_the_path():
    rule = IdRule.parse(r"name:_(s\d{4})\.ipynb$")
    assert rule.owner("lms/01_precision_recall_s1003", ROSTER) == "s1003"
    folders = IdRule.parse(r"name:^[^/]*_(\d+)_assignsubmission")
    assert folders.owner("Ann Lee_1002_assignsubmission_file_/nb", ["1001", "1002"]) == "1002"
    with pytest.raises(ValueError, match="does not match --id-from name:"):
        rule.owner("lms/01_precision_recall", ROSTER)
    with pytest.raises(ValueError, match="several student ids"):
        rule.owner("s1001/01_precision_recall_s1003", ROSTER)


@pytest.mark.parametrize(
    "text, why",
    [
        ("name:s\\d+", "exactly one group .*not 0"),
        ("name:(s)(\\d+)", "exactly one group .*not 2"),
        ("name:(s", "not a regular expression"),
        ("name:", "one of folder, name:REGEX, map:FILE.csv"),
        ("path:(s\\d+)", "one of folder, name:REGEX, map:FILE.csv"),
    ],
)
def test_a_bad_rule_is_refused(text, why):
    with pytest.raises(ValueError, match=f"--id-from .*{why}"):
        IdRule.parse(text)


def test_the_map_rule_reads_an_lms_export(tmp_path):
    path = tmp_path / "map.csv"
    path.write_text(
        "File,ID\n"
        "export/Ann Lee_991/01_precision_recall.ipynb,s1001\n"
        "Bo Chen 01.ipynb,s1002\n"
        "export\\Cy Diaz_993\\notebook,s1003\n",
        encoding="utf-8",
    )
    rule = IdRule.parse(f"map:{path}")
    assert rule.owner("export/Ann Lee_991/01_precision_recall", ROSTER) == "s1001"
    assert rule.owner("export/Bo Chen_992/Bo Chen 01", ROSTER) == "s1002"  # by file name
    assert rule.owner("export/Cy Diaz_993/notebook", ROSTER) == "s1003"
    with pytest.raises(ValueError, match="not in the --id-from map:.* mapping"):
        rule.owner("export/Di Eng_994/01_precision_recall", ROSTER)
    with pytest.raises(ValueError, match=r"ids not on the roster: s1003"):
        variants.Personal(SECRET, ["s1001", "s1002"], {}, rule)


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "an empty file"),
        ("a.ipynb,s1001\na.ipynb,s1002\n", "line 2: 'a.ipynb' is mapped to 's1001' and to 's1002'"),
        ("a.ipynb,../x\n", "line 1: '../x' is not a student id"),
        ("id,name,email\ns1001,Ann,a@x\n", "no submission column"),
        ("file,id\na.ipynb,\n", "line 2: a submission and an id needed"),
    ],
)
def test_a_bad_map_is_refused(tmp_path, text, why):
    (tmp_path / "map.csv").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=f"--id-from map:.*{why}"):
        IdRule.parse(f"map:{tmp_path / 'map.csv'}")


# --- two files of one student ----------------------------------------------------------------


def test_two_files_for_one_student_and_chapter_are_flagged_in_both_rows(tmp_path):
    names = {
        "s1001/01_precision_recall": 1_000,
        "s1001/copy/01_precision_recall": 3_000,  # the last modified
        "s1001/01_precision_recall (2)": 2_000,
        "s1001/02_curves_interpolation": 500,  # another chapter
        "s1002/01_precision_recall": 500,
        "s1003 s1001/01_precision_recall": 500,  # refused already: not counted
    }
    found, grades = [], []
    for name, mtime in names.items():
        path = tmp_path / f"{name}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
        os.utime(path, (mtime, mtime))
        found.append((path, name))
        grades.append(report.Grade(name, chapter=name.rsplit("/", 1)[1].split(" ")[0]))
    grades[2].error = "cell 3: NameError"
    changed = flag_duplicates(grades, found, _personal())
    message = (
        "3 submissions for s1001, ch 01: s1001/01_precision_recall, "
        "s1001/copy/01_precision_recall, s1001/01_precision_recall (2); all graded, keep one: "
        "the last modified is s1001/copy/01_precision_recall"
    )
    assert changed == grades[:3]
    assert [g.error for g in grades] == [message, message, f"{message}; cell 3: NameError"] + [
        ""
    ] * 3
    assert all(g.notes == [message] for g in grades[:3])
    assert flag_duplicates(grades, found, None) == []  # no roster: no owners to compare


# --- a variant is graded with its owner's secret and data only ------------------------------


def test_a_variant_without_the_secret_is_not_graded():
    with pytest.raises(ValueError, match="^a personal variant: grade it with --secret-file and"):
        variants.questions_for(None, _variant("s1001"), f"s1001/{CHAPTER}", CHAPTER, [])
    key = grader.load_keys(KEYS_DIR)[CHAPTER]
    assert variants.questions_for(None, _public(), CHAPTER, CHAPTER, key) == (key, [])


def test_the_owners_own_variant_has_no_note():
    key = grader.load_keys(KEYS_DIR)[CHAPTER]
    questions, notes = _personal().key_for(_variant("s1002"), f"s1002/{CHAPTER}", CHAPTER, key)
    assert notes == []
    expected = {q.qid: q for q in variants.variant(GENERATOR, SECRET, CHAPTER, "s1002")[1]}
    assert [_expected(q) for q in questions] == [_expected(expected[q.qid]) for q in key]


@pytest.mark.parametrize(
    "notebook, secret, why",
    [
        (lambda: _variant("s1001"), b"another secret, also more than 32 bytes", "wrong --secret"),
        (lambda: _variant("s1002"), SECRET, "it is the one released to 's1002' (a classmate's"),
        (lambda: _public(), SECRET, "it is the public exercise's"),
    ],
)
def test_a_data_cell_not_released_to_the_owner_is_an_error(notebook, secret, why):
    key = grader.load_keys(KEYS_DIR)[CHAPTER]
    _, notes = _personal(secret).key_for(notebook(), f"s1001/{CHAPTER}", CHAPTER, key)
    data = [n for n in notes if "data cell" in n]
    assert len(data) == 1 and data[0].startswith(
        "id mismatch: the data cell is not the one released to 's1001': "
    )
    assert why in data[0] and data[0].endswith("graded on 's1001''s data")


def test_an_edited_data_cell_is_an_error():
    notebook = _variant("s1001")
    cell = next(c for c in notebook["cells"] if "".join(c["source"]).startswith("n_docs = "))
    cell["source"] = "".join(cell["source"]).replace("n_docs = ", "n_docs = 1 + ", 1)
    key = grader.load_keys(KEYS_DIR)[CHAPTER]
    _, notes = _personal().key_for(notebook, f"s1001/{CHAPTER}", CHAPTER, key)
    assert notes == [
        "id mismatch: the data cell is not the one released to 's1001': wrong --secret-file, "
        "or edited data; graded on 's1001''s data"
    ]


def _options(**more) -> argparse.Namespace:
    return argparse.Namespace(max_notebook_mb=20, submission_timeout=0, timeout=60, **more)


@pytest.mark.parametrize(
    "name, personal, error",
    [
        (f"s1001/{CHAPTER}", None, variants.VARIANT_NEEDS_SECRET),
        (f"s1001/{CHAPTER} s1002", _personal(), "not graded: its path names several student ids"),
        (f"{CHAPTER} s1001", _personal(), "not graded: not in a student's folder"),
    ],
)
def test_the_grader_refuses_before_running_anything(tmp_path, name, personal, error):
    path = tmp_path / f"{name}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(_variant("s1001")), encoding="utf-8")
    keys = grader.load_keys(KEYS_DIR)
    grade = asyncio.run(grader.grade_one(path, name, keys, _options(personal=personal)))
    assert grade.error.startswith(error) and grade.chapter == CHAPTER
    assert grade.total == 0 and grade.max == sum(q.points for q in keys[CHAPTER]) > 0


def test_id_from_needs_a_roster_and_a_valid_rule(tmp_path):
    (tmp_path / "subs").mkdir()
    secret = tmp_path / "secret"
    secret.write_bytes(SECRET)
    secret.chmod(0o600)
    (tmp_path / "roster.csv").write_text("id\n" + "\n".join(ROSTER) + "\n")
    base = [str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--keys", str(KEYS_DIR)]
    base.append("--unsafe-no-sandbox")
    options = parser().parse_args([*base, "--id-from", "name:(s\\d+)"])
    with pytest.raises(ValueError, match="--id-from .*give --roster"):
        grader.grade_folder(tmp_path / "subs", tmp_path / "out", options)
    private = ["--secret-file", str(secret), "--roster", str(tmp_path / "roster.csv")]
    options = parser().parse_args([*base, *private, "--id-from", "name:s\\d+"])
    with pytest.raises(ValueError, match="exactly one group"):
        grader.grade_folder(tmp_path / "subs", tmp_path / "out", options)
    assert not (tmp_path / "out").exists()


def test_the_personal_part_crosses_to_a_worker_process(tmp_path):
    secret = tmp_path / "secret"
    secret.write_bytes(SECRET)
    secret.chmod(0o600)
    (tmp_path / "roster.csv").write_text("id\n" + "\n".join(ROSTER) + "\n")
    personal = variants.Personal.load(
        secret, tmp_path / "roster.csv", None, [CHAPTER], KEYS_DIR, r"name:(s\d{4})/"
    )
    copy = pickle.loads(pickle.dumps(personal))
    key = grader.load_keys(KEYS_DIR)[CHAPTER]
    name = f"s1003/{CHAPTER}"
    assert copy.key_for(_variant("s1003"), name, CHAPTER, key)[1] == []
    ours, theirs = (p.key_for(_variant("s1003"), name, CHAPTER, key)[0] for p in (personal, copy))
    assert [_expected(q) for q in ours] == [_expected(q) for q in theirs]


# --- the secret and the files written are the lecturer's -------------------------------------


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_the_secret_command_makes_a_private_strong_secret(tmp_path, umask_022, capsys):
    first, second = tmp_path / "SECRET", tmp_path / "OTHER"
    assert grade_main(["secret", str(first)]) == 0
    assert grade_main(["secret", str(second)]) == 0
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    text = first.read_bytes()
    assert len(base64.b64decode(text.strip(), validate=True)) == 32
    assert variants.read_secret(first) == text.strip() != variants.read_secret(second)
    capsys.readouterr()
    assert grade_main(["secret", str(first)]) == 2  # never over a file
    assert "exists: a secret is never overwritten" in capsys.readouterr().err
    assert first.read_bytes() == text


def test_what_is_written_is_readable_by_its_owner_only(tmp_path, umask_022):
    tmp_path.chmod(0o755)
    target = tmp_path / "a" / "b" / "grades.csv"
    stale = target.with_name("grades.csv.tmp")
    report.write(target, "first\n")
    stale.write_text("left by an interrupted run")
    stale.chmod(0o644)
    report.write(target, "second\n")
    assert target.read_text() == "second\n" and not stale.exists()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    for folder in (tmp_path / "a", tmp_path / "a" / "b"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o755  # an existing folder is left alone
