"""The French edition (tools/translate.py): the check ``make test`` runs, and how ``build``
turns an English notebook and its catalog into a French notebook (in memory: nothing executed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import polib
import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("translate", ROOT / "tools" / "translate.py")
translate = sys.modules.setdefault("translate", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(translate)


def test_the_french_edition_is_complete_and_fresh():
    """Every chapter in notebooks/fr/ has a complete catalog and is what build gives; the others
    are listed, not failed."""
    for edition in translate.EDITIONS:
        failures, notes = translate.check(edition)
        print("\n".join(notes))
        assert not failures, "\n".join(failures)


# --- a small chapter of our own ----------------------------------------------------------------

SETUP = "import coursekit as ck\nimport numpy as np"
CODE = 'x = np.arange(3)  # three ranks\nprint(f"{x.sum()} documents found")'
MARKDOWN = "## Three ranks\n\nWe count the documents."


@pytest.fixture
def edition(tmp_path):
    english = tmp_path / "notebooks"
    english.mkdir()
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["language_info"] = {"name": "python"}
    cells = [
        nbformat.v4.new_markdown_cell("# 01 · Ranks"),
        nbformat.v4.new_code_cell(SETUP),
        nbformat.v4.new_markdown_cell(MARKDOWN),
        nbformat.v4.new_code_cell(CODE),
        nbformat.v4.new_code_cell("x.max()"),  # nothing to translate: no entry
    ]
    for i, cell in enumerate(cells):
        cell.id = f"cell-{i:03d}"
    cell = cells[1]
    cell.metadata["slideshow"] = {"slide_type": "skip"}
    notebook.cells = cells
    nbformat.write(notebook, english / "01_ranks.ipynb")
    made = translate.Edition(english, tmp_path / "po", english / "fr")
    made.catalogs.mkdir()
    translate.update(english / "01_ranks.ipynb", made.catalogs / "01_ranks.po")
    return made


FRENCH = {
    "cell-000": "# 01 · Les rangs",
    "cell-002": "## Trois rangs\n\nNous comptons les documents.",
    "cell-003": 'x = np.arange(3)  # trois rangs\nprint(f"documents trouvés : {x.sum()}")',
}


def fill(edition, french=FRENCH, fuzzy=()):
    path = edition.catalogs / "01_ranks.po"
    po = polib.pofile(str(path), wrapwidth=0)
    for entry in po:
        entry.msgstr = french.get(entry.msgctxt, entry.msgstr)
        if entry.msgctxt in fuzzy:
            entry.flags.append("fuzzy")
    po.save(str(path))
    return path


def line_of(path, key):
    return next(e.linenum for e in polib.pofile(str(path)) if e.msgctxt == key)


def built(edition):
    english = edition.english / "01_ranks.ipynb"
    return translate.french_notebook(english, edition.catalog(english))


def test_a_setup_cell_comment_is_an_entry_and_plain_code_is_not(edition):
    keys = [e.msgctxt for e in polib.pofile(str(edition.catalogs / "01_ranks.po"))]
    assert keys == ["cell-000", "cell-002", "cell-003"]


def test_build_translates_cells_and_says_the_language(edition):
    fill(edition)
    notebook = built(edition)
    sources = [c.source for c in notebook.cells]
    assert sources == [
        FRENCH["cell-000"],
        SETUP,
        translate.LANGUAGE_CELL,
        FRENCH["cell-002"],
        FRENCH["cell-003"],
        "x.max()",
    ]
    language = notebook.cells[2]
    assert language.id == language.metadata["tags"][0] == "coursekit-language"
    assert language.metadata["slideshow"] == {"slide_type": "skip"}  # as the set-up cell
    assert notebook.metadata["coursekit"]["language"] == "fr"
    assert notebook.metadata["language_info"] == {"name": "python"}


def test_an_incomplete_chapter_is_not_translated_yet_and_does_not_fail(edition):
    fill(edition, {k: v for k, v in FRENCH.items() if k != "cell-002"})
    with pytest.raises(translate.CatalogError) as raised:
        built(edition)
    po_path = edition.catalogs / "01_ranks.po"
    assert raised.value.missing == [
        f"{po_path}:{line_of(po_path, 'cell-002')}: cell cell-002: not translated"
    ]
    failures, notes = translate.check(edition)
    assert failures == [] and notes == ["01_ranks: not translated yet (1 of 3 to do)"]


def write_french(edition):
    notebook = built(edition)
    edition.french.mkdir(exist_ok=True)
    nbformat.write(notebook, edition.french / "01_ranks.ipynb")


def test_a_built_chapter_passes_until_its_english_changes(edition):
    fill(edition)
    assert translate.check(edition) == (
        [],
        ["01_ranks: complete, not built yet: translate.py build 01"],
    )
    write_french(edition)
    assert translate.check(edition) == ([], [])
    # the English changes: the catalog is out of date, then (update) fuzzy
    path = edition.english / "01_ranks.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[2].source += " Again."
    nbformat.write(notebook, path)
    failures, _ = translate.check(edition)
    assert len(failures) == 1 and "cell cell-002: the English changed" in failures[0]
    po_path = edition.catalogs / "01_ranks.po"
    translate.update(path, po_path)
    failures, _ = translate.check(edition)
    assert failures == [
        f"{po_path}:{line_of(po_path, 'cell-002')}: cell cell-002: fuzzy: "
        "revise the French, then remove the fuzzy flag"
    ]


def test_a_french_notebook_that_differs_from_the_build_is_stale(edition):
    fill(edition)
    write_french(edition)
    fill(edition, {"cell-002": "## Trois rangs\n\nComptons les documents."})
    failures, _ = translate.check(edition)
    po_path = edition.catalogs / "01_ranks.po"
    assert failures == [
        f"{edition.french / '01_ranks.ipynb'} is stale (differs at cell cell-002 "
        f"({po_path}:{line_of(po_path, 'cell-002')})): translate.py build 01"
    ]


def test_a_french_notebook_without_english_fails(edition):
    fill(edition)
    write_french(edition)
    (edition.english / "01_ranks.ipynb").rename(edition.english / "02_other.ipynb")
    failures, _ = translate.check(edition)
    assert any("no English notebook 01_ranks.ipynb" in f for f in failures)


@pytest.mark.parametrize(
    ("french", "why"),
    [
        ('y = np.arange(3)  # trois rangs\nprint(f"{x.sum()} trouvés")', "`y` where the English"),
        ('x = np.arange(4)  # trois rangs\nprint(f"{x.sum()} trouvés")', "`4` where the English"),
        ('x = np.arange(3)\nprint(f"{x.max()} documents trouvés")', "formats other values"),
        ('x = np.arange(3)\nprint(b"documents")', "another prefix"),
        ('x = np.arange(3)\nprint(f"{x.sum()}"', "does not read as Python"),
        ('x = np.arange(3)\nprint(f"{x.sum()}")\nx.max()', "`x` where the English"),
    ],
)
def test_a_code_translation_may_change_only_comments_and_strings(edition, french, why):
    path = fill(edition, {**FRENCH, "cell-003": french})
    with pytest.raises(translate.CatalogError) as raised:
        built(edition)
    (wrong,) = raised.value.wrong
    assert wrong.startswith(f"{path}:{line_of(path, 'cell-003')}: cell cell-003: ")
    assert why in wrong


def test_comments_on_more_lines_and_fields_in_another_order_are_allowed(edition):
    french = '# trois\n# rangs\nx = np.arange(3)\nprint(f"trouvés : {x.sum()} (sur {x.sum()})")'
    assert translate.code_change(CODE, french) is not None  # x.sum() formatted twice
    french = '# trois\n# rangs\nx = np.arange(3)\nprint(f"trouvés : {x.sum()}")'
    assert translate.code_change(CODE, french) is None
    assert translate.code_change("f(a, 'b c')", "f(a,\n  'b d')") is None


def test_a_code_translation_is_formatted_by_ruff(edition):
    fill(
        edition, {**FRENCH, "cell-003": 'x = np.arange( 3 )  # trois rangs\nprint(f"{x.sum()} !")'}
    )
    assert (
        built(edition).cells[4].source == 'x = np.arange(3)  # trois rangs\nprint(f"{x.sum()} !")'
    )


def test_partial_build_keeps_english_cells(edition):
    fill(edition, {"cell-000": FRENCH["cell-000"]})
    english = edition.english / "01_ranks.ipynb"
    notebook = translate.french_notebook(english, edition.catalog(english), partial=True)
    assert notebook.cells[0].source == FRENCH["cell-000"] and notebook.cells[3].source == MARKDOWN
