"""Exercises 03 (AP, MAP) and 05 (DCG, nDCG): the answer keys against hand derivations.

Every expected value and every common mistake's value is derived here by hand from the
exercise's data (written out in the comments), not taken from coursekit or from the key; the
tests then check that the key agrees and that each mistaken computation gets its own hint from
the self-check. The data of each key is also compared with the notebook the students see.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import nbformat
import pytest
from exercise_support import load_key

from coursekit.grading import Mistake, Value, judge_value

ROOT = Path(__file__).resolve().parents[1]
log2 = math.log2


K03, K05 = load_key("03_ap_map"), load_key("05_dcg_ndcg")


def _question(key: ModuleType, qid: str):
    return next(q for q in key.QUESTIONS if q.qid == qid)


def _spec(key: ModuleType, stem: str, qid: str) -> dict:
    return _question(key, qid).public(stem)


def _hint_of(key: ModuleType, qid: str, words: str) -> str:
    """The hint of the mistake of question ``qid`` whose hint contains ``words``."""
    hints = [m.hint for m in _question(key, qid).mistakes if words in m.hint]
    assert len(hints) >= 1, (qid, words)
    return hints[0]


def _close(a, b) -> bool:
    """Equal lists of equal ids, or numbers within rounding error."""
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (
            isinstance(a, (list, tuple))
            and isinstance(b, (list, tuple))
            and len(a) == len(b)
            and all(_close(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-12)


def _data_cell(stem: str) -> dict:
    """The variables the data cell of the solution notebook defines (the cell after the first
    markdown cell titled "The example")."""
    notebook = nbformat.read(ROOT / "solutions" / f"{stem}.ipynb", as_version=4)
    cells = notebook.cells
    at = next(i for i, c in enumerate(cells) if c.source.startswith("## The example"))
    names: dict = {}
    exec(cells[at + 1].source, names)  # the data cell: literals only
    return names


def _markdown(stem: str) -> str:
    notebook = nbformat.read(ROOT / "solutions" / f"{stem}.ipynb", as_version=4)
    return "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")


# --------------------------------------------------------------------------------------------
# Both chapters: the keys hold the notebooks' data, and every mistake's hint can be reached


def test_key_03_holds_the_data_of_the_notebook():
    data = _data_cell("03_ap_map")
    assert data["qrels"] == K03.PUBLIC["qrels"]
    assert data["run_x"] == K03.PUBLIC["run_x"]
    assert data["system_y"] == K03.PUBLIC["system_y"]
    assert data["reported_ap_k1"] == K03.FACTS.reported  # q3's printed value
    text = _markdown("03_ap_map")
    for label, (n, found, ap) in zip("XY", K03.PRINTED_ROWS.values(), strict=True):  # q8's table
        assert f"| {label} | {n} | {found} | {ap:.2f} |" in text


def test_key_05_holds_the_data_of_the_notebook():
    data = _data_cell("05_dcg_ndcg")
    assert data["qrels"] == K05.PUBLIC["qrels"]
    assert data["run_a"] == K05.PUBLIC["run_a"] and data["run_b"] == K05.PUBLIC["run_b"]
    text = _markdown("05_dcg_ndcg")
    for row in (K05.PRINTED_DCG, K05.PRINTED_NDCG):  # q8's table
        assert " | ".join(f"{v:.2f}" for v in row) in text


@pytest.mark.parametrize("key, stem", [(K03, "03_ap_map"), (K05, "05_dcg_ndcg")], ids=["03", "05"])
def test_each_mistake_value_prints_its_own_hint(key, stem):
    for q in key.QUESTIONS:
        if not isinstance(q, Value):
            continue
        spec = q.public(stem)
        for m in q.mistakes:
            assert isinstance(m, Mistake)
            # the first mistake whose value it is (two may share a hint, never a value)
            first = next(x for x in q.mistakes if _close(x.value, m.value))
            assert judge_value(spec, m.value) == f"{q.qid}: not right yet: {first.hint}"
        assert judge_value(spec, q.expected) == f"{q.qid}: passed"


# --------------------------------------------------------------------------------------------
# Exercise 03, by hand
#
# k1: scores d07 9.1 > d01 8.4 > d12 7.9 > d04 7.2 > d03 6.8 > d20 6.1 = d09 6.1 > d13 4.9 >
# d15 4.0 > d22 3.3; the tie goes to the larger id, d20. Relevant: d07, d12, d03, d20 (d25 is
# never returned), so rels = 1 0 1 0 1 1 0 0 0 0 and P(k) at the relevant ranks is
# 1/1, 2/3, 3/5, 4/6.

RANKING_K1 = ["d07", "d01", "d12", "d04", "d03", "d20", "d09", "d13", "d15", "d22"]
TERMS_K1 = [1, 2 / 3, 3 / 5, 4 / 6]
AP_K1 = sum(TERMS_K1) / 5
# k2: d05 12.0, d02 11.5 (R), d17, d30, d09 9.0 (R): ranks 2 and 5 -> (1/2 + 2/5) / 2
# k3: d21, d16, d02, d30, d05 0.77 (R), d27, d13, d11 0.61 (R): ranks 5, 8 -> (1/5 + 2/8) / 4
AP_X = [AP_K1, (1 / 2 + 2 / 5) / 2, (1 / 5 + 2 / 8) / 4]
# Y: k1 relevant at 1, 2, 4, 6, 10 (all 5); k2 nothing; k3 at 1, 2, 4, 8 (all 4)
AP_Y = [(1 + 1 + 3 / 4 + 4 / 6 + 5 / 10) / 5, 0.0, (1 + 1 + 3 / 4 + 4 / 8) / 4]


def test_03_q1_ranking_breaks_the_tie_by_the_larger_id():
    assert K03.FACTS.ranking["k1"] == RANKING_K1
    spec = _spec(K03, "03_ap_map", "q1")
    assert judge_value(spec, RANKING_K1) == "q1: passed"
    tie_as_listed = ["d07", "d01", "d12", "d04", "d03", "d09", "d20", "d13", "d15", "d22"]
    assert judge_value(spec, tie_as_listed) == "q1: not right yet: " + _hint_of(
        K03, "q1", "larger doc id"
    )
    assert judge_value(spec, RANKING_K1[::-1]) == "q1: not right yet: " + _hint_of(
        K03, "q1", "rank 1 has the highest"
    )


def test_03_q2_ap_and_the_mistakes_it_recognises():
    assert math.isclose(K03.FACTS.ap_k1, AP_K1)  # (1 + 2/3 + 3/5 + 2/3) / 5 = 0.58667
    spec = _spec(K03, "03_ap_map", "q2")
    assert judge_value(spec, 0.5867) == "q2: passed"
    cases = {
        sum(TERMS_K1) / 4: "not by those X retrieved",  # the 4 relevant found
        (1 + 2 / 3 + 3 / 5 + 4 / 7) / 5: "check the tie",  # d09 before d20
        sum(round(p, 2) for p in TERMS_K1) / 5: "do not round",  # 1 + .67 + .6 + .67
        sum(TERMS_K1) / 10: "not by the list's length",
        # P(k) at all ten ranks: 1, 1/2, 2/3, 2/4, 3/5, 4/6, 4/7, 4/8, 4/9, 4/10
        (1 + 1 / 2 + 2 / 3 + 2 / 4 + 3 / 5 + 4 / 6 + 4 / 7 + 4 / 8 + 4 / 9 + 4 / 10) / 10: (
            "not at every rank"
        ),
        # reversed: d22 d15 d13 d09 d20 d03 d04 d12 d01 d07, relevant at ranks 5, 6, 8, 10
        (1 / 5 + 2 / 6 + 3 / 8 + 4 / 10) / 5: "reversed",
    }
    for value, words in cases.items():
        assert judge_value(spec, value) == "q2: not right yet: " + _hint_of(K03, "q2", words)


def test_03_q2_a_far_answer_gets_no_mistake_s_hint():
    # 0.5722 (AP of a list of 6 relevant) agrees with the tie slip, (1 + 2/3 + 3/5 + 4/7) / 5
    # = 0.5676, to 2 decimals only: it gets the question's own hint, not the slip's
    spec = _spec(K03, "03_ap_map", "q2")
    assert judge_value(spec, 0.5722).startswith("q2: not right yet (hint: ")
    assert judge_value(spec, (1 + 2 / 3 + 3 / 5 + 4 / 7) / 5) == (
        "q2: not right yet: " + _hint_of(K03, "q2", "check the tie")
    )


def test_03_q3_the_reported_value_is_the_divisor_slip():
    assert round(sum(TERMS_K1) / 4, 4) == K03.FACTS.reported == 0.7333
    assert K03.QUESTIONS[2].qid == "q3" and K03.QUESTIONS[2].expected == "a"


def test_03_q4_q5_means_and_their_mistakes():
    maps = [sum(AP_X) / 3, sum(AP_Y) / 3]
    floor = 1e-5
    gmaps = [math.prod(AP_X) ** (1 / 3), (AP_Y[0] * floor * AP_Y[2]) ** (1 / 3)]
    assert _close(K03.FACTS.map, maps) and _close(K03.FACTS.gmap, gmaps)
    assert maps[1] > maps[0] and gmaps[0] > gmaps[1]  # q6: MAP prefers Y, GMAP X
    spec4, spec5 = _spec(K03, "03_ap_map", "q4"), _spec(K03, "03_ap_map", "q5")
    skipping = [maps[0], (AP_Y[0] + AP_Y[2]) / 2]  # Y's failed topic left out
    # one pool: all precision terms / all 11 relevant documents
    pooled_x = (sum(TERMS_K1) + (1 / 2 + 2 / 5) + (1 / 5 + 2 / 8)) / 11
    pooled_y = ((1 + 1 + 3 / 4 + 4 / 6 + 5 / 10) + (1 + 1 + 3 / 4 + 4 / 8)) / 11
    assert judge_value(spec4, skipping) == "q4: not right yet: " + _hint_of(K03, "q4", "AP 0")
    assert judge_value(spec4, [pooled_x, pooled_y]) == "q4: not right yet: " + _hint_of(
        K03, "q4", "pool"
    )
    no_floor = [gmaps[0], 0.0]
    assert judge_value(spec5, no_floor) == "q5: not right yet: " + _hint_of(
        K03, "q5", "make GMAP 0"
    )
    assert judge_value(spec5, maps) == "q5: not right yet: " + _hint_of(
        K03, "q5", "arithmetic mean"
    )
    left_out = [gmaps[0], math.sqrt(AP_Y[0] * AP_Y[2])]
    assert judge_value(spec5, left_out) == "q5: not right yet: " + _hint_of(
        K03, "q5", "not left out"
    )
    # k1's tie the other way (d09 before d20): AP(X, k1) = (1 + 2/3 + 3/5 + 4/7) / 5; told so,
    # not "right to 2 decimals only"
    naive = [(1 + 2 / 3 + 3 / 5 + 4 / 7) / 5, *AP_X[1:]]
    naive_map, naive_gmap = [sum(naive) / 3, maps[1]], [math.prod(naive) ** (1 / 3), gmaps[1]]
    assert judge_value(spec4, naive_map) == "q4: not right yet: " + _hint_of(K03, "q4", "tie")
    assert judge_value(spec5, naive_gmap) == "q5: not right yet: " + _hint_of(K03, "q5", "tie")


def test_03_q6_to_q8_letters_from_hand_derivations():
    letters = {q.qid: q.expected for q in K03.QUESTIONS if q.qid in ("q6", "q7", "q8")}
    # q7: (i) adds P(10) = 5/10 with n = 5: (S + 0.5) / 5 > S / 5; (ii) n = 6: (S + 0.5) / 6 =
    # 0.5722 < 0.5867 = S / 5, since 0.5 < S / 5
    s = sum(TERMS_K1)
    assert (s + 0.5) / 5 > AP_K1 > (s + 0.5) / 6
    # q8: row a: 4 of 5 found, best AP 4/5 = 0.8 < 0.85; row b: ranks 2 and 10 -> 0.35
    assert 4 / 5 < 0.85 and round((1 / 2 + 2 / 10) / 2, 2) == 0.35
    assert letters == {"q6": "b", "q7": "b", "q8": "a"}


# --------------------------------------------------------------------------------------------
# Exercise 05, by hand
#
# A: t05 3, t02 0, t03 2, t09 0, t07 1, t12 0, t15 -, t06 0, t04 1, t14 -  (unjudged: 0)
# B: t09 0, t11 2, t01 3, t02 0, t08 2, t13 1, t03 2, t10 1, t04 1, t05 3
# judged grades sorted: 3 3 2 2 2 1 1 1 1 0 0 0 0

GAINS_A = [3, 0, 2, 0, 1, 0, 0, 0, 1, 0]
GAINS_B = [0, 2, 3, 0, 2, 1, 2, 1, 1, 3]
IDEAL = [3, 3, 2, 2, 2, 1, 1, 1, 1, 0]


def _dcg(gains, discount=lambda i: log2(i + 1), gain=lambda g: g):
    return sum(gain(g) / discount(i) for i, g in enumerate(gains, start=1))


def _curve(gains, **form):
    return [_dcg(gains[:k], **form) for k in range(1, len(gains) + 1)]


def jarvelin(i):
    return 1.0 if i == 1 else log2(i)


def test_05_q2_dcg_curve_and_its_mistakes():
    # 3, 3, 3 + 2/log2(4) = 4, 4, 4 + 1/log2(6), ..., + 1/log2(10)
    curve = (
        [3, 3, 4, 4, 4 + 1 / log2(6)] + [4 + 1 / log2(6)] * 3 + [4 + 1 / log2(6) + 1 / log2(10)] * 2
    )
    assert _close(K05.FACTS.curve_dcg_a, curve)
    spec = _spec(K05, "05_dcg_ndcg", "q2")
    assert judge_value(spec, curve) == "q2: passed"
    mistakes = {
        "Järvelin": _curve(GAINS_A, discount=jarvelin),
        "base 2": _curve(GAINS_A, discount=lambda i: math.log(i + 1)),
        "cumulated gain": [3, 3, 5, 5, 6, 6, 6, 6, 7, 7],
    }
    for words, value in mistakes.items():
        assert judge_value(spec, value) == "q2: not right yet: " + _hint_of(K05, "q2", words)
    log10 = _curve(GAINS_A, discount=lambda i: math.log10(i + 1))
    assert judge_value(spec, log10) == "q2: not right yet: " + _hint_of(K05, "q2", "base 2")


def test_05_q4_q5_ideal_ndcg_and_their_mistakes():
    idcg = _dcg(IDEAL)
    assert math.isclose(K05.FACTS.idcg, idcg)
    spec4 = _spec(K05, "05_dcg_ndcg", "q4")
    own = _dcg([3, 2, 1, 1, 0, 0, 0, 0, 0, 0])  # A's own grades sorted
    in_qrels_order = _dcg([3, 0, 2, 1, 3, 0, 1, 2, 0, 1])  # the first 10 values of qrels
    ascending = _dcg([0, 0, 0, 0, 1, 1, 1, 1, 2, 2])
    for value, words in (
        (own, "not only those"),
        (in_qrels_order, "sorts the grades"),
        (ascending, "reversed"),
        (_dcg(IDEAL, discount=jarvelin), "Järvelin"),
        (_dcg(IDEAL, discount=lambda i: math.log10(i + 1)), "base 2"),
    ):
        assert judge_value(spec4, value) == "q4: not right yet: " + _hint_of(K05, "q4", words)
    ndcg = [_dcg(GAINS_A) / idcg, _dcg(GAINS_B) / idcg]
    assert _close(K05.FACTS.ndcg, ndcg)
    spec5 = _spec(K05, "05_dcg_ndcg", "q5")
    own_ideal = [_dcg(GAINS_A) / own, _dcg(GAINS_B) / _dcg(sorted(GAINS_B, reverse=True))]
    exponential = [
        _dcg(g, gain=lambda x: 2**x - 1) / _dcg(IDEAL, gain=lambda x: 2**x - 1)
        for g in (GAINS_A, GAINS_B)
    ]
    for value, words in ((own_ideal, "own list"), (exponential, "exponential")):
        assert judge_value(spec5, value) == "q5: not right yet: " + _hint_of(K05, "q5", words)


def test_05_letters_from_hand_derivations():
    letters = {q.qid: q.expected for q in K05.QUESTIONS if q.qid in ("q6", "q7", "q8", "q9")}
    # q6: log10(i + 1) = log2(i + 1) / log2(10): DCG and IDCG both scale by log2(10)
    a = _dcg(GAINS_A, discount=lambda i: math.log10(i + 1))
    ia = _dcg(IDEAL, discount=lambda i: math.log10(i + 1))
    assert math.isclose(a / ia, _dcg(GAINS_A) / _dcg(IDEAL))
    # q7: swapping ranks 1 (grade 0) and 2 (grade 2) of B: trec gains 2 - 2/log2(3) > 0;
    # Järvelin divides ranks 1 and 2 by 1 both: no change
    swapped = [2, 0, *GAINS_B[2:]]
    assert _dcg(swapped) > _dcg(GAINS_B)
    assert math.isclose(_dcg(swapped, discount=jarvelin), _dcg(GAINS_B, discount=jarvelin))
    # q8: row a goes down (4.76 -> 4.50); row b is the ranking 3, 3, 0, 2, 1:
    row_b = [_dcg([3, 3, 0, 2, 1][:k]) / _dcg(IDEAL[:k]) for k in range(1, 6)]
    assert [round(v, 2) for v in row_b] == K05.PRINTED_NDCG
    # q9: nDCG@3 of A = (3 + 0 + 1) / (3 + 3/log2 3 + 1) > B's (2/log2 3 + 3/2) / same;
    # nDCG@10: B > A (q5)
    assert _dcg(GAINS_A[:3]) > _dcg(GAINS_B[:3]) and _dcg(GAINS_B) > _dcg(GAINS_A)
    assert letters == {"q6": "a", "q7": "b", "q8": "a", "q9": "c"}


# --------------------------------------------------------------------------------------------
# Both chapters: per-student variants (generate(rng)), written with the same key

CHAPTERS = [(K03, "03_ap_map"), (K05, "05_dcg_ndcg")]


def test_03_variants_keep_the_text_true():
    import numpy as np

    source, _ = K03.generate(np.random.default_rng(5))
    data: dict = {}
    exec(source, data)
    assert {q: len(d) for q, d in data["qrels"].items()} == {"k1": 5, "k2": 2, "k3": 4}
    assert all(len(scores) == 10 for scores in data["run_x"].values())
    k1 = data["run_x"]["k1"]
    tied = [d for d in k1 if list(k1.values()).count(k1[d]) == 2]
    assert len(tied) == 2 and sum(d in data["qrels"]["k1"] for d in tied) == 1
    assert sum(d in data["qrels"]["k1"] for d in k1) == 4  # X misses one of k1's five
    assert data["system_y"]["k2"] == [0] * 10


def test_05_variants_keep_the_text_true():
    import numpy as np

    source, _ = K05.generate(np.random.default_rng(5))
    data: dict = {}
    exec(source, data)
    grades = list(data["qrels"].values())  # 13 judged: 1-3 of grade 3, 1-4 of grades 2 and 1
    assert len(grades) == 13 and 1 <= grades.count(3) <= 3
    assert 1 <= grades.count(2) <= 4 and 1 <= grades.count(1) <= 4
    assert {"t14", "t15"} <= set(data["run_a"]) and len(set(data["run_a"])) == 10
    assert set(data["run_b"]) <= set(data["qrels"]) and len(set(data["run_b"])) == 10
    first, second = (data["qrels"][d] for d in data["run_b"][:2])
    assert second > first  # q7: the document at rank 2 has the higher grade
