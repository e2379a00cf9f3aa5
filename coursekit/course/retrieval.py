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

import re
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

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
    docs : sequence of str, the document texts (order gives the document index).
    stem : apply :func:`s_stem` to documents and queries.
    """

    def __init__(self, docs: Sequence[str], stem: bool = False) -> None:
        if isinstance(docs, str) or len(docs) == 0:
            raise ValueError("docs must be a non-empty sequence of document texts")
        self.stem = stem
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


def boolean_and(index: Index, query: str) -> np.ndarray:
    """1.0 for documents containing every query term, else 0.0 (unranked set)."""
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
    """
    if k1 < 0 or not 0 <= b <= 1:
        raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
    scores = np.zeros(index.n_docs)
    norm = k1 * (1 - b + b * index.doc_len / index.doc_len.mean())
    for col in index.query_terms(query):
        tf = index.tf[:, col].toarray().ravel()
        df = index.df[col]
        idf = np.log((index.n_docs - df + 0.5) / (df + 0.5) + 1)
        scores += idf * tf * (k1 + 1) / (tf + norm)
    return scores


def rank(scores: np.ndarray, doc_ids: Sequence[str], depth: int = 100) -> list[tuple[str, float]]:
    """Documents with a positive score, by decreasing score, ties broken by document id."""
    order = sorted(
        (i for i in range(len(scores)) if scores[i] > 0), key=lambda i: (-scores[i], doc_ids[i])
    )
    return [(doc_ids[i], float(scores[i])) for i in order[:depth]]
