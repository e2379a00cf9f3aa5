"""check() and the grader's feedback in French: the self-check speaks the notebook's language
(``ck.set_language("fr")``), the grader the submission's (``--lang fr``, or the notebook's
``metadata.coursekit.language``), each submission on its own; the lecturer's files stay English,
and a hidden case's French feedback still shows its label only.

The French expected here is written here, not read from the catalog."""

from __future__ import annotations

import asyncio
import csv
import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import nbformat
import polib
import pytest
from grader_support import run_grader

import coursekit as ck
from coursekit import i18n
from coursekit.grading import marking, selfcheck, session, variantcheck
from coursekit.grading.feedback_lines import not_graded
from coursekit.grading.function_judging import compare_outputs, timeout_output
from coursekit.grading.isolation import _death, over_budget
from coursekit.grading.ownership import flag_duplicates
from coursekit.grading.questions import DEFAULT_ATTEMPTS, PER_CASE, Choice, Function
from coursekit.grading.report import Grade, _html, feedback_name
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "01_precision_recall"
_spec = importlib.util.spec_from_file_location("translate", ROOT / "tools" / "translate.py")
translate = sys.modules.setdefault("translate", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(translate)
_keys_spec = importlib.util.spec_from_file_location(
    "translate_keys", ROOT / "tools" / "translate_keys.py"
)
translate_keys = importlib.util.module_from_spec(_keys_spec)
_keys_spec.loader.exec_module(translate_keys)

GRADING = {
    text: places
    for text, places in translate.marked_messages().items()
    if any(p.startswith("coursekit/grading/") for p in places)
}
FRENCH = {e.msgid: e.msgstr for e in polib.pofile(str(i18n.catalog_path("fr"))) if not e.obsolete}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    ck.set_language("en")


@pytest.fixture()
def chapter_01(monkeypatch, tmp_path):
    """The chapter-01 self-check, with the attempts' cache in a folder of the test's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(selfcheck, "_TRIED", {})
    monkeypatch.setattr(selfcheck, "_VERDICTS", {})
    monkeypatch.setitem(session.CURRENT, "chapter", CHAPTER)
    monkeypatch.setitem(session.CURRENT, "own", frozenset())
    monkeypatch.setitem(session.CURRENT, "variant", False)
    monkeypatch.setattr(session, "record", lambda *args: None)


def _key(chapter: str = CHAPTER) -> dict:
    from coursekit.grading.build import load_key

    return {q.qid: q for q in load_key(ROOT / "solutions" / "keys" / f"{chapter}.py")}


KEY = _key()
RIGHT_Q2 = KEY["q2"].expected
RECALL_NOT_PRECISION = KEY["q2"].mistakes[0].value  # "that is recall: ..."
ARITHMETIC_MEAN = KEY["q5"].mistakes[0].value  # "that is the arithmetic mean: ..."


# --------------------------------------------------------------------------------------------
# check()


def test_check_in_french_right_wrong_and_unanswered(chapter_01, capsys):
    ck.set_language("fr")
    selfcheck.check("q2", RIGHT_Q2)
    selfcheck.check("q2", RECALL_NOT_PRECISION)
    selfcheck.check("q3", ...)
    selfcheck.check("q7", 0.123456)
    selfcheck.check("q2", "a text")
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "q2 : réussi",
        "q2 : pas encore juste : c'est le rappel : la précision divise par les documents retrouvés",
        "q3 : pas encore répondu : remplacez ... par votre réponse",
        "q7 : pas encore juste (indice : une réponse vide : VP = FP = 0)",
        "q2 : on attend un nombre, reçu str",
    ]


def test_check_in_english_is_unchanged(chapter_01, capsys):
    selfcheck.check("q2", RIGHT_Q2)
    selfcheck.check("q2", RECALL_NOT_PRECISION)
    selfcheck.check("q3", ...)
    assert capsys.readouterr().out.splitlines() == [
        "q2: passed",
        "q2: not right yet: that is recall: precision divides by the retrieved ones",
        "q3: not answered yet: replace ... with your answer",
    ]


def test_progress_in_french_keeps_its_states(chapter_01, capsys):
    ck.set_language("fr")
    selfcheck.check("q2", RIGHT_Q2)
    selfcheck.check("q3", 0.0)
    capsys.readouterr()
    selfcheck.progress()
    out = capsys.readouterr().out
    assert out.startswith(f"Chapitre {CHAPTER}, selon les appels à check()")
    assert "q2   réussi" in out and "q3   pas encore juste" in out and "q4   pas répondu" in out
    assert "(questions réussies : 1 sur 10)" in out
    assert selfcheck._VERDICTS[CHAPTER]["q2"] == ("passed", 1.0)  # the state itself: English


def test_a_choice_counts_its_attempts_in_french(chapter_01, capsys):
    choice = next(q for q in KEY.values() if isinstance(q, Choice))
    wrong = [letter for letter in choice.options if letter != choice.expected]
    attempts = choice.attempts or min(DEFAULT_ATTEMPTS, len(choice.options) - 1)
    ck.set_language("fr")
    for letter in wrong[:attempts]:
        selfcheck.check(choice.qid, letter)
    selfcheck.check(choice.qid, wrong[0])  # the attempts are used up
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{choice.qid} : ce n'est pas celle-ci")
    assert lines[-1].startswith(f"{choice.qid} : vos ") and "essais sont épuisés" in lines[-1]
    assert selfcheck._VERDICTS[CHAPTER][choice.qid][0] == "attempts used up"


def test_a_function_in_french(chapter_01, capsys, tmp_path):
    path = tmp_path / "student_f.py"
    path.write_text("def f_measure(p, r, beta=1.0):\n    return 2 * p * r / (p + r)\n")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ck.set_language("fr")
    selfcheck.check("q10", module.f_measure)
    selfcheck.check("q10", ...)
    wrong, unanswered = capsys.readouterr().out.splitlines()[-2:]
    assert wrong.startswith("q10 : faux sur le cas « beta = 2 » (entrée : ")
    assert "votre fonction a renvoyé " in wrong and "qui n'est pas la valeur attendue" in wrong
    assert unanswered == "q10 : pas encore répondu : écrivez la fonction"


BANNER_FR = (
    f"Exercices du chapitre {CHAPTER} : exécutez chaque cellule check(...) après votre réponse."
)


def test_a_french_exercise_prints_its_start_banner_in_french():
    """The French exercise as a student runs it: its cells up to the set-up cell (the language
    cell comes first, so start() already speaks French)."""
    from nbclient import NotebookClient

    notebook = nbformat.read(ROOT / "exercises" / "fr" / f"{CHAPTER}.ipynb", as_version=4)
    setup = next(
        i for i, c in enumerate(notebook.cells) if c.metadata.get("coursekit", {}).get("role")
    )
    notebook.cells = notebook.cells[: setup + 1]
    assert notebook.cells[setup - 1].source.endswith('ck.set_language("fr")')
    client = NotebookClient(notebook, timeout=120, kernel_name="python3")
    client.execute(cwd=str(ROOT))
    out = "".join(o.get("text", "") for o in notebook.cells[setup].outputs)
    assert out.strip() == BANNER_FR


def test_start_speaks_the_language_set_before_it(chapter_01, capsys):
    ck.set_language("fr")
    selfcheck.start(CHAPTER)
    variantcheck.start(CHAPTER, {})
    ck.set_language("en")
    selfcheck.start(CHAPTER)
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        BANNER_FR,
        f"Exercices du chapitre {CHAPTER} sur vos propres données : check() dit si une réponse "
        "a le bon format et l'enregistre ; elle est jugée à la correction.",
        f"Exercises of chapter {CHAPTER}: run each check(...) cell after your answer.",
    ]


# --------------------------------------------------------------------------------------------
# The judge's words, the reasons and notes of our own


def test_the_judge_s_framing_in_french_keeps_the_exception_s_text():
    rows = [("a", "raised ValueError: Mine: p=0.5", 1.0)]
    with i18n.speaking("fr"):
        raised = compare_outputs("q4", rows, "", [[0.5]])
        timed = compare_outputs("q4", [("a", timeout_output(2), 1.0)], "", [[0.5]])
        hidden = compare_outputs("q4", [("caché : b", timeout_output(2), 1.0)], "", [None])
        big = "raised OverflowError: returned a whole number too large to compare"
        typed = compare_outputs("q4", [("a", "raised TypeError: returned a dict", 1.0)], "", [[1]])
        huge = compare_outputs("q4", [("a", big, 1.0)], "", [None])
    assert raised == (
        "q4 : sur le cas « a » (entrée : 0.5), votre fonction a levé ValueError : Mine: p=0.5"
    )
    assert timed == (
        "q4 : sur le cas « a » (entrée : 0.5), votre fonction a levé TimeoutError : a tourné "
        "plus de 2 s et a été arrêtée (une boucle sans fin ?)"
    )
    assert hidden == (
        "q4 : sur le cas « caché : b », votre fonction a levé TimeoutError : a tourné plus de "
        "2 s et a été arrêtée (une boucle sans fin ?)"
    )
    assert typed.endswith("votre fonction a levé TypeError : a renvoyé un objet dict")
    assert huge.endswith(
        "a levé OverflowError : a renvoyé un nombre entier trop grand pour être comparé"
    )
    english = compare_outputs("q4", rows, "", [[0.5]])
    assert (
        english == "q4: on the case 'a' (input: 0.5) your function raised ValueError: Mine: p=0.5"
    )


def test_our_reasons_for_not_grading_are_french_in_the_feedback_only():
    why = over_budget(90)
    assert why == "grading took longer than its budget of 90 s (reading, running and judging)"
    record = not_graded("q1", 1, why, "fr")
    assert record["message"] == (
        "q1 : non corrigé (la correction a pris plus que son budget de 90 s (lecture, "
        "exécution et jugement))"
    )
    assert record["message_en"] == f"q1: not graded ({why})"
    died = _death(-9, 2048, b"")
    assert died.startswith("grader error: the grading process of this submission died")
    assert not_graded("q1", 1, died, "fr")["message"] == (
        "q1 : non corrigé (erreur du correcteur : le processus qui corrigeait ce rendu est mort "
        "(tué par le signal 9, SIGKILL : sa limite de mémoire de 2048 Mo ?))"
    )
    notebook_error = "cell 3: NameError: name 'x' is not defined"  # not ours: as it is
    assert not_graded("q1", 1, notebook_error, "fr")["message"] == (
        f"q1 : non corrigé ({notebook_error})"
    )


def test_a_duplicate_s_note_is_french_for_a_french_student_only(tmp_path):
    class Owners:
        def owner(self, submission: str) -> str:
            return "s1"

    claire = Grade("01_a.ipynb", chapter=CHAPTER, language="fr")
    bob = Grade("01_b.ipynb", chapter=CHAPTER)
    for name in ("01_a.ipynb", "01_b.ipynb"):
        (tmp_path / name).write_text("{}")
    os.utime(tmp_path / "01_a.ipynb", (1, 1))
    found = [(tmp_path / n, n) for n in ("01_a.ipynb", "01_b.ipynb")]
    assert len(flag_duplicates([claire, bob], found, Owners())) == 2
    english = (
        "2 submissions for s1, ch 01: 01_a.ipynb, 01_b.ipynb; all graded, keep one: the last "
        "modified is 01_b.ipynb"
    )
    assert claire.error == bob.error == english  # the error column: English
    assert bob.notes == [english] and not bob.error_said
    french = (
        "2 rendus pour s1, chap. 01 : 01_a.ipynb, 01_b.ipynb ; tous corrigés, un seul sera "
        "gardé : le dernier modifié est 01_b.ipynb"
    )
    assert claire.notes == [french] and claire.error_said == french
    assert f"<b>Remarque :</b> {french}" in _html(claire) and english not in _html(claire)


# --------------------------------------------------------------------------------------------
# The catalog


@pytest.mark.parametrize("text", sorted(GRADING), ids=lambda t: t[:40])
def test_every_grading_message_has_its_french(text):
    assert FRENCH.get(text, "").strip(), f"{text!r} has no French: tools/translate.py messages"


def test_the_words_code_reads_back_keep_their_french_start():
    """A message is read back (passed, not answered yet, recorded, not this one) in the
    language it was made in: each template's French starts as the words' French does."""
    for words in ("{qid}: not answered yet", "{qid}: recorded", "{qid}: not this one"):
        french = FRENCH[words]
        for text in GRADING:
            if text.startswith(words):
                assert FRENCH[text].startswith(french), (text, FRENCH[text])
    assert FRENCH["{qid}: passed"] == "{qid} : réussi"


def test_the_language_is_chosen_per_task_and_never_leaks():
    async def speak(language: str, delay: float) -> list[str]:
        said = []
        with i18n.speaking(language):
            for _round in range(3):
                said.append(i18n._("recall"))
                await asyncio.sleep(delay)
        return said

    async def both() -> list[list[str]]:
        return await asyncio.gather(speak("fr", 0.01), speak("en", 0.013))

    assert asyncio.run(both()) == [["rappel"] * 3, ["recall"] * 3]
    assert i18n.language() == "en"


# --------------------------------------------------------------------------------------------
# The keys' texts


@pytest.mark.parametrize("chapter", ["01", "02", "03"])
def test_the_first_chapters_keys_are_in_french(chapter):
    key = next((ROOT / "solutions" / "keys").glob(f"{chapter}_*.py"))
    assert translate_keys.missing(key) == [], f"tools/translate_keys.py update {chapter}"


def test_a_key_text_without_french_stays_english():
    with i18n.speaking("fr"):
        assert i18n.key_text("a hint no catalog has") == "a hint no catalog has"
        assert i18n.key_text("relevant retrieved / retrieved") == "pertinents retrouvés / retrouvés"


# --------------------------------------------------------------------------------------------
# The grader: marking in French, a hidden case's label only

LEAKY = """def f_measure(p, r, beta=1.0):
    if p == 0.123456:
        raise ValueError(f"LEAK {p} {r} {p * 1000}")
    if p == 0.345678:
        return p * 1000
    return 2 * p * r / (p + r)
"""


@pytest.mark.parametrize("partial", [None, PER_CASE])
def test_a_hidden_case_in_french_shows_its_label_only(tmp_path, partial):
    question = Function(
        "q4",
        "f_measure",
        "coursekit:f_measure",
        [("equal", [0.5, 0.5])],
        hidden=[("tiny", [0.123456, 0.654321, 3.0]), ("odd", [0.345678, 0.876543])],
        points=1,
        partial=partial,
    )
    grade = Grade("alice.ipynb", chapter=CHAPTER, language="fr")
    answers = {"q4": {"chapter": CHAPTER, "qid": "q4", "source": LEAKY, "name": "f_measure"}}
    with i18n.speaking("fr"):
        asyncio.run(marking.mark(grade, [question], answers, tmp_path, 512, None))
    record = grade.questions["q4"]
    message = record["message"]
    assert "sur le cas « caché : tiny »" in message
    assert "a levé ValueError (le texte d'une erreur sur un cas caché n'est pas montré)" in message
    for text in ("0.123456", "0.654321", "123.456", "345.678", "LEAK"):
        assert text not in message and text not in record["message_en"], message
    assert record["message_en"].startswith("q4: ") and "hidden: tiny" in record["message_en"]
    page = _html(grade)
    assert "<th>commentaire</th>" in page and "LEAK" not in page


# --------------------------------------------------------------------------------------------
# The grader: a French notebook and an English classmate in one run, then --lang fr

UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)


#: q10's function, raising an error of its own on every case
RAISES = """def f_measure(p, r, beta=1.0):
    raise ValueError("mine: p and r")


check("q10", f_measure)"""
#: the mixed run's deadline: every submission is late (its file's time)
LATE = ["--deadline", "2000-01-01T00:00", "--late-penalty", "1/day"]


def _notebook(language: str | None) -> nbformat.NotebookNode:
    """A chapter-01 submission: q2 right, q1 and q5 wrong (q5: a key's common mistake), q3
    not answered, q10 a function that raises."""
    solution = nbformat.read(ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4)
    notebook = nbformat.v4.new_notebook(metadata=solution.metadata)
    if language:
        notebook.metadata["coursekit"] = {**notebook.metadata["coursekit"], "language": language}
    setup = nbformat.v4.new_code_cell(
        f'import coursekit as ck\nfrom coursekit.grading import check, start\n\nstart("{CHAPTER}")'
    )
    setup.metadata["coursekit"] = {"role": "setup"}
    cells = [setup]
    if language:
        cells.append(nbformat.v4.new_code_cell(f'ck.set_language("{language}")'))
    cells += [
        nbformat.v4.new_code_cell('check("q1", [1, 2, 3, 4])'),
        nbformat.v4.new_code_cell(f'check("q2", {RIGHT_Q2!r})'),
        nbformat.v4.new_code_cell(f'check("q5", {ARITHMETIC_MEAN!r})'),
        nbformat.v4.new_code_cell('check("q3", ...)'),
        nbformat.v4.new_code_cell(RAISES),
    ]
    notebook.cells = cells
    return notebook


def _feedback(out: Path, name: str) -> dict:
    return json.loads((out / "feedback" / f"{feedback_name(name)}.json").read_text())


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("lang")
    runs = {}
    for run, notebooks, extra in [
        ("mixed", {"01_claire.ipynb": "fr", "01_bob.ipynb": None}, LATE),
        ("forced", {"01_bob.ipynb": None}, ["--lang", "fr"]),
    ]:
        subs = base / run / "subs"
        subs.mkdir(parents=True)
        for name, language in notebooks.items():
            nbformat.write(_notebook(language), subs / name)
        done = run_grader(subs, base / run / "out", ROOT / "solutions" / "keys", *extra, *UNSAFE)
        assert done.returncode == 0, done.stderr[-2000:]
        runs[run] = base / run / "out"
    return runs


def _expected_french(feedback: dict) -> None:
    messages = {q: r["message"] for q, r in feedback["questions"].items()}
    assert messages["q2"] == "q2 : réussi"
    assert messages["q3"] == "q3 : pas encore répondu : remplacez ... par votre réponse"
    assert messages["q4"] == "q4 : pas répondu"
    assert messages["q1"].startswith("q1 : ")
    assert feedback["language"] == "fr"


def test_the_metadata_gives_french_feedback_and_the_classmate_stays_english(graded):
    out = graded["mixed"]
    claire, bob = _feedback(out, "01_claire"), _feedback(out, "01_bob")
    _expected_french(claire)
    assert claire["questions"]["q2"]["message_en"] == "q2: passed"
    assert bob["questions"]["q2"]["message"] == "q2: passed"
    assert bob["questions"]["q4"]["message"] == "q4: not answered"
    assert "language" not in bob and "message_en" not in bob["questions"]["q2"]
    page = (out / "feedback" / f"{feedback_name('01_claire')}.html").read_text()
    assert "<th>commentaire</th>" in page and "Chapitre 01_precision_recall" in page
    english = (out / "feedback" / f"{feedback_name('01_bob')}.html").read_text()
    assert "<th>feedback</th>" in english and "Chapter 01_precision_recall" in english


def test_the_key_s_hint_reaches_the_french_feedback(graded):
    claire = _feedback(graded["mixed"], "01_claire")
    french = claire["questions"]["q5"]["message"]
    assert french.startswith("q5 : pas encore juste : "), french
    assert "moyenne" in french  # the key's mistake, in French (chapter 01's catalog)


def test_the_lecturer_s_files_stay_english(graded):
    out = graded["mixed"]
    with open(out / "stats.csv", newline="") as f:
        rows = {row["question"]: row for row in csv.DictReader(f)}
    assert rows["q3"]["answered"] == "0" and rows["q2"]["answered"] == "2"
    assert rows["q3"]["top_mistake"] == ""  # "not answered" in either language
    assert rows["q5"]["top_mistake"].startswith("not right yet: ")
    assert rows["q5"]["top_mistake_count"] == "2"  # both students: one English line
    header = (out / "grades.csv").read_text().splitlines()[0]
    assert header.startswith("submission,id,chapter,q1,")


def test_lang_fr_gives_french_feedback_for_every_notebook(graded):
    _expected_french(_feedback(graded["forced"], "01_bob"))


def test_the_judge_s_framing_and_the_lateness_are_french_for_claire_only(graded):
    out = graded["mixed"]
    claire, bob = _feedback(out, "01_claire"), _feedback(out, "01_bob")
    french = claire["questions"]["q10"]["message"]
    assert french.startswith("q10 : sur le cas « ") and ", votre fonction a levé " in french
    assert "votre fonction a levé ValueError : mine: p and r (indice : " in french  # its text
    english = bob["questions"]["q10"]["message"]
    assert english.startswith("q10: on the case '") and "(input: " in english
    assert "your function raised ValueError: mine: p and r (hint: " in english, english
    assert claire["questions"]["q10"]["message_en"] == english
    # the lateness: English in grades.csv and the feedback's "late", French where Claire reads
    assert re.fullmatch(
        r"\d+ jours de retard \(rendu le [0-9T:+-]+, heure du fichier\) : -\d+ points "
        r"\(1/jour\)",
        claire["late_said"],
    ), claire["late_said"]
    assert re.fullmatch(
        r"\d+ days late \(submitted [0-9T:+-]+, file time\): -\d+ points \(1/day\)",
        claire["late"],
    )
    assert bob["late"].endswith("(1/day)") and "late_said" not in bob
    page = (out / "feedback" / f"{feedback_name('01_claire')}.html").read_text()
    assert f"<b>Rendu :</b> {claire['late_said']}" in page and "days late" not in page
    english_page = (out / "feedback" / f"{feedback_name('01_bob')}.html").read_text()
    assert f"<b>Handed in:</b> {bob['late']}" in english_page
    with open(out / "grades.csv", newline="") as f:
        lates = [row["late"] for row in csv.DictReader(f)]
    assert len(lates) == 2 and all(" days late (submitted " in late for late in lates), lates
