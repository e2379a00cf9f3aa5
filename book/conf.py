"""Sphinx configuration of the course's static HTML book (``make book``; see book/build.py).

The pages are the committed notebooks, read by myst-nb with their stored outputs: nothing is
executed and nothing is fetched while building (no intersphinx, no remote images, no widget
JavaScript). MathJax 3 comes from the ``sphinx-mathjax-offline`` package and is copied into the
book, so the pages show their formulas without a network too.

Two notebook outputs are adjusted for a static page (by :class:`StaticOutputs` below):

* an erratum box (``coursekit.views.display.Erratum``: its ``text/plain`` starts with
  ``ERRATUM``) is wrapped in ``<div class="coursekit-erratum">``, so it can be found and styled;
* a live ipywidget view cannot run without a kernel: it is replaced by a short note with the
  widget's name (in the book's language: :data:`WIDGET_NOTE`); the static view (figure and
  table) that each chapter shows next stays.

The French edition (``book/build.py --lang fr``) overrides ``language``: Sphinx and the themes
then write their own words in French, except the sidebar's search field, whose placeholder the
book theme takes from its own catalog (no French "Search" there): :func:`_search_placeholder`
takes it from Sphinx's.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.locale import _
from sphinx.transforms.post_transforms import SphinxPostTransform

project = "coursekit: evaluating information retrieval"
author = "The IR evaluation course kit authors"
copyright = "the IR evaluation course kit authors (MIT licence)"
language = "en"

extensions = [
    "myst_nb",
    "sphinx-mathjax-offline",  # MathJax 3 copied into _static/mathjax (no CDN)
]

root_doc = "index"
exclude_patterns = ["**.ipynb_checkpoints"]

# --- myst-nb: show the stored outputs, run nothing -------------------------------------------
nb_execution_mode = "off"
nb_ipywidgets_js: dict[str, dict[str, str]] = {}  # no require.js / html-manager from a CDN
nb_merge_streams = True
nb_output_stderr = "show"
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3

# --- strictness: book/build.py runs with -W --keep-going ---------------------------------------
nitpicky = True

# --- HTML -------------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "coursekit · evaluating information retrieval"
html_static_path = ["_static"]
html_css_files = ["coursekit-book.css"]
html_show_sourcelink = False
html_last_updated_fmt = None
html_search_language = "en"
html_theme_options = {
    "use_download_button": True,  # the .ipynb of each page, from the book itself
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "use_issues_button": False,
    "launch_buttons": {},
    "show_toc_level": 2,
    "navigation_with_keys": False,
    # pydata-sphinx-theme 0.20 adds a search field in a top bar unless told otherwise; the
    # book theme has its own in the sidebar
    "navbar_persistent": [],
}

ERRATUM_CLASS = "coursekit-erratum"
WIDGET_CLASS = "coursekit-widget"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: The note that stands for a live widget: its title, then the text after the widget's name.
WIDGET_NOTE = {
    "en": (
        "Interactive widget",
        " ({name}): it runs only in a live notebook (make lab). "
        "Its static view, as stored in the notebook, follows.",
    ),
    "fr": (
        "Widget interactif",
        " ({name}) : il ne fonctionne que dans un notebook en cours d'exécution (make lab). "
        "Sa vue statique, telle qu'enregistrée dans le notebook, suit.",
    ),
}


def _mime_types(bundle: nodes.Element) -> dict[str, nodes.Element]:
    return {child["mime_type"]: child for child in bundle.children if "mime_type" in child}


class StaticOutputs(SphinxPostTransform):
    """Mark erratum boxes and replace live widget views, before myst-nb picks one mime type
    of each output (its ``SelectMimeType`` post-transform, priority 4)."""

    default_priority = 3

    @staticmethod
    def _marked(mimes: dict[str, nodes.Element]) -> bool:
        """Whether the box's HTML already carries the class (display.Erratum writes it)."""
        return "text/html" in mimes and ERRATUM_CLASS in mimes["text/html"].astext()

    def run(self, **kwargs: Any) -> None:
        def is_bundle(node: nodes.Node) -> bool:
            return isinstance(node, nodes.container) and node.get("nb_element") == "mime_bundle"

        language = (self.config.language or "en").split("_")[0]
        for bundle in list(self.document.findall(is_bundle)):
            mimes = _mime_types(bundle)
            plain = mimes["text/plain"].astext().strip() if "text/plain" in mimes else ""
            if WIDGET_VIEW in mimes:
                title, text = WIDGET_NOTE.get(language, WIDGET_NOTE["en"])
                note = nodes.paragraph()
                note += nodes.strong(text=title)
                name = plain.split(" widget", 1)[0] if plain else "ipywidget"
                note += nodes.Text(text.format(name=name))
                bundle.replace_self(nodes.container("", note, classes=[WIDGET_CLASS]))
            elif plain.startswith("ERRATUM") and not self._marked(mimes):
                wrapper = nodes.container(classes=[ERRATUM_CLASS])
                bundle.replace_self(wrapper)
                wrapper += bundle


def _drop_widget_state(app, doctree) -> None:
    """myst-nb embeds the notebook's saved widget state (a large inert JSON script) in the page
    for the ipywidgets HTML manager; with no manager loaded it only weighs, so drop it."""
    metadata = getattr(app.env, "nb_metadata", {}).get(app.env.docname, {})
    metadata.get("js_files", {}).pop("ipywidgets_state", None)


def _search_placeholder(app, pagename, templatename, context, doctree) -> None:
    """The search field's placeholder in the book's language, from Sphinx's catalog (after the
    book theme's handler, which writes "Search..." whatever the language)."""
    if "search_bar_text" not in app.config.html_theme_options:
        context["theme_search_bar_text"] = _("Search") + "..."


def setup(app) -> dict[str, Any]:
    app.add_post_transform(StaticOutputs)
    app.connect("doctree-read", _drop_widget_state)
    app.connect("html-page-context", _search_placeholder, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
