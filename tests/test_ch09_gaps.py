"""Chapter 09's third-edition additions (issue 36, item 2), checked by independent computation.

- infAP's formula: the worked example by exact fractions, and the exercise's q10 by a plain
  Python infAP (no coursekit), on the public data and on drawn variants;
- the judgments outside the depth-20 pool, and the pairs only one run brought into it, from
  the TREC files parsed here (trec_eval's order: score descending, doc id descending);
- the shallow pools: the mean relative change of AP on the top 20, by numpy;
- the per-topic strict/lenient assessor: the same draws, AP by numpy, kappa by scikit-learn,
  Kendall's tau by scipy, against what the chapter prints.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import nbformat
import numpy as np
import pytest
from exercise_support import load_key
from scipy.stats import kendalltau
from sklearn.metrics import cohen_kappa_score

ROOT = Path(__file__).resolve().parents[1]
COLLECTION = ROOT / "coursekit" / "data" / "collection"
CHAPTER = ROOT / "notebooks" / "09_relevance_judgments.ipynb"
SYSTEMS = ["bm25", "bm25_b0_stem", "bm25_stem", "bool_and", "tfidf"]
FLIP_BY_GRADE = {0: 0.10, 1: 0.30, 2: 0.15, 3: 0.05}
SHIFT_SDS, NOISE_SD, N_ASSESSOR_DRAWS = (0.25, 0.5, 1.0), 0.3, 100


# --- the collection, parsed here -------------------------------------------------------------


def _qrels() -> list[tuple[str, str, int]]:
    rows = []
    for line in (COLLECTION / "qrels.txt").read_text().splitlines():
        topic, _, doc, grade = line.split()
        rows.append((topic, doc, int(grade)))
    return rows


def _ranked(system: str) -> dict[str, list[str]]:
    """Each topic's documents in trec_eval's order: score descending, doc id descending."""
    by_topic: dict[str, list[tuple[float, str]]] = {}
    for line in (COLLECTION / "runs" / f"{system}.run").read_text().splitlines():
        topic, _, doc, _, score, _ = line.split()
        by_topic.setdefault(topic, []).append((float(score), doc))
    return {t: [d for _, d in sorted(rows, reverse=True)] for t, rows in by_topic.items()}


QRELS = _qrels()
RANKED = {s: _ranked(s) for s in SYSTEMS}
TOPICS = sorted({t for t, _, _ in QRELS}, key=int)


def _pool(systems, depth) -> set[tuple[str, str]]:
    return {(t, d) for s in systems for t, docs in RANKED[s].items() for d in docs[:depth]}


def _outputs(cell_id: str) -> str:
    """The text a chapter cell printed or displayed."""
    nb = nbformat.read(CHAPTER, as_version=4)
    cell = next(c for c in nb.cells if c.id == cell_id)
    texts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            texts.append(out.text)
        elif "text/plain" in out.get("data", {}):
            texts.append(out["data"]["text/plain"])
    return "\n".join(texts)


# --- infAP ------------------------------------------------------------------------------------


def _infap(ranking, pooled, n_relevant) -> float:
    """Yilmaz & Aslam's infAP without smoothing: E[P@1] = 1, E[P@k] = 1/k + ((k-1)/k)
    (|pool above| / (k-1)) rel / (rel + nonrel); the sum over judged relevant ranks, over R."""
    total = Fraction(0)
    for k, grade in enumerate(ranking, start=1):
        if grade is None or grade < 1:
            continue
        above = list(zip(ranking[: k - 1], pooled[: k - 1], strict=True))
        rel = sum(1 for g, _ in above if g is not None and g >= 1)
        nonrel = sum(1 for g, _ in above if g is not None and g < 1)
        in_pool = sum(1 for g, p in above if g is not None or p)
        if k == 1:
            total += 1
        else:
            share = Fraction(rel, rel + nonrel)
            total += Fraction(1, k) + Fraction(k - 1, k) * Fraction(in_pool, k - 1) * share
    return float(total / n_relevant)


def test_the_worked_example_of_infap_by_fractions():
    # relevant, pooled, not relevant, relevant, outside, pooled, relevant, not relevant; R = 4
    ranking = [1, None, 0, 1, None, None, 1, 0]
    pooled = [False, True, False, False, False, True, False, False]
    expected = (1 + Fraction(1, 4) + Fraction(3, 4) * 1 * Fraction(1, 2) + Fraction(13, 21)) / 4
    assert _infap(ranking, pooled, 4) == pytest.approx(float(expected), abs=1e-12)
    text = _outputs("infap-check")
    assert f"= {float(expected):.4f}" in text  # by hand, in the chapter: 0.5610
    assert f"ck.infap:      {float(expected):.4f}" in text
    # AP with every unjudged document not relevant: (1 + 2/4 + 3/7) / 4
    assert f"not relevant: {float((1 + Fraction(2, 4) + Fraction(3, 7)) / 4):.4f}" in text


def test_the_exercise_infap_of_the_public_data():
    key = load_key("09_relevance_judgments")
    q10 = next(q for q in key.QUESTIONS if q.qid == "q10")
    # 1 + (1/4 + 3/4 · 3/3 · 1/2) + (1/8 + 7/8 · 6/7 · 2/5), over R = 4
    assert q10.expected == pytest.approx(0.5125, abs=1e-4)
    assert _infap(key.RANKING, key.POOLED, key.N_RELEVANT) == pytest.approx(0.5125, abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_the_exercise_infap_of_drawn_variants(seed):
    key = load_key("09_relevance_judgments")
    source, questions = key.generate(np.random.default_rng(seed))
    data: dict = {}
    exec(source, {}, data)
    q10 = next(q for q in questions if q.qid == "q10")
    by_hand = _infap(data["ranking"], data["pooled"], data["n_relevant"])
    assert q10.expected == pytest.approx(by_hand, abs=1e-4)
    assert sum(data["pooled"]) == 1
    assert all(data["ranking"][i] is None for i, p in enumerate(data["pooled"]) if p)
    for mistake in q10.mistakes:
        assert round(mistake.value, 4) != round(q10.expected, 4)


# --- the pool -----------------------------------------------------------------------------------


def test_the_judgments_outside_the_depth_20_pool():
    pool = _pool(SYSTEMS, 20)
    outside = [(t, d, g) for t, d, g in QRELS if (t, d) not in pool]
    relevant = sum(1 for _, _, g in QRELS if g >= 1)
    outside_relevant = sum(1 for _, _, g in outside if g >= 1)
    assert (len(outside), outside_relevant, relevant) == (203, 167, 445)  # the README's counts
    text = _outputs("pool-outside")
    assert f"judged relevant documents: {relevant}" in text
    assert f"pool: {len(outside)}, {outside_relevant} of them relevant" in text


def test_the_pairs_only_one_run_brought_into_the_pool():
    pool = _pool(SYSTEMS, 20)
    grade = {(t, d): g for t, d, g in QRELS}
    text = _outputs("newsys-pools")
    for s in SYSTEMS:
        unique = pool - _pool([o for o in SYSTEMS if o != s], 20)
        n_relevant = sum(grade[p] >= 1 for p in unique)
        assert re.search(rf"^{s}\s+{len(unique)}\s+{n_relevant}$", text, re.M), s


def _mean_ap_top20(judgments: dict[tuple[str, str], int], system: str) -> float:
    """MAP on the top 20, unjudged documents not relevant, R the judged relevant documents."""
    scores = []
    for t in TOPICS:
        docs = RANKED[system].get(t, [])[:20]
        n_rel = sum(1 for (tt, _), g in judgments.items() if tt == t and g >= 1)
        rel = np.array([judgments.get((t, d), 0) >= 1 for d in docs], dtype=float)
        precision = np.cumsum(rel) / np.arange(1, rel.size + 1)
        scores.append(float((precision * rel).sum() / n_rel) if n_rel else 0.0)
    return float(np.mean(scores))


def test_the_shallow_pools_raise_ap():
    full = {(t, d): g for t, d, g in QRELS}
    pool_20 = _pool(SYSTEMS, 20)
    full_map = {s: _mean_ap_top20(full, s) for s in SYSTEMS}
    text = _outputs("newsys-scores")
    row = re.search(r"^AP \(unjudged = not relevant\)\s+(\S+)\s+(\S+)\s+(\S+)$", text, re.M)
    printed = [float(x) for x in row.groups()]
    for depth, value in zip((10, 5), printed[1:], strict=True):
        removed = pool_20 - _pool(SYSTEMS, depth)
        shallow = {p: g for p, g in full.items() if p not in removed}
        change = np.mean([_mean_ap_top20(shallow, s) / full_map[s] - 1 for s in SYSTEMS])
        assert round(float(change), 3) == pytest.approx(value, abs=1e-9), depth


# --- the second assessor, strict or lenient per topic -----------------------------------------


def _draws():
    """The chapter's draws, repeated: rng 2006, flips first, then each sigma's shift and noise."""
    grades = np.array([g for _, _, g in QRELS])
    topics = [t for t, _, _ in QRELS]
    order = list(dict.fromkeys(topics))  # pandas.factorize's order: first appearance
    code = np.array([order.index(t) for t in topics])
    relevant = grades >= 1
    rng = np.random.default_rng(2006)
    flip = np.array([FLIP_BY_GRADE[g] for g in grades])
    models = {
        "flips": np.where(rng.random((N_ASSESSOR_DRAWS, grades.size)) < flip, ~relevant, relevant)
    }
    for sd in SHIFT_SDS:
        shift = rng.normal(0, sd, (N_ASSESSOR_DRAWS, len(order)))
        noise = rng.normal(0, NOISE_SD, (N_ASSESSOR_DRAWS, grades.size))
        models[sd] = grades + noise > 0.5 + shift[:, code]
    return relevant, models


def _map_full_runs(labels: np.ndarray) -> dict[str, float]:
    """MAP of each system on its whole run, every topic counting (absent: 0), AP by numpy."""
    judged = {(t, d): bool(x) for (t, d, _), x in zip(QRELS, labels, strict=True)}
    n_rel = {t: 0 for t in TOPICS}
    for (t, _), x in judged.items():
        n_rel[t] += x
    means = {}
    for s in SYSTEMS:
        scores = []
        for t in TOPICS:
            rel = np.array([judged.get((t, d), False) for d in RANKED[s].get(t, [])], dtype=float)
            precision = np.cumsum(rel) / np.arange(1, rel.size + 1)
            scores.append(float((precision * rel).sum() / n_rel[t]) if n_rel[t] else 0.0)
        means[s] = float(np.mean(scores))
    return means


def test_the_per_topic_assessors_agreement_and_ordering():
    relevant, models = _draws()
    first = _map_full_runs(relevant)
    agreement, robustness = _outputs("assessor-draw"), _outputs("assessor-tau")
    for name, label in (("flips", "flips (as above)"), (1.0, "topic shift σ = 1.0")):
        labels = models[name]
        kappa = np.mean([cohen_kappa_score(relevant, row) for row in labels])
        assert re.search(rf"{re.escape(label)}\s+{labels.mean():.4f}\s+{kappa:.4f}", agreement)
        taus, changes = [], []
        for row in labels:
            second = _map_full_runs(row)
            taus.append(kendalltau([first[s] for s in SYSTEMS], [second[s] for s in SYSTEMS])[0])
            changes.append(np.mean([abs(second[s] - first[s]) for s in SYSTEMS]))
        taus = np.array(taus)
        line = re.search(rf"^{re.escape(label)}\s+(\S+)\s+(\S+)\s*$", robustness, re.M)
        assert float(line.group(1)) == pytest.approx(round(np.mean(changes), 4), abs=1e-9)
        assert float(line.group(2)) == pytest.approx(round(taus.mean(), 3), abs=1e-9)
        share = re.search(
            rf"^{re.escape(label)}\s+(\S+)\s+(\S+)\s*$", robustness.split("\n\n")[-1], re.M
        )
        assert share is not None
        assert float(share.group(1)) == pytest.approx((np.isclose(taus, 1)).mean(), abs=1e-9)
        assert float(share.group(2)) == pytest.approx(taus.min(), abs=1e-9)
