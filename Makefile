# Two commands do all the set-up on a fresh machine:
#   make lab   - create .venv, install coursekit with its `lab` extra, open the course in JupyterLab
#   make test  - create .venv if needed, install coursekit with its `test` extra, run every test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
NOTEBOOK_DIRS := notebooks solutions exercises
FRENCH_DIRS   := notebooks/fr exercises/fr

.PHONY: lab lab-check test lint nbval bench exercises clean book book-fr slides

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.lab: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[lab]"
	touch $@

$(VENV)/.test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,book]"
	touch $@

$(VENV)/.book: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[book]"
	touch $@

# The server's root is the course folder (notebooks/, exercises/, solutions/ all reachable),
# with chapter 00 open. As root (a container), Jupyter refuses to start without --allow-root:
#   make lab LAB_FLAGS=--allow-root
lab: $(VENV)/.lab
	$(BIN)/jupyter lab --ServerApp.root_dir=. $(LAB_FLAGS) notebooks/00_introduction.ipynb

# A chapter as a live slide deck for the lecture: make slides NB=05 (the chapter's number). Voila
# runs the notebook in a kernel and shows it with reveal.js, widgets live (jupyterlab-rise's slide
# view has no widget manager: jupyterlab-contrib/rise#119). 1280 x 720 slides, scaled by
# reveal.js to fill the screen (1.44 on a 1920 x 1080 projector); press F for full screen.
# No network needed. SLIDES_FLAGS go to Voila, e.g. SLIDES_FLAGS="--no-browser --port=8866".
# make slides NB=05 FR=1: the French edition's chapter (notebooks/fr/), the same slides.
# (Voila, unlike Jupyter, needs no --allow-root as root.)
NB ?= 00
# Every chapter run in the lab extra's environment alone (CI does it on a fresh .venv, before
# make test adds the test extra): a chapter importing what make lab does not install fails.
lab-check: $(VENV)/.lab
	$(BIN)/python tools/run_notebooks.py --check

slides: $(VENV)/.lab
	$(BIN)/python tools/slides.py --present $(NB) $(if $(FR),--french) $(SLIDES_FLAGS)

# One pytest run: unit, property and doctests, reference cross-checks, and nbval over the
# committed notebooks (nbval re-executes each notebook and compares with its stored outputs),
# the French ones of notebooks/fr/ and exercises/fr/ included (tests/test_translate.py:
# tools/translate.py check). The exercises, English and French, have no stored outputs: nbval
# runs them as students get them (every cell must run without error).
test: $(VENV)/.test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -p no:cacheprovider \
	    --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
	    tests coursekit $(wildcard $(addsuffix /*.ipynb,$(NOTEBOOK_DIRS) $(FRENCH_DIRS)))

lint: $(VENV)/.test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(VENV)/.test
	$(BIN)/python benchmarks/bench_evaluate.py

# The static HTML book of the course, from the committed notebooks as they are (nothing is run):
# every chapter notebooks/NN_*.ipynb, the exercises, an index and full-text search, offline.
# Sphinx + myst-nb (book/conf.py); warnings are errors. Open build/book/html/index.html.
book: $(VENV)/.book
	$(BIN)/python book/build.py build/book

# The French edition's book: the chapters of notebooks/fr/ (tools/translate.py build), Sphinx in
# French (its texts and search). Open build/book-fr/html/index.html.
book-fr: $(VENV)/.book
	$(BIN)/python book/build.py --lang fr build/book-fr

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
