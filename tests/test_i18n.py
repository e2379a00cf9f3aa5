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
import polib  # noqa: E402
import pytest  # noqa: E402

import coursekit as ck  # noqa: E402
from coursekit.views import i18n  # noqa: E402

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


def test_an_erratum_box_in_french_keeps_its_text_form():
    box = ck.display.erratum("slides", "MAP", 0.5, 0.4, "divides by 6")
    english = box._repr_html_()
    ck.set_language("fr")
    assert repr(box).startswith("ERRATUM (slides) MAP: printed 0.5")  # read by collect_errata
    french = box._repr_html_()
    assert "recalculé" in french and "recomputed" in english and french != english


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language"):
        ck.set_language("de")
    assert i18n.language() == "en"
