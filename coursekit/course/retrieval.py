"""Small, readable retrieval systems for the course's test collection.

Tokeniser, an optional light suffix-stripping "S-stemmer" (Harman 1991), Boolean AND,
TF-IDF cosine (Salton & Buckley 1988) and BM25 (Robertson & Zaragoza 2009), built on
numpy and scipy.sparse.

References
----------
Harman, D. (1991). How effective is suffixing? JASIS 42(1), 7-15.
Salton, G., Buckley, C. (1988). Term-weighting approaches in automatic text retrieval.
Information Processing & Management 24(5), 513-523.
Robertson, S., Zaragoza, H. (2009). The probabilistic relevance framework: BM25 and beyond.
Foundations and Trends in Information Retrieval 3(4), 333-389.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..validation import check_bool, check_positive_int, check_scalar, describe

_TOKEN = re.compile(r"[a-z0-9]+")


def s_stem(word: str) -> str:
    """Harman's (1991) S-stemmer: strip plural endings only.

    Rules, first match wins: ``-ies`` -> ``-y`` (not after ``e``/``a``), ``-es`` -> ``-e``
    (not after ``a``, ``e``, ``o``), ``-s`` -> ``""`` (not after ``u`` or ``s``).

    >>> [s_stem(w) for w in ["queries", "floods", "glass", "dams", "goes"]]
    ['query', 'flood', 'glass', 'dam', 'goe']
    """
    if not isinstance(word, str):
        raise TypeError(f"s_stem expects a str, got {type(word).__name__}")
    if word.endswith("ies") and len(word) > 4 and word[-4] not in "ea":
        return word[:-3] + "y"
    if word.endswith("es") and len(word) > 3 and word[-3] not in "aeo":
        return word[:-1]
    if word.endswith("s") and len(word) > 2 and word[-2] not in "us":
        return word[:-1]
    return word


def tokenize(text: str, stem: bool = False) -> list[str]:
    """Lower-case ``text``, split on non-alphanumerics, optionally S-stem each token.

    >>> tokenize("Rivers, and FLOOD-plains!", stem=True)
    ['river', 'and', 'flood', 'plain']
    """
    if not isinstance(text, str):
        raise TypeError(f"tokenize expects a str, got {type(text).__name__}")
    tokens = _TOKEN.findall(text.lower())
    return [s_stem(t) for t in tokens] if stem else tokens


class Index:
    """Term-document count matrix ``tf`` (documents x terms, scipy CSR).

    Parameters
    ----------
    docs : sequence of str, the document texts (order gives the document index; a generator is
        read once; a set, which has no order, is refused).
    stem : apply :func:`s_stem` to documents and queries.
    """

    def __init__(self, docs: Sequence[str], stem: bool = False) -> None:
        docs = _sequence(docs, "docs", "document texts")
        if len(docs) == 0:
            raise ValueError("docs must be a non-empty sequence of document texts")
        for i, text in enumerate(docs):
            if not isinstance(text, str):
                raise TypeError(
                    f"docs[{i}] must be a str (a document text), "
                    f"got {type(text).__name__} {describe(text)}"
                )
        self.stem = check_bool(stem, "stem")
        self.vocab: dict[str, int] = {}
        rows, cols = [], []
        for i, text in enumerate(docs):
            for tok in tokenize(text, stem):
                rows.append(i)
                cols.append(self.vocab.setdefault(tok, len(self.vocab)))
        data = np.ones(len(rows))
        self.tf = sp.csr_matrix((data, (rows, cols)), shape=(len(docs), len(self.vocab)))
        self.tf.sum_duplicates()
        self.n_docs = len(docs)
        self.df = np.asarray((self.tf > 0).sum(axis=0)).ravel()
        self.doc_len = np.asarray(self.tf.sum(axis=1)).ravel()

    def query_terms(self, query: str) -> list[int]:
        """Column indices of the distinct query terms found in the vocabulary."""
        seen = dict.fromkeys(tokenize(query, self.stem))
        return [self.vocab[t] for t in seen if t in self.vocab]


def _sequence(items: Any, name: str, what: str) -> list:
    """``items`` as a list (a generator read once); a set or a dict, which have no order of
    their own, and a single string are refused."""
    if isinstance(items, (str, bytes, AbstractSet, Mapping)) or not isinstance(items, Iterable):
        raise TypeError(
            f"{name} must be a sequence of {what} (a list, in order), "
            f"got {type(items).__name__} {describe(items, 40)}"
        )
    return list(items)


def _check_query(index: Any, query: Any) -> None:
    if not isinstance(index, Index):
        raise TypeError(f"index must be an Index of the documents, got {type(index).__name__}")
    if not isinstance(query, str):
        raise TypeError(f"query must be a str (the query text), got {type(query).__name__}")


def boolean_and(index: Index, query: str) -> np.ndarray:
    """1.0 for documents containing every query term, else 0.0 (unranked set)."""
    _check_query(index, query)
    terms = dict.fromkeys(tokenize(query, index.stem))
    if not terms or any(t not in index.vocab for t in terms):
        return np.zeros(index.n_docs)
    cols = [index.vocab[t] for t in terms]
    present = (index.tf[:, cols] > 0).toarray()
    return present.all(axis=1).astype(float)


def tfidf_cosine(index: Index, query: str) -> np.ndarray:
    """Cosine between tf-idf vectors, w = tf * log(N / df) (Salton & Buckley 1988).

    score(d, q) = sum_t w_td w_tq / (||w_d|| ||w_q||).
    """
    _check_query(index, query)
    idf = np.log(index.n_docs / np.maximum(index.df, 1))
    w_d = index.tf.multiply(idf).tocsr()
    norms = np.sqrt(np.asarray(w_d.multiply(w_d).sum(axis=1)).ravel())
    q = np.zeros(len(index.vocab))
    for tok in tokenize(query, index.stem):
        if tok in index.vocab:
            q[index.vocab[tok]] += 1.0
    q *= idf
    q_norm = np.linalg.norm(q)
    if q_norm == 0:
        return np.zeros(index.n_docs)
    dots = w_d @ q
    return np.divide(dots, norms * q_norm, out=np.zeros(index.n_docs), where=norms > 0)


def bm25(index: Index, query: str, k1: float = 1.2, b: float = 0.75) -> np.ndarray:
    """Okapi BM25 (Robertson & Zaragoza 2009, eq. 3.15 with the non-negative idf).

    score(d, q) = sum_{t in q} idf(t) * tf (k1 + 1) / (tf + k1 (1 - b + b |d| / avgdl)),
    idf(t) = log((N - df + 0.5) / (df + 0.5) + 1).

    ``k1 = 0`` turns term frequency off: a document containing the term scores its idf, one
    without it 0.
    """
    _check_query(index, query)
    check_scalar(k1, "k1", numbers.Real, what="a number (BM25's k1)", min_val=0)
    check_scalar(b, "b", numbers.Real, what="a number (BM25's b)", min_val=0, max_val=1)
    scores = np.zeros(index.n_docs)
    avgdl = index.doc_len.mean() or 1.0  # (no term in any document: no query term either)
    norm = k1 * (1 - b + b * index.doc_len / avgdl)
    for col in index.query_terms(query):
        tf = index.tf[:, col].toarray().ravel()
        df = index.df[col]
        idf = np.log((index.n_docs - df + 0.5) / (df + 0.5) + 1)
        # only where tf > 0: elsewhere the term adds 0 (and tf + norm is 0 when k1 = 0)
        scores += np.divide(idf * tf * (k1 + 1), tf + norm, out=np.zeros(tf.size), where=tf > 0)
    return scores


def rank(scores: np.ndarray, doc_ids: Sequence[str], depth: int = 100) -> list[tuple[str, float]]:
    """Documents with a positive score, by decreasing score, ties broken by document id: the
    first ``depth`` of them. ``scores[i]`` is the score of ``doc_ids[i]``."""
    scores, doc_ids = _scores(scores), _sequence(doc_ids, "doc_ids", "document ids")
    if len(doc_ids) != scores.size:
        raise ValueError(
            f"doc_ids has {len(doc_ids)} ids for {scores.size} scores: one id per score"
        )
    depth = check_positive_int(depth, "depth")
    order = sorted(
        (i for i in range(len(scores)) if scores[i] > 0), key=lambda i: (-scores[i], doc_ids[i])
    )
    return [(doc_ids[i], float(scores[i])) for i in order[:depth]]


def _scores(scores: Any) -> np.ndarray:
    """The scores of the documents: a 1-D array of finite numbers (a list is checked item by
    item, so that a wrong one is named)."""
    if not isinstance(scores, np.ndarray):
        items = _sequence(scores, "scores", "numbers")
        for i, item in enumerate(items):
            check_scalar(item, f"scores[{i}]", numbers.Real, what="a finite number")
        scores = np.asarray(items, dtype=float)
    if scores.ndim != 1:
        raise ValueError(f"scores must be one-dimensional, got an array of shape {scores.shape}")
    if scores.dtype.kind not in "iuf":
        raise TypeError(f"scores must hold numbers, got an array of dtype {scores.dtype}")
    bad = np.flatnonzero(~np.isfinite(scores))
    if bad.size:
        raise ValueError(f"scores[{bad[0]}] is {scores[bad[0]]}: a score is a finite number")
    return scores
