"""coursekit in French: every text ck.views draws has its French in coursekit's catalog, and
``ck.set_language`` switches figures, widgets and erratum boxes without changing a number."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polib  # noqa: E402
import pytest  # noqa: E402

import coursekit as ck  # noqa: E402
from coursekit import i18n  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("translate", ROOT / "tools" / "translate.py")
translate = sys.modules.setdefault("translate", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(translate)

CATALOG = i18n.catalog_path("fr")
MARKED = translate.marked_messages()
ENTRIES = {e.msgid: e for e in polib.pofile(str(CATALOG)) if not e.obsolete}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    ck.set_language("en")
    plt.close("all")


def test_the_views_mark_their_texts():
    assert "Precision-recall curve" in MARKED and "relevant in total" in MARKED
    assert len(MARKED) > 100


@pytest.mark.parametrize("text", sorted(MARKED), ids=lambda t: t[:40])
def test_every_marked_text_has_a_french_text(text):
    entry = ENTRIES.get(text)
    where = ", ".join(MARKED[text])
    assert entry is not None, f"{where}: {text!r} is not in {CATALOG}: tools/translate.py messages"
    assert entry.msgstr.strip(), f"{CATALOG}:{entry.linenum}: {text!r} has no French ({where})"
    assert "fuzzy" not in entry.flags, f"{CATALOG}:{entry.linenum}: fuzzy"
    fields = sorted(re.findall(r"\{\w*\}", text))
    assert sorted(re.findall(r"\{\w*\}", entry.msgstr)) == fields, (
        f"{CATALOG}:{entry.linenum}: the French must keep the fields {fields}"
    )


def test_the_catalog_holds_no_text_the_code_no_longer_marks():
    gone = sorted(set(ENTRIES) - set(MARKED))
    assert not gone, f"in {CATALOG} but marked nowhere: {gone}: tools/translate.py messages"


def test_english_is_the_default_and_needs_no_catalog():
    assert i18n.language() == "en"
    ax = ck.plots.pr_curve([1, 0, 1], 2)
    assert ax.get_title() == "Precision-recall curve"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("recall", "precision")
    assert ax.get_legend().get_texts()[0].get_text() == "system: P(k), R(k) rank by rank"


def test_a_figure_in_french():
    ck.set_language("fr")
    ax = ck.plots.pr_curve([1, 0, 1], 2)
    assert ax.get_title() == "Courbe rappel-précision"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("rappel", "précision")
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [
        "système : P(k), R(k) rang par rang",
        "système : interpolée",
        "les 11 niveaux",
    ]
    # a title the notebook gives (already French) is kept as it is
    assert ck.plots.pr_curve([1], 1, title="Ma courbe").get_title() == "Ma courbe"


def test_a_widget_in_french_keeps_its_values():
    from coursekit.views.widgets import SetBasedExplorer

    english = SetBasedExplorer()
    ck.set_language("fr")
    french = SetBasedExplorer()
    assert french.values == english.values  # same names and numbers: cells read them
    assert "précision = " in french.readout() and "précision" in french.readout_html.value
    assert french.sliders["tp"].description == "VP : pertinent, retrouvé"
    assert "SetBasedExplorer" in french._repr_mimebundle_()["text/plain"]
    assert "interactif" in french._repr_mimebundle_()["text/plain"]


def test_chapter_10s_widget_in_french_names_every_line_and_the_click_model():
    from coursekit.measures import CLICK_MODELS
    from coursekit.views.widgets.online import CLICK_MODEL_NAMES, OnlineExperiment

    assert CLICK_MODEL_NAMES == CLICK_MODELS  # every click model's name marked for the catalog
    rankings = {s: {"q1": ["d1", "d2"]} for s in ("a", "b")}
    options = {"max_sessions": 20, "n_sessions": 10, "click_model": "position-based"}
    english = OnlineExperiment(rankings, {"q1": {"d1": 1}}, **options)
    ck.set_language("fr")
    french = OnlineExperiment(rankings, {"q1": {"d1": 1}}, **options)
    assert list(french.values) == list(english.values)  # the names cells read stay English
    np.testing.assert_equal(list(french.values.values()), list(english.values.values()))
    assert french.model.value == "position-based" and french.model.label == "par position"
    lines = french.readout().splitlines()
    assert lines[0] == "A : a · B : b · clics par position"
    # every line in French: a number's name (as "A/B : z (B − A)") or a verdict
    labels = [line.split(" = ")[0] for line in lines[1:] if " = " in line]
    assert len(labels) == len(english.values)
    english_words = re.compile(r"\b(shown|wins|ties|interleaving)\b|\w:")  # ("A/B:", no space)
    assert not [label for label in labels if english_words.search(label)]
    assert "entrelacement : z (B − A)" in labels and "A/B : z (B − A)" in labels


def test_an_evaluation_and_the_readouts_named_at_a_rank_in_french():
    from coursekit.views.widgets import DiversityGrid, RecallOriented

    run, qrels = {"q": {"a": 1.0}, "r": {"a": 1.0}}, {"q": {"a": 1}, "r": {"a": 1}}
    two, one = ck.evaluate(run, qrels, ["AP"]), ck.evaluate({"q": {"a": 1.0}}, qrels, ["AP"])
    assert repr(two).startswith("Evaluation over 2 queries (mean):\n")
    assert repr(one).startswith("Evaluation over 1 query:\n")
    ck.set_language("fr")
    assert repr(two).startswith("Évaluation sur 2 requêtes (moyenne) :\n")
    assert repr(one).startswith("Évaluation sur 1 requête :\n")
    grid = DiversityGrid([[1, 0], [1, 1], [0, 1]], k=2)
    assert "ideal alpha-DCG@2" in grid.values  # the names cells read stay English
    text = grid.readout() + grid.readout_html.value
    for french in (
        "alpha-DCG@2 idéal",
        "gains de nouveauté par rang : ",
        "classement idéal (glouton)",
    ):
        assert french in text
    assert not re.search(r"\b(ideal|novelty|greedy)\b", text)
    recall = RecallOriented()
    assert "AP (à N_max) = " in recall.readout() and "AP (at N_max)" in recall.values


def test_an_erratum_box_in_french_is_french_as_html_and_as_text():
    def box():  # the label as a chapter makes it: the example's own place
        label = ck.course.example("labatut-iap").cite()
        return ck.display.erratum(label, "MAP", 0.5, 0.4, "divides by 6")

    english, english_text = box()._repr_html_(), repr(box())
    assert english_text == (
        "ERRATUM (Labatut, Partie 8 : Évaluation des performances (M2 slides), 2019, "
        "'Courbe de précision interpolée moyenne' (five queries, 20 ranks)) MAP: printed 0.5, "
        "recomputed 0.4. Cause: divides by 6"
    )  # (docs/errata.md is collected from this form of the English chapters)
    ck.set_language("fr")
    french, french_text = box()._repr_html_(), repr(box())
    assert french_text == (
        "ERRATUM (Labatut, Partie 8 : Évaluation des performances (transparents de M2), 2019, "
        "'Courbe de précision interpolée moyenne' (cinq requêtes, 20 rangs)) MAP : valeur "
        "publiée 0.5, valeur recalculée 0.4. Cause : divides by 6"
    )
    assert "recalculé" in french and "recomputed" in english
    assert "<b>MAP</b> : valeur publiée" in french and "<b>MAP</b>: printed" in english
    assert "(transparents de M2), 2019, &#x27;Courbe" in french and "cinq requêtes" in french
    # a place the notebook gives in French is shown as given
    assert ck.course.sources.cite("mor", "Tableau 1").endswith(
        "Mesure orientée rappel, 2015, Tableau 1"
    )
    # the full references too (a chapter's list of its sources)
    citation = ck.course.example("labatut-iap").citation
    assert "transparents de cours de M2 (en français)" in citation and "cinq requêtes" in citation
    assert ck.course.SOURCES["notes-it"].startswith("Notes de cours sur les mesures")


def test_the_short_citations_and_places_with_english_words_are_marked():
    from coursekit.course.sources import SHORT
    from coursekit.course.worked import EXAMPLES

    english = re.compile(r"\b(slides|notes|Italian|exercise|example|queries|ranks|systems)\b")
    for text in [*SHORT.values(), *(example.where for example in EXAMPLES)]:
        if english.search(text):
            assert text in MARKED, f"{text!r} is not marked N_(...): its box shows it in English"


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language"):
        ck.set_language("de")
    assert i18n.language() == "en"


#: Words of the English erratum box (and of its English labels) that no French box may show.
ENGLISH_IN_A_BOX = re.compile(
    r"\b(printed|recomputed|slides|queries|ranks|exercise|example|systems|Italian)\b|Cause:"
)


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks" / "fr").glob("[0-9][0-9]_*.ipynb")))
def test_the_french_chapters_erratum_boxes_are_french(path):
    import nbformat

    boxes = 0
    for cell in nbformat.read(path, as_version=4).cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "coursekit-erratum" not in data.get("text/html", ""):
                continue
            boxes += 1
            for kind in ("text/html", "text/plain"):
                found = ENGLISH_IN_A_BOX.search(data[kind])
                assert found is None, f"{path.name}, cell {cell.id}, {kind}: {found[0]!r}"
    if path.stem[:2] in {"01", "02", "03", "05", "06", "08", "09", "10"}:
        assert boxes, f"{path.name}: no erratum box found"


def test_the_glossary_is_headed_in_the_language_in_use():
    english = ck.course.glossary()
    assert (english.index.name, english.columns.tolist()) == (
        "English",
        ["French", "Italian", "chapter"],
    )
    ck.set_language("fr")
    french = ck.course.glossary()
    assert (french.index.name, french.columns.tolist()) == (
        "Anglais",
        ["Français", "Italien", "chapitre"],
    )
    assert french.loc["recall", "Français"] == "rappel"  # the rows themselves are unchanged
    # a French cell names the language as its table heads it; the English name still works
    assert ck.course.term("recall", "Français") == ck.course.term("recall", "French") == "rappel"
    assert ck.course.term("recall", "Italien") == english.loc["recall", "Italian"]
    ck.set_language("en")
    with pytest.raises(ValueError, match="unknown language 'Français': choose one of French"):
        ck.course.term("recall", "Français")


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks" / "fr").glob("[0-9][0-9]_*.ipynb")))
def test_the_french_chapters_tables_have_no_english_headings(path):
    import nbformat

    heading = re.compile(r"<th>(English|French|Italian|chapter)</th>")
    for cell in nbformat.read(path, as_version=4).cells:
        for output in cell.get("outputs", []):
            found = heading.search(output.get("data", {}).get("text/html", ""))
            assert found is None, f"{path.name}, cell {cell.id}: heading {found[1]!r}"


def _table_headings(path: Path) -> dict[str, set[str]]:
    """Each cell's table headings (``<th>``), glossary tables aside (their rows are the
    English terms, by design)."""
    import nbformat

    found = {}
    for cell in nbformat.read(path, as_version=4).cells:
        headings = set()
        for output in cell.get("outputs", []):
            html = output.get("data", {}).get("text/html", "")
            if "<th>Anglais</th>" in html or "<th>English</th>" in html:
                continue
            headings |= {h.strip() for h in re.findall(r"<th[^>]*>([^<]+)</th>", html)}
        found[cell.id] = headings
    return found


#: English headings a French chapter keeps: names coursekit, pandas or statsmodels give their
#: columns and that later code reads (precision, recall, relevant, verdict, F Value ...), data
#: fields (query_id, rank, score), measure names, run ids, subtopic names, Python names the
#: French text explains (early, late), and words that are French too (document, source).
KEPT_ENGLISH = {
    *("precision", "recall", "relevant", "retrieved", "accuracy", "doc", "verdict", "kappa"),
    *("rank", "run", "score", "relevance", "title", "sessions", "F Value", "t-test p"),
    *("Bonferroni p", "Holm p", "Rprec", "R-prec", "Rnorm", "bpref", "infAP", "ck.pres"),
    *("ck rho", "ck tau-b", "scipy rho", "scipy tau-b", "tau (5 runs)", "MAP tfidf", "tfidf"),
    *("bm25 vs tfidf", "tfidf − bm25", "burges", "jarvelin", "trec", "coursekit", "lambda"),
    *("drinking", "season", "source", "spa", "early", "late", "document", "documents"),
    *("copies", "gain G", "positions 1", "positions 2", "scores 1", "scores 2"),
}
_IDENTIFIER = re.compile(r".*[_@].*|[a-z]?\d+")


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks" / "fr").glob("[0-9][0-9]_*.ipynb")))
def test_the_french_chapters_tables_show_no_english_labels(path):
    """A heading a French chapter's table shares with the English chapter's same cell is a name
    (no three lowercase letters in a row, or a name with _ or @) or one of :data:`KEPT_ENGLISH`:
    the labels the chapters' code writes (« le moteur », « niveau de rappel ») are translated."""
    english = _table_headings(ROOT / "notebooks" / path.name)
    left = set()
    for cell, headings in _table_headings(path).items():
        for heading in headings & english.get(cell, set()):
            words = re.search(r"[a-z]{3}", heading)  # (nDCG, bm25, Num DF: names)
            if words and not _IDENTIFIER.fullmatch(heading) and heading not in KEPT_ENGLISH:
                left.add(f"{cell}: {heading!r}")
    assert not left, f"{path.name}: English labels in French tables: {sorted(left)}"


#: Words of English that French does not use: a printed line that holds one and reads the same
#: in a French chapter as in the English one is English the chapter forgot to translate.
_ENGLISH_WORDS = re.compile(
    r"\b(the|of|and|is|are|with|for|by|over|than|not|per|at|wins|shown|mean|better|queries|"
    r"query|ranking|ranks|relevant|judged|found|gains|ideal|greedy|users?|clicks?|every|each|"
    r"first|after|before|printed|given|level|interleaving)\b"
)
#: Printed lines a French chapter keeps in English: statsmodels' own summary, the topics' text
#: (data of the collection, in English).
KEPT_PRINTED = re.compile(r"\s*Multiple Comparison of Means|How are towns protected")


def _printed(path: Path) -> dict[str, set[str]]:
    """Each code cell's printed lines, and the text lines of the widgets' readouts (their
    saved state, a cell "widgets" of its own)."""
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    found = {}
    for cell in notebook.cells:
        text = "".join(o.get("text", "") for o in cell.get("outputs", []))
        found[cell.id] = set(text.splitlines())
    state = notebook.metadata.get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}
    )
    found["widgets"] = {
        label.strip()
        for model in state.get("state", {}).values()
        for label in re.findall(r">([^<>]+)<", str(model.get("state", {}).get("value", "")))
    }
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks" / "fr").glob("[0-9][0-9]_*.ipynb")))
def test_the_french_chapters_print_no_english_sentences(path):
    """What a French chapter prints (and its widgets' readouts show) reads differently from the
    English chapter's wherever it holds English words: ck.evaluate's header, the widgets'
    readout lines (« alpha-DCG@5 idéal », « entrelacement : z (B − A) »)."""
    english = _printed(ROOT / "notebooks" / path.name)
    left = set()
    for cell, lines in _printed(path).items():
        for line in lines & english.get(cell, set()):
            if _ENGLISH_WORDS.search(line) and not KEPT_PRINTED.match(line):
                left.add(f"{cell}: {line.strip()!r}")
    assert not left, f"{path.name}: English printed in the French chapter: {sorted(left)}"


def test_the_examples_notes_and_the_measures_list_in_french():
    example = ck.course.example("slides-11points")
    english = example.notes
    assert english.startswith("No ranking produces these points")
    assert "average precision" in ck.known_measures()
    ck.set_language("fr")
    assert example.notes.startswith("Aucun classement ne donne ces points")
    assert example.note == english  # (the field keeps the English as written)
    listing = ck.known_measures()
    assert "précision moyenne" in listing and "(requête par requête)" in listing
    assert "average precision" not in listing
    # an error is said in English, with the English list of measures
    with pytest.raises(ValueError, match="(?s)unknown measure 'APP'.*average precision"):
        ck.evaluate({"q": {"d": 1.0}}, {"q": {"d": 1}}, ["APP"])


def test_every_examples_note_has_a_french_text():
    ck.set_language("fr")
    noted = [example for example in ck.course.examples() if example.note]
    assert len(noted) >= 10
    for example in noted:
        assert example.notes != example.note, f"{example.key}: its note has no French"
