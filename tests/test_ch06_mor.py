"""Chapter 06's lessons from the MOR paper (issue 36): nDCG against AP under binary judgments,
totality and persistence, the paper's Table 7 on the course's runs, the pairs a user study
would count.

Every number the chapter prints in those cells is recomputed here without coursekit: the runs
and qrels are read with pandas, the measures written out with numpy from their definitions
(trec_eval's order: score descending, ties by document id descending), the correlations taken
from scipy; the test then looks for the value in the committed outputs of the cell.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "06_recall_oriented.ipynb"
DATA = ROOT / "coursekit" / "data" / "collection"

# The paper's five systems (Tables 1, 2 and 5): ranks of the relevant documents, n = 4.
EXAMPLE_RANKS = {1: [1, 2, 3, 4], 2: [50, 51, 53, 54], 3: [1, 98, 99, 100], 4: [1, 54], 5: [1]}
EXAMPLE_N = 4
USER_ORDER = [1, 2, 3, 4, 5]  # the order the authors state, best first
# Scores equal in exact arithmetic (two nDCG of 1, AP = recall) may differ in the last bit of a
# float: rounded to 12 decimals they tie, as they must for Kendall's tau-b; no two different
# scores of the collection are that close.
DECIMALS = 12


# --- the measures, written out -------------------------------------------------------------


def average_precision(flags, n):
    flags = np.asarray(flags, dtype=float)
    if flags.size == 0:
        return 0.0
    hits = np.cumsum(flags)
    return float(np.sum(flags * hits / np.arange(1, flags.size + 1)) / n)


def ndcg(gains, judged):
    """trec_eval's ndcg: gain = grade, discount log2(rank + 1), ideal from every judged grade."""
    gains = np.maximum(np.asarray(gains, dtype=float), 0)
    ideal = np.sort(np.maximum(np.asarray(judged, dtype=float), 0))[::-1]
    dcg = np.sum(gains / np.log2(np.arange(2, gains.size + 2)))
    idcg = np.sum(ideal / np.log2(np.arange(2, ideal.size + 2)))
    return float(dcg / idcg)


def pres(flags, n, n_max):
    found = [i + 1 for i, f in enumerate(flags[:n_max]) if f]
    h = len(found)
    total = sum(found) + sum(n_max + j for j in range(h + 1, n + 1))
    return 1 - (total / n - (n + 1) / 2) / n_max


def mor(flags, n, n_max):
    """Eqs. 9-12 of Audeh, Beaune & Beigbeder (2015), with eq. 11's case AP0 = AP1 -> AP."""
    top = list(flags[:n_max])
    found = [i + 1 for i, f in enumerate(top) if f]
    h = len(found)
    if h == 0:
        return 0.0
    w = found[-1]
    ap = average_precision(top, n)
    ap0 = sum(i / (w - h + i) for i in range(1, h + 1)) / n
    ap1 = (h - 1 + h / w) / n
    g = ap if math.isclose(ap0, ap1, rel_tol=0, abs_tol=1e-12) else (ap - ap0) / (ap1 - ap0)
    g_h = ((n_max - w) + g) / (n_max - h + 1)
    return (h + g_h) / (min(n, n_max) + 1)


def flags_from_ranks(ranks, length=100):
    return [1 if r in ranks else 0 for r in range(1, length + 1)]


# --- the collection, read without coursekit -----------------------------------------------


def hand_scores():
    """Every (run, topic) score of the cells, computed here."""
    qrels = pd.read_csv(
        DATA / "qrels.txt", sep=r"\s+", header=None, names=["q", "it", "doc", "grade"], dtype=str
    )
    qrels["grade"] = qrels["grade"].astype(int)
    grades = {q: dict(zip(g["doc"], g["grade"], strict=True)) for q, g in qrels.groupby("q")}
    rows = []
    for path in sorted((DATA / "runs").glob("*.run")):
        run = pd.read_csv(
            path,
            sep=r"\s+",
            header=None,
            names=["q", "q0", "doc", "rank", "score", "tag"],
            dtype={"q": str, "doc": str},
        )
        for q, judged in grades.items():
            ranked = run[run["q"] == q].sort_values(["score", "doc"], ascending=[False, False])
            graded = [judged.get(d, 0) for d in ranked["doc"]]
            flags = [1 if g >= 1 else 0 for g in graded]
            n = sum(1 for g in judged.values() if g >= 1)
            rows.append(
                {
                    "system": path.stem,
                    "topic": q,
                    "AP": average_precision(flags, n),
                    "nDCG": ndcg(flags, [1 if g >= 1 else 0 for g in judged.values()]),
                    "nDCG (graded)": ndcg(graded, list(judged.values())),
                    "R@100": sum(flags[:100]) / n,
                    "P@10": sum(flags[:10]) / 10,
                    "R@10": sum(flags[:10]) / n,
                    "PRES@100": pres(flags, n, 100),
                    "PRES@10": pres(flags, n, 10),
                    "MOR@100": mor(flags, n, 100),
                    "MOR@10": mor(flags, n, 10),
                }
            )
    return pd.DataFrame(rows).set_index(["system", "topic"]).round(DECIMALS)


@pytest.fixture(scope="module")
def scores():
    return hand_scores()


# --- the notebook's committed outputs ------------------------------------------------------


@pytest.fixture(scope="module")
def outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    texts = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        parts = []
        for out in cell.outputs:
            if out.output_type == "stream":
                parts.append(out.text)
            elif "text/plain" in out.get("data", {}):
                parts.append(out["data"]["text/plain"])
        texts[cell.id] = "\n".join(parts)
    return texts


def row_numbers(text, label):
    """The numbers of the row of a printed DataFrame whose label is exactly ``label``."""
    for line in text.splitlines():
        if line.startswith(label):
            rest = line[len(label) :].split()
            try:
                return [float(x) for x in rest]
            except ValueError:
                continue
    raise AssertionError(f"no row {label!r} in:\n{text}")


# --- nDCG against AP -----------------------------------------------------------------------


def test_the_collection_has_five_runs_and_54_topics(scores, outputs):
    assert scores.index.get_level_values("system").nunique() == 5
    assert scores.index.get_level_values("topic").nunique() == 54
    assert "54 topics; 5 runs" in outputs["col-load"]


def test_the_system_means_are_the_hand_computed_ones(scores, outputs):
    means = scores.groupby(level="system").mean()
    columns = ["AP", "nDCG", "nDCG (graded)", "R@100", "P@10"]
    for system in means.index:
        printed = row_numbers(outputs["ndcg-ap-eval"], system)
        assert printed == pytest.approx(means.loc[system, columns].tolist(), abs=5e-5)


@pytest.mark.parametrize("measure", ["nDCG", "nDCG (graded)", "R@100", "P@10"])
def test_the_agreement_with_ap_is_scipys(scores, outputs, measure):
    means = scores.groupby(level="system").mean()
    tau_systems = stats.kendalltau(means["AP"], means[measure]).statistic
    tau_pairs = stats.kendalltau(scores["AP"], scores[measure]).statistic
    r_pairs = stats.pearsonr(scores["AP"], scores[measure]).statistic
    printed = row_numbers(outputs["ndcg-ap-tau"], measure)
    assert printed == pytest.approx([tau_systems, tau_pairs, r_pairs], abs=5e-5)


def test_binary_ndcg_orders_the_runs_as_ap_does_and_tracks_it_closest(scores):
    means = scores.groupby(level="system").mean()
    assert stats.kendalltau(means["AP"], means["nDCG"]).statistic == pytest.approx(1.0)
    tau = {m: stats.kendalltau(scores["AP"], scores[m]).statistic for m in scores}
    assert tau["nDCG"] > tau["nDCG (graded)"] > tau["R@100"] > tau["P@10"]


def test_ndcg_lies_above_ap_on_most_pairs(scores, outputs):
    above = int((scores["nDCG"] > scores["AP"]).sum())
    assert above > len(scores) / 2
    assert f"nDCG above AP on {above} of {len(scores)} (run, topic) pairs" in outputs["ndcg-ap-fig"]


# --- totality and persistence ---------------------------------------------------------------


@pytest.mark.parametrize("depth", [20, 60, 100])
def test_mor_at_three_persistences(outputs, depth):
    text = outputs["tot-depths"]
    header = text.splitlines()[0].split()
    for system, ranks in EXAMPLE_RANKS.items():
        flags = flags_from_ranks(ranks)
        row = row_numbers(text, str(system))
        h = sum(flags[:depth])
        assert row[header.index(f"h@{depth}")] == h
        assert row[header.index(f"MOR@{depth}")] == pytest.approx(
            mor(flags, EXAMPLE_N, depth), abs=5e-5
        )


def test_a_less_persistent_reader_puts_system_4_above_system_3():
    mor60 = {s: mor(flags_from_ranks(r), EXAMPLE_N, 60) for s, r in EXAMPLE_RANKS.items()}
    mor100 = {s: mor(flags_from_ranks(r), EXAMPLE_N, 100) for s, r in EXAMPLE_RANKS.items()}
    assert mor60[4] > mor60[3] and mor100[3] > mor100[4]


# --- Table 7 on the course's runs ----------------------------------------------------------


@pytest.mark.parametrize(
    "measures", [["MOR@100", "R@100", "PRES@100", "AP"], ["MOR@10", "R@10", "PRES@10", "AP"]]
)
def test_the_best_and_worst_runs(scores, outputs, measures):
    means = scores.groupby(level="system").mean()
    printed = outputs["table7-runs"]
    for measure in measures:
        best, worst = means[measure].idxmax(), means[measure].idxmin()
        pattern = (
            rf"\b{re.escape(measure)}\s+{best}\s+{means[measure].max():.4f}\s+"
            rf"{worst}\s+{means[measure].min():.4f}\s*$"
        )
        assert re.search(pattern, printed, flags=re.M), (measure, best, worst)


def test_the_four_measures_order_the_five_runs_alike(scores, outputs):
    means = scores.groupby(level="system").mean()
    measures = ["MOR@100", "R@100", "PRES@100", "AP"]
    smallest = min(
        stats.kendalltau(means[a], means[b]).statistic
        for i, a in enumerate(measures)
        for b in measures[i + 1 :]
    )
    assert f"smallest pair: {smallest:.4f}" in outputs["table7-topics"]


@pytest.mark.parametrize("measure", ["R@100", "PRES@100", "AP"])
def test_topics_where_the_best_run_differs_from_mors(scores, outputs, measure):
    def winners(column):
        table = scores[column].unstack("system")
        return [frozenset(table.columns[row == row.max()]) for row in table.to_numpy()]

    differ = sum(a != b for a, b in zip(winners(measure), winners("MOR@100"), strict=True))
    expected = f"{measure} and MOR@100 name different best runs on {differ} of 54 topics"
    assert expected in outputs["table7-topics"]


# --- the pairs a user study would count ----------------------------------------------------


def test_pair_verdicts_against_the_stated_order(outputs):
    flags = {s: flags_from_ranks(r) for s, r in EXAMPLE_RANKS.items()}
    measures = {
        "AP": {s: average_precision(f, EXAMPLE_N) for s, f in flags.items()},
        "PRES": {s: pres(f, EXAMPLE_N, 100) for s, f in flags.items()},
        "MOR": {s: mor(f, EXAMPLE_N, 100) for s, f in flags.items()},
    }
    position = {s: i for i, s in enumerate(USER_ORDER)}
    for name, score in measures.items():
        counts = {1: 0, 0: 0, -1: 0}
        systems = sorted(score)
        for i, a in enumerate(systems):
            for b in systems[i + 1 :]:
                said = np.sign(score[a] - score[b]) * np.sign(position[b] - position[a])
                counts[int(said)] += 1
        printed = row_numbers(outputs["study-pairs"], name)
        assert printed == [counts[1], counts[0], counts[-1]]
        # Kendall's tau-a is (agrees - disagrees) / pairs; scipy's tau-b equals it without ties
        tau = stats.kendalltau([score[s] for s in systems], [-position[s] for s in systems])
        assert (counts[1] - counts[-1]) / 10 == pytest.approx(tau.statistic)
