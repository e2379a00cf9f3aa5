"""The chapter 09 and 10 widgets, driven as clicks would drive them. Expected values come from
scikit-learn, from coursekit's measure functions called directly, or from hand derivations in
the comments, never from the widgets themselves."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import coursekit as ck
from coursekit.views.widgets.assessors import AssessorAgreement
from coursekit.views.widgets.online import OnlineExperiment

ITEMS = ["d1", "d2", "d3", "d4", "d5", "d6"]
FIRST = [1, 1, 0, 1, 0, 0]
SECOND = [1, 0, 0, 1, 1, 0]
RANKINGS = {
    "s1": ["d1", "d2", "d3", "d4", "d5", "d6"],
    "s2": ["d5", "d3", "d1", "d6", "d4", "d2"],
    "s3": ["d4", "d1", "x9", "d2"],
}


def assessors() -> AssessorAgreement:
    return AssessorAgreement(FIRST, SECOND, RANKINGS, ITEMS)


def test_kappa_and_table_match_sklearn_and_a_hand_count():
    view = assessors()
    # by hand: agree on d1, d3, d4, d6 -> P(A) = 4/6; shares of "relevant" 3/6 and 3/6 ->
    # P(E) = 0.5 * 0.5 + 0.5 * 0.5 = 0.5; kappa = (2/3 - 1/2) / (1/2) = 1/3
    assert view.values["P(A) observed agreement"] == pytest.approx(4 / 6)
    assert view.values["P(E) chance agreement"] == pytest.approx(0.5)
    assert view.values["Cohen kappa"] == pytest.approx(1 / 3)
    assert view.values["Cohen kappa"] == pytest.approx(cohen_kappa_score(FIRST, SECOND))
    assert view.values["both relevant"] == 2
    assert view.values["both not relevant"] == 2
    assert view.values["relevant for 1 only"] == 1
    assert view.values["relevant for 2 only"] == 1


def test_system_scores_are_ap_under_each_assessor():
    view = assessors()
    # s3 under assessor 1: d4 (rel), d1 (rel), x9 (not judged), d2 (rel); R = 3
    assert view.scores["assessor 1"]["s3"] == pytest.approx((1 + 1 + 3 / 4) / 3)
    for who, judged in (("assessor 1", FIRST), ("assessor 2", SECOND)):
        rel = dict(zip(ITEMS, judged, strict=True))
        for system, ranking in RANKINGS.items():
            rels = [rel.get(d, 0) for d in ranking]
            expected = ck.average_precision(rels, sum(judged))
            assert view.scores[who][system] == pytest.approx(expected)
    tau = ck.kendall_tau(view.scores["assessor 1"], view.scores["assessor 2"])
    assert view.values["Kendall tau of the system orderings"] == pytest.approx(tau)


def test_toggle_does_what_a_click_does():
    view = assessors()
    view.toggle(2, "d2")  # assessor 2 now says relevant to d2
    view.toggle(2, 5)  # and not relevant to d5: both agree everywhere
    assert view.judgments[1] == FIRST
    assert view.values["Cohen kappa"] == pytest.approx(1.0)
    assert view.values["Kendall tau of the system orderings"] == pytest.approx(1.0)
    assert [b.value for b in view.buttons[1]] == [bool(x) for x in FIRST]
    # a press on the button itself does the same
    view.buttons[0][0].value = False
    assert view.judgments[0][0] == 0
    assert view.values["Cohen kappa"] == pytest.approx(cohen_kappa_score([0] + FIRST[1:], FIRST))
    assert "order by AP (assessor 1)" in view.readout()


def test_clone_keeps_the_shown_widget():
    shown = assessors()
    clicked = shown.clone()
    clicked.toggle(1, 1)
    assert shown.judgments[0] == FIRST and clicked.judgments[0] != FIRST


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda v: v.toggle(3, 1), ValueError),
        (lambda v: v.toggle("1", 1), TypeError),
        (lambda v: v.toggle(1, 0), ValueError),
        (lambda v: v.toggle(1, "d99"), ValueError),
        (lambda v: v.toggle(1, 1.5), TypeError),
    ],
)
def test_bad_clicks(call, error):
    with pytest.raises(error):
        call(assessors())


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"first": [1, 2, 0]}, ValueError),
        ({"first": "101"}, TypeError),
        ({"first": [1, 0], "second": [1, 0, 1]}, ValueError),
        ({"first": [1, 0], "rankings": {"s1": ["d1"]}}, ValueError),
        ({"first": [1, 0], "rankings": ["d1"]}, TypeError),
        ({"first": [1, 0], "items": ["d1", "d1"]}, ValueError),
        ({"first": []}, ValueError),
    ],
)
def test_bad_input(kwargs, error):
    with pytest.raises(error):
        AssessorAgreement(**kwargs)


# --- online experiment (chapter 10) -------------------------------------------------------------

RANKS = {
    "good": {"q1": ["d1", "d2", "d3"], "q2": ["d4", "d5"]},
    "bad": {"q1": ["d3", "d2", "d1"], "q2": ["d5", "d4"]},
    "same": {"q1": ["d1", "d2", "d3"], "q2": ["d4", "d5"]},
}
QRELS = {"q1": {"d1": 2, "d2": 0}, "q2": {"d4": 1}}


def online(**kwargs) -> OnlineExperiment:
    options = {"a": "bad", "b": "good", "n_sessions": 100, "max_sessions": 300}
    return OnlineExperiment(RANKS, QRELS, **{**options, **kwargs})


def test_online_counts_and_z_by_hand():
    view = online()
    view.set_sessions(300)
    c = view.simulation("bad", "good", "cascade")
    na, nb = int(c["shown_a"][-1]), int(c["shown_b"][-1])
    assert view.values["A/B: sessions shown A"] == na and na + nb == 300
    mean_a, mean_b = c["rr_a"][-1] / na, c["rr_b"][-1] / nb
    var_a = (c["rr2_a"][-1] - na * mean_a**2) / (na - 1)
    var_b = (c["rr2_b"][-1] - nb * mean_b**2) / (nb - 1)
    assert view.values["A/B: mean RR of first click, A"] == pytest.approx(mean_a)
    z = (mean_b - mean_a) / np.sqrt(var_a / na + var_b / nb)  # Welch, by hand
    assert view.values["A/B: z (B − A)"] == pytest.approx(z)
    wa, wb = view.values["interleaving: A wins"], view.values["interleaving: B wins"]
    assert wa + wb + view.values["interleaving: ties"] == 300
    assert view.values["interleaving: z (B − A)"] == pytest.approx((wb - wa) / np.sqrt(wa + wb))
    assert view.verdicts["interleaving"].startswith("good is better")


def test_online_slider_reads_prefixes_and_select_switches():
    view = online()
    view.set_sessions(50)
    early = view.values["interleaving: A wins"] + view.values["interleaving: B wins"]
    view.set_sessions(300)
    late = view.values["interleaving: A wins"] + view.values["interleaving: B wins"]
    assert early <= late
    assert view.values["sessions"] == 300
    view.select(a="same", b="good")  # identical lists: team draft can only tie... or split
    assert view.values["A/B: sessions shown A"] + view.values["A/B: sessions shown B"] == 300
    view.select(click_model="position-based")
    assert view.model.value == "position-based"
    assert "position-based clicks" in view.readout()


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda v: v.set_sessions(0), ValueError),
        (lambda v: v.set_sessions(301), ValueError),
        (lambda v: v.set_sessions(2.5), TypeError),
        (lambda v: v.select(a="nobody"), ValueError),
        (lambda v: v.select(click_model="random"), ValueError),
    ],
)
def test_online_bad_clicks(call, error):
    with pytest.raises(error):
        call(online())


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (([], QRELS), TypeError),
        ((RANKS, []), TypeError),
        (({"s": ["d1"]}, QRELS), TypeError),
        ((RANKS, QRELS, "bad", "good", "random"), ValueError),
    ],
)
def test_online_bad_input(args, error):
    with pytest.raises(error):
        OnlineExperiment(*args)


def test_online_attractiveness_reaches_the_position_based_users():
    # users who never click an examined document, whatever its grade: every interleaved
    # session is a tie and no A/B session has a click (the default users click: 0.05 for
    # grade 0 and more above)
    never = online(click_model="position-based", n_sessions=300, attractiveness=[0.0, 0.0, 0.0])
    assert never.values["interleaving: ties"] == 300
    assert never.values["A/B: mean RR of first click, A"] == 0.0
    assert never.clone().values["interleaving: ties"] == 300  # a copy keeps its users
    default = online(click_model="position-based", n_sessions=300)
    assert default.values["interleaving: ties"] < 300
    with pytest.raises(ValueError, match=r"attractiveness must hold probabilities in \[0, 1\]"):
        online(attractiveness=[0.5, 1.5])
