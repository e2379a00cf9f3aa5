"""Retrieval systems checked against hand computations on a 3-document corpus."""

import math

import numpy as np
import pytest

from coursekit.course import retrieval as r

DOCS = ["river flood river", "flood dam", "lake"]


def test_bm25_hand_computed():
    idx = r.Index(DOCS)
    # "river": N=3, df=1 -> idf = ln(2.5/1.5 + 1); doc 0 tf=2, |d|=3, avgdl=2
    idf = math.log(2.5 / 1.5 + 1)
    k1, b = 1.2, 0.75
    expected0 = idf * 2 * 2.2 / (2 + k1 * (1 - b + b * 3 / 2))
    s = r.bm25(idx, "river", k1=k1, b=b)
    assert s[0] == pytest.approx(expected0)
    assert s[1] == 0 and s[2] == 0


def test_tfidf_cosine_hand_computed():
    idx = r.Index(DOCS)
    # doc 1 = (flood, dam), both idf ln(3/2) and ln(3); query "dam"
    wf, wd = math.log(1.5), math.log(3)
    s = r.tfidf_cosine(idx, "dam")
    assert s[1] == pytest.approx(wd / math.hypot(wf, wd))


def test_boolean_and_and_stemmer():
    idx = r.Index(["rivers flood", "river", "floods rivers"], stem=True)
    assert list(r.boolean_and(idx, "river floods")) == [1.0, 0.0, 1.0]
    assert r.s_stem("queries") == "query"


def test_bad_input():
    with pytest.raises(ValueError, match="k1"):
        r.bm25(r.Index(DOCS), "x", k1=-1)
    with pytest.raises(TypeError, match="str"):
        r.tokenize(3)
    assert np.all(r.bm25(r.Index(DOCS), "absent") == 0)
