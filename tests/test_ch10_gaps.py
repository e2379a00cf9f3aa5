"""Chapter 10's teaching gaps (issue 36, item 2), checked against computations by hand.

- the cell split: section 4 starts after the fairness cells of section 3, right before the
  position-bias numbers its paragraph introduces;
- the two click models: coursekit's simulated clicks against each model's formula, computed
  here rank by rank, and the numbers the chapter prints and states;
- the A/B metrics: the exact expected CTR and reciprocal rank of the first click of the
  chapter's position-based users on both systems, hence the sessions each metric needs;
- the team-draft exercise (q4): the key's list against a team draft written here;
- the multiple-choice hints: none repeats its options' words.
"""

from __future__ import annotations

import re

import nbformat
import numpy as np
import pytest
from exercise_support import ROOT, load_key
from scipy import stats

import coursekit as ck
from coursekit import course

CHAPTER = "10_users_online"
NOTEBOOK = ROOT / "notebooks" / f"{CHAPTER}.ipynb"
FRENCH = ROOT / "notebooks" / "fr" / f"{CHAPTER}.ipynb"
# The chapter's ranking of section 1 (rank 7 unjudged) and its position-based users.
GRADES = [3, 0, 2, 0, 1, 0, None, 2, 0, 0]
MAX_GRADE = 3
ATTRACTIVENESS = (0.05, 0.3, 0.6, 0.9)


def _cells(path=NOTEBOOK):
    return nbformat.read(path, as_version=4).cells


def _text(cell) -> str:
    """The printed and displayed plain text of a code cell."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(o["text"])
        elif "data" in o:
            out.append(o["data"].get("text/plain", ""))
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# The split of cell 3edbd4f1


@pytest.mark.parametrize("path", [NOTEBOOK, FRENCH], ids=["en", "fr"])
def test_section_4_starts_after_the_fairness_cells(path):
    cells = _cells(path)
    ids = [c.id for c in cells]
    fairness = cells[ids.index("3edbd4f1")].source
    assert "## 4" not in fairness
    # the fairness question is a cell of its own (a slide of the deck): right after the text
    # on the sessions needed
    question = ids.index("fairness-question")
    assert cells[question].source.startswith("### ")
    assert ids.index("3edbd4f1") < question < ids.index("pitfalls")
    heading = ids.index("pitfalls")
    assert cells[heading].source.startswith("## 4 · ")
    assert cells[heading].source.rstrip().endswith(":")
    assert ids[heading + 1] == "d227f876"  # the position-bias numbers it introduces
    last_fairness = max(i for i, x in enumerate(ids) if x.startswith("third-10-"))
    assert ids.index("3edbd4f1") < last_fairness < heading
    assert sum(c.source.lstrip().startswith("## 4 ") for c in cells) == 1


# --------------------------------------------------------------------------------------------
# The click models, by their formulas


def position_based_by_hand() -> list[float]:
    """P(click at rank i) = (1/i) alpha(g_i), unjudged as grade 0."""
    return [ATTRACTIVENESS[g or 0] / i for i, g in enumerate(GRADES, start=1)]


def cascade_by_hand() -> list[float]:
    """P(click at rank i) = R_i prod_{j<i} (1 - R_j), R = (2^g - 1) / 2^g_max."""
    out, still = [], 1.0
    for g in GRADES:
        r = (2 ** (g or 0) - 1) / 2**MAX_GRADE
        out.append(still * r)
        still *= 1 - r
    return out


def test_the_formulas_by_hand_on_two_ranks():
    # rank 3 (grade 2): 0.6 / 3 = 0.2; cascade 1/8 * (1 - 0) * 3/8 = 3/64
    assert position_based_by_hand()[2] == pytest.approx(0.2)
    assert cascade_by_hand()[2] == pytest.approx(3 / 64)
    assert sum(cascade_by_hand()) <= 1  # at most one click


@pytest.mark.parametrize("model", ["position-based", "cascade"])
def test_coursekit_click_simulations_follow_the_formulas(model):
    rng, n = np.random.default_rng(36), 40_000
    counts = np.zeros(len(GRADES))
    for _ in range(n):
        if model == "cascade":
            clicked = ck.measures.cascade_clicks(GRADES, rng, max_grade=MAX_GRADE)
        else:
            clicked = ck.measures.position_based_clicks(GRADES, rng, attractiveness=ATTRACTIVENESS)
        counts[clicked] += 1
    expected = np.array(position_based_by_hand() if model != "cascade" else cascade_by_hand())
    se = np.sqrt(expected * (1 - expected) / n)
    assert np.all(np.abs(counts / n - expected) <= 4.5 * se + 1e-12)


def _table_rows(text: str) -> dict[str, list[float]]:
    """{row label: values} of a DataFrame printed in blocks of columns."""
    rows: dict[str, list[float]] = {}
    for line in text.splitlines():
        found = re.match(r"^(\S.*?)\s{2,}((?:-?\d+(?:\.\d+)?\s*)+)$", line)
        if found:
            rows.setdefault(found[1].strip(), []).extend(map(float, found[2].split()))
    return rows


def test_the_chapter_prints_the_formulas_and_states_their_numbers():
    cells = {c.id: c for c in _cells()}
    printed = _text(cells["click-models-sim"])
    rows = _table_rows(printed)
    assert rows["position-based, formula"] == pytest.approx(position_based_by_hand(), abs=5e-5)
    assert rows["cascade, formula"] == pytest.approx(cascade_by_hand(), abs=5e-5)
    pbm, cascade = sum(position_based_by_hand()), sum(cascade_by_hand())
    assert f"{pbm:.2f} by the formula" in printed and f"{cascade:.2f} by the formula" in printed
    stated = cells["click-models-read"].source
    for value in (position_based_by_hand()[2], cascade_by_hand()[2], pbm, cascade):
        assert f"{value:.2f}" in stated


# --------------------------------------------------------------------------------------------
# CTR against the reciprocal rank of the first click, exactly


def _first_click_moments(page, grades) -> np.ndarray:
    """[P(a click), E[RR], E[RR^2]] of one page for the position-based users: the first click
    is at rank i when rank i is clicked and no rank above it is."""
    p = [ATTRACTIVENESS[min(max(int(grades.get(d, 0)), 0), 3)] / i for i, d in enumerate(page, 1)]
    moments, none_above = np.zeros(3), 1.0
    for i, pi in enumerate(p, start=1):
        first = none_above * pi
        moments += first * np.array([1.0, 1 / i, 1 / i**2])
        none_above *= 1 - pi
    return moments


@pytest.fixture(scope="module")
def exact_ab():
    collection = course.load_collection()
    grades = {
        str(q): dict(zip(g["doc_id"].astype(str), g["relevance"], strict=True))
        for q, g in collection.qrels.groupby("query_id", observed=True)
    }

    def page(system):
        run = ck.sort_run(collection.runs[system])
        return {
            str(q): g["doc_id"].astype(str).tolist()[:10]
            for q, g in run.groupby("query_id", observed=True)
        }

    a, b = page("tfidf"), page("bm25_stem")
    queries = sorted(grades)  # each session draws a query uniformly
    m_a = np.mean([_first_click_moments(a.get(q, []), grades[q]) for q in queries], axis=0)
    m_b = np.mean([_first_click_moments(b.get(q, []), grades[q]) for q in queries], axis=0)
    both = (m_a + m_b) / 2  # the arms are equally likely
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    variance = {"CTR": both[0] - both[0] ** 2, "RR": both[2] - both[1] ** 2}
    delta = {"CTR": m_b[0] - m_a[0], "RR": m_b[1] - m_a[1]}
    needed = {k: 4 * z**2 * variance[k] / delta[k] ** 2 for k in delta}
    return {"a": m_a, "b": m_b, "delta": delta, "sd": variance, "needed": needed}


def test_the_exact_ctrs_are_those_section_2_computes(exact_ab):
    text = _text({c.id: c for c in _cells()}["a246da22"])
    assert f"true CTR A = {exact_ab['a'][0]:.4f}" in text
    assert f"true CTR B = {exact_ab['b'][0]:.4f}" in text


def test_the_reciprocal_rank_needs_fewer_sessions_than_ctr(exact_ab):
    needed = exact_ab["needed"]
    ratio = needed["CTR"] / needed["RR"]
    assert 1.4 < ratio < 1.7  # "roughly one and a half times as many"
    # the better ranking moves the first click up as well as adding clicks
    assert exact_ab["delta"]["RR"] > exact_ab["delta"]["CTR"] > 0


def test_the_long_simulation_agrees_with_the_exact_sessions(exact_ab):
    text = _text({c.id: c for c in _cells()}["needed-sessions"])
    rows = _table_rows(text)
    simulated_rr = rows["A/B test (RR of first click)"][0]
    simulated_ctr = rows["A/B test (CTR)"][0]
    assert simulated_rr == pytest.approx(exact_ab["needed"]["RR"], rel=0.1)
    assert simulated_ctr == pytest.approx(exact_ab["needed"]["CTR"], rel=0.15)
    assert rows["A/B test (CTR)"][1] == pytest.approx(simulated_ctr / simulated_rr, abs=0.006)
    stated = {c.id: c for c in _cells()}["3edbd4f1"].source
    assert f"({rows['A/B test (CTR)'][1]:.2f} in the table)" in stated


# --------------------------------------------------------------------------------------------
# q4: a team-draft list by hand


def team_draft_by_hand(a, b, coins):
    """Radlinski, Kurup & Joachims (2008): per round, the coin's team picks, then the other;
    each picks its highest-ranked document not yet shown."""
    shown = []
    for coin in coins:
        for team in (coin, {"a": "b", "b": "a"}[coin]):
            ranking = a if team == "a" else b
            shown.append(next(d for d in ranking if d not in shown))
    return shown


def _q4(seed):
    key = load_key(CHAPTER)
    source, questions = key.generate(None if seed is None else np.random.default_rng(seed))
    scope: dict = {}
    exec(source, scope)  # noqa: S102 - the key's own data cell
    return scope, next(q for q in questions if q.qid == "q4")


def test_q4_public_answer_by_hand():
    # a = d2 d5 d1 d7 d3 d8, b = d5 d4 d2 d6 d1 d9, coins a b a:
    # a d2, b d5 | b d4, a d1 (d5 shown) | a d7, b d6 (d2 shown)
    scope, q4 = _q4(None)
    assert q4.expected == ["d2", "d5", "d4", "d1", "d7", "d6"]
    assert team_draft_by_hand(scope["ranking_a"], scope["ranking_b"], scope["coins"]) == (
        q4.expected
    )


@pytest.mark.parametrize("seed", range(12))
def test_q4_variants_by_hand(seed):
    scope, q4 = _q4(seed)
    a, b, coins = scope["ranking_a"], scope["ranking_b"], scope["coins"]
    assert len(a) == len(b) == 6 and a[0] != b[0] and len(coins) == 3
    assert q4.expected == team_draft_by_hand(a, b, coins)
    assert len(set(q4.expected)) == 6  # no document twice
    hints = {m.hint: m.value for m in q4.mistakes}
    no_skip = next(v for h, v in hints.items() if "skip" in h)  # drawn so that it differs
    assert len(set(no_skip)) < 6 and no_skip != q4.expected


# --------------------------------------------------------------------------------------------
# Choice hints say where to read or what to compute, never which option


def _options(qid: str) -> list[str]:
    cell = next(
        c
        for c in nbformat.read(ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4).cells
        if c.cell_type == "markdown" and c.source.startswith(f"**{qid}")
    )
    text = " ".join(cell.source.split())
    return [x.strip() for x in re.split(r"- [a-z]\) ", text)[1:]]


def _words(text: str) -> list[str]:
    return re.findall(r"[\w/^.]+", text.lower())


def test_no_choice_hint_repeats_its_options():
    for q in load_key(CHAPTER).QUESTIONS:
        if type(q).__name__ != "Choice":
            continue
        hint = " ".join(_words(q.hint))
        assert not re.search(r"\b(option|answer) [a-d]\b|\b[a-d]\)", q.hint), q.qid
        for option in _options(q.qid):
            words = _words(option)
            grams = {" ".join(words[i : i + 3]) for i in range(len(words) - 2)}
            assert not [g for g in grams if g in hint], (q.qid, option, q.hint)


def test_the_hints_that_gave_the_answer_away_are_gone():
    hints = {q.qid: q.hint for q in load_key(CHAPTER).QUESTIONS if hasattr(q, "hint")}
    assert "1 / difference^2" not in hints["q7"]  # q7's answer: 4
    assert "[value, value + residual]" not in hints["q8"]  # q8's answer: the interval
