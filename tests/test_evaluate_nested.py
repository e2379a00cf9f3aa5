"""The judgments' look-up in nested dicts themselves (:mod:`coursekit.evaluation.nested`): the
grade it finds for each retrieved document against a Python dict look-up written here, the
ranking against sorting by hand, the measures against the readable path; the doc ids never
read into arrays; and the dicts it hands over to the other paths."""

from __future__ import annotations

import importlib

import pandas as pd
import pytest
from pairs_support import expected_grades, ranked_run_and_qrels

import coursekit as ck
from coursekit.evaluation import nested
from coursekit.evaluation.encode import Task, evaluated_queries, halves

encode_module = importlib.import_module("coursekit.evaluation.encode")
evaluate_module = importlib.import_module("coursekit.evaluation.matchers")
MEASURES = ["AP", "P@5", "nDCG@10", "RR", "R@20"]


def matched(match, run_half, qrels_half, missing_as_zero=False, precision="float64"):
    """``match(run, qrels, task)`` (a matcher) and the evaluated queries, or None."""
    queries = evaluated_queries(run_half.queries, qrels_half.queries, missing_as_zero)
    ranked = match(run_half, qrels_half, Task(queries, missing_as_zero, precision, False))
    return None if ranked is None else (ranked, queries)


@pytest.mark.parametrize("missing_as_zero", [False, True])
@pytest.mark.parametrize("shuffle", [False, True])
def test_grades_and_ranks_of_nested_dicts_come_from_the_dicts(
    shuffle, missing_as_zero, monkeypatch
):
    def never(*args):
        raise AssertionError("the doc ids were read into an array")

    monkeypatch.setattr(encode_module, "_nested_strings", never)
    monkeypatch.setattr(evaluate_module, "hashed_rankings", never)
    monkeypatch.setattr(evaluate_module, "sides", never)
    for seed in range(4):
        run, qrels = ranked_run_and_qrels(seed)
        if shuffle:
            run = run.sample(frac=1.0, random_state=seed).reset_index(drop=True)
        run_dict, qrels_dict = ck.run_to_dict(run), ck.qrels_to_dict(qrels)
        result = matched(
            nested.nested_rankings, *halves(run_dict, qrels_dict), missing_as_zero, "float64"
        )
        assert result is not None
        rankings, queries = result
        by_hand = run.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
        assert rankings.grade.tolist() == expected_grades(by_hand, qrels, queries)
        sizes = by_hand["query_id"].value_counts()
        assert rankings.rank.tolist() == [
            r for q in queries for r in range(1, int(sizes.get(q, 0)) + 1)
        ]
        fast = ck.evaluate(run_dict, qrels_dict, MEASURES, missing_as_zero=missing_as_zero)
        monkeypatch.undo()
        reference = ck.evaluate(run, qrels, MEASURES, missing_as_zero=missing_as_zero, fast=False)
        pd.testing.assert_frame_equal(
            fast.table(), reference.table(), check_exact=False, rtol=0, atol=1e-12
        )
        monkeypatch.setattr(encode_module, "_nested_strings", never)
        monkeypatch.setattr(evaluate_module, "hashed_rankings", never)
        monkeypatch.setattr(evaluate_module, "sides", never)


@pytest.mark.parametrize(
    ("run", "qrels", "ap"),
    [
        # 7 and "7" are one doc id (as strings): found by the path that reads them as strings
        ({"q": {7: 2.0, "b": 1.0}}, {"q": {"7": 1}}, 1.0),
        ({"q": {"a": 2.0, "b": 1.0}}, {"q": {"b": 1, 8: 0}}, 0.5),
        # a tie, broken by doc id descending: "b" first
        ({"q": {"a": 1.0, "b": 1.0}}, {"q": {"a": 1}}, 0.5),
        # query ids 7 and "7" are one query
        ({7: {"a": 2.0}, "7": {"b": 1.0}}, {"7": {"b": 1}}, 0.5),
    ],
)
def test_dicts_the_nested_path_cannot_take_are_handed_over(run, qrels, ap):
    assert matched(nested.nested_rankings, *halves(run, qrels), False) is None
    assert float(ck.evaluate(run, qrels, ["AP"]).mean["AP"]) == ap  # by hand


def test_the_nested_path_ranks_float32_ties_as_pytrec_eval():
    """Scores equal as 32-bit floats tie with ``score_precision="float32"``: handed over, and
    the tie broken by doc id descending ("b" before "a")."""
    run, qrels = {"q": {"a": 1.0, "b": 1.0 + 1e-12}}, {"q": {"a": 1}}
    assert matched(nested.nested_rankings, *halves(run, qrels), False, "float32") is None
    assert matched(nested.nested_rankings, *halves(run, qrels), False) is not None
    assert float(ck.evaluate(run, qrels, ["AP"], score_precision="float32").mean["AP"]) == 0.5
    assert float(ck.evaluate(run, qrels, ["AP"]).mean["AP"]) == 0.5  # "b" scores higher


def test_tied_dicts_are_looked_up_without_writing_the_runs_cells(monkeypatch):
    """Nested dicts whose scores tie take the numbered path; their pairs cannot repeat (dict
    keys), so the look-up only reads the run's cells (``run_distinct``): the same values as
    the readable path on the same run as a DataFrame."""
    seen = []
    match_pairs = evaluate_module.match_pairs

    def spy(*args, **kwargs):
        seen.append(args[4] if len(args) > 4 else kwargs.get("run_distinct", False))
        return match_pairs(*args, **kwargs)

    monkeypatch.setattr(evaluate_module, "match_pairs", spy)
    for seed in range(3):
        run, qrels = ranked_run_and_qrels(seed)
        run = run.assign(score=run["score"].round(1)).sample(frac=1.0, random_state=seed)
        run_dict, qrels_dict = ck.run_to_dict(run), ck.qrels_to_dict(qrels)
        seen.clear()
        fast = ck.evaluate(run_dict, qrels_dict, MEASURES)
        assert seen == [True]
        reference = ck.evaluate(run, qrels, MEASURES, fast=False)
        pd.testing.assert_frame_equal(
            fast.table(), reference.table(), check_exact=False, rtol=0, atol=1e-12
        )
