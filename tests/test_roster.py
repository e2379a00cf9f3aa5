"""Reading a roster (coursekit.grading.roster): the CSV files lecturers have, and bad headers."""

from __future__ import annotations

from pathlib import Path

import pytest

from coursekit.grading import roster as rosters
from coursekit.grading import variants
from coursekit.grading.config import GraderConfig


def _file(tmp_path: Path, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / "roster.csv"
    path.write_bytes(text.encode(encoding))
    return path


def test_excel_csv_utf8_with_a_bom_and_semicolons(tmp_path):
    path = _file(tmp_path, "\ufeffid;name;email\r\ns1001;Doe, Jane;jane@uni.edu\r\ns1002;Lee;\r\n")
    got = rosters.read(path)
    assert got.ids == ("s1001", "s1002")
    assert got.id_column == "id"  # the BOM is not part of the header
    assert got.columns == ("name", "email")
    assert got.rows == (
        {"name": "Doe, Jane", "email": "jane@uni.edu"},
        {"name": "Lee", "email": ""},
    )
    assert variants.read_roster(path) == ["s1001", "s1002"]


def test_a_moodle_export_takes_its_id_number_before_its_username(tmp_path):
    text = (
        "First name,Surname,ID number,Username,Email address\n"
        "Jane,Doe,21903456,jdoe,jane@uni.edu\n"
        "Li,Wei,21907777,lwei,li@uni.edu\n"
    )
    got = rosters.read(_file(tmp_path, text))
    assert got.id_column == "ID number"
    assert got.ids == ("21903456", "21907777")
    assert got.columns == ("First name", "Surname", "Username", "Email address")
    assert got.value("21907777", "Username") == "lwei"
    assert got.column("email") == "Email address"


def test_username_with_a_tab_and_student_id_spelt_otherwise(tmp_path):
    got = rosters.read(_file(tmp_path, "Name\tUserName\nJane\tjdoe\nLi\tlwei\n"))
    assert (got.id_column, got.ids) == ("UserName", ("jdoe", "lwei"))
    got = rosters.read(_file(tmp_path, "Student_ID,Section\nA1,L1\nB2,L2\n"))
    assert (got.id_column, got.ids, got.rows[1]) == ("Student_ID", ("A1", "B2"), {"Section": "L2"})


def test_an_email_column_gives_email_ids(tmp_path):
    got = rosters.read(_file(tmp_path, "name,email\nJane,jane@uni.edu\n"))
    assert got.ids == ("jane@uni.edu",)


def test_a_roster_without_a_header_is_one_column_of_ids(tmp_path):
    assert rosters.read(_file(tmp_path, "s1001\ns1002\n\n")).ids == ("s1001", "s1002")


@pytest.mark.parametrize(
    "text, message",
    [
        ("name,section\nJane,L1\n", r"roster.csv:1: no id column among 'name', 'section'"),
        ("Student\nalice\n", r"roster.csv:1: no id column among 'Student'"),
        ("ID,id\n1,2\n", r"roster.csv:1: two id columns 'ID', 'id'"),
        ("id\ns1\n\ns1\n", r"roster.csv:4: the student id 's1' appears twice \(line 2\)"),
        ("id,name\ns1,A\n,B\n", r"roster.csv:3: no student id in column 'id'"),
        ("id\n../etc\n", r"roster.csv:2: '../etc' is not a student id"),
        ("id\njane@uni.edu\n", r"roster.csv:2: 'jane@uni.edu' is not a student id"),
        ("id\n", r"a roster without students"),
        ("\n\n", r"an empty roster"),
    ],
)
def test_bad_rosters_are_refused_with_the_line(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        rosters.read(_file(tmp_path, text))


def test_a_roster_that_is_not_utf8_says_so(tmp_path):
    with pytest.raises(ValueError, match="not UTF-8 text"):
        rosters.read(_file(tmp_path, "id,name\ns1,Bérénice\n", encoding="latin-1"))


def test_the_separator_is_the_most_frequent_outside_quotes():
    assert rosters.separator('"Doe, Jane";id') == ";"
    assert rosters.separator("a\tb;c\td") == "\t"
    assert rosters.separator("id") == ","


def test_roster_alone_is_accepted_and_the_secret_still_needs_it():
    assert GraderConfig(roster=Path("r.csv")).roster == Path("r.csv")
    with pytest.raises(ValueError, match="--secret-file and --roster go together"):
        GraderConfig(secret_file=Path("s"))


def test_owners_follow_the_id_rule(tmp_path):
    owners = rosters.read(_file(tmp_path, "id\ns1\ns2\n")).owners(None)
    assert owners.owner("s2/01_precision_recall") == "s2"
    with pytest.raises(ValueError, match="not in a student's folder"):
        owners.owner("01_precision_recall")
