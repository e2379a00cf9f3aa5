"""The course's own test collection: documents, topics, qrels and runs as DataFrames.

Files live in ``coursekit/data/collection/``: ``documents.trec`` (``<DOC><DOCNO>..</DOCNO>
<TEXT>..</TEXT></DOC>``), ``topics.trec`` (``<top><num>..<title>..<desc>..</top>``, topics
13 on with a ``<narr>`` that is not read here), ``qrels.txt`` (TREC qrels, grades 0-3; topics
1-12 use 0-2), ``runs/*.run`` (TREC runs made by :func:`make_runs`) and, for chapter 11
(diversity), ``qrels.subtopics.txt`` (TREC Web track diversity qrels, ``topic subtopic doc_id
judgment``: which relevant documents cover which subtopic of 22 of the topics) with
``subtopics.tsv`` (each subtopic's type and description). See the README there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from .. import trec
from ..validation import check_positive_int, describe
from . import retrieval

HERE = Path(__file__).parent.parent / "data" / "collection"

#: system name -> (stem, scoring function of (index, query text))
SYSTEMS: dict[str, tuple[bool, Callable[[retrieval.Index, str], np.ndarray]]] = {
    "bool_and": (False, retrieval.boolean_and),
    "tfidf": (False, retrieval.tfidf_cosine),
    "bm25": (False, lambda ix, q: retrieval.bm25(ix, q, k1=1.2, b=0.75)),
    "bm25_stem": (True, lambda ix, q: retrieval.bm25(ix, q, k1=1.2, b=0.75)),
    "bm25_b0_stem": (True, lambda ix, q: retrieval.bm25(ix, q, k1=2.0, b=0.0)),
}


def _blocks(text: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}>(.*?)</{tag}>", text, flags=re.S | re.I)


def _field(block: str, tag: str) -> str:
    found = re.search(rf"<{tag}>\s*(.*?)\s*(?=<|$)", block, flags=re.S | re.I)
    if found is None:
        raise ValueError(f"missing <{tag}> field in block: {block[:60]!r}")
    return " ".join(found.group(1).split())


def _read(path: Path | str) -> str:
    """The text of a UTF-8 file; a file in another encoding is an error naming it."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{path} is not UTF-8 text (byte {error.start} is {error.object[error.start]:#04x}): "
            "save it as UTF-8"
        ) from None


def read_documents(path: Path | str = HERE / "documents.trec") -> pd.DataFrame:
    """Documents as a DataFrame with columns ``doc_id`` and ``text``."""
    blocks = _blocks(_read(path), "DOC")
    return pd.DataFrame(
        {
            "doc_id": [_field(b, "DOCNO") for b in blocks],
            "text": [_field(b, "TEXT") for b in blocks],
        }
    )


def read_topics(path: Path | str = HERE / "topics.trec") -> pd.DataFrame:
    """Topics as a DataFrame with columns ``query_id``, ``title``, ``description``."""
    blocks = _blocks(_read(path), "top")
    return pd.DataFrame(
        {
            "query_id": [_field(b, "num") for b in blocks],
            "title": [_field(b, "title") for b in blocks],
            "description": [_field(b, "desc") for b in blocks],
        }
    )


def read_subtopics(path: Path | str = HERE / "subtopics.tsv") -> pd.DataFrame:
    """The subtopics of the topics that have some, as a DataFrame with columns ``query_id``,
    ``subtopic_id``, ``type`` (``inf`` informational or ``nav`` navigational, as in the TREC
    Web track) and ``description`` (a tab-separated file with a header row, ids as text)."""
    lines = _read(path).split("\n")
    header = lines[0].split("\t")
    if header != ["topic", "subtopic", "type", "description"]:
        raise ValueError(f"{path}, line 1: the header row must be topic subtopic type description")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise ValueError(f"{path}, line {number}: {len(fields)} fields, not 4")
        rows.append(fields)
    return pd.DataFrame(rows, columns=["query_id", "subtopic_id", "type", "description"])


def make_run(
    documents: pd.DataFrame, topics: pd.DataFrame, system: str, depth: int = 100
) -> pd.DataFrame:
    """Run ``system`` (a key of :data:`SYSTEMS`) on every topic title; a TREC-run DataFrame
    of the first ``depth`` documents of each topic (``documents``: columns doc_id and text, one
    row per document; ``topics``: columns query_id and title)."""
    if not isinstance(system, str) or system not in SYSTEMS:
        raise ValueError(f"unknown system {describe(system)}; choose one of {sorted(SYSTEMS)}")
    depth = check_positive_int(depth, "depth")
    ids, texts = _columns(documents, "documents", "doc_id", "text")
    _columns(topics, "topics", "query_id", "title")
    seen: set = set()
    for doc, text in zip(ids, texts, strict=True):
        if doc in seen:
            raise ValueError(f"documents has the doc_id {doc!r} twice: a run ranks each once")
        seen.add(doc)
        if not isinstance(text, str):
            raise TypeError(
                f"documents: the text of {doc!r} must be a str, "
                f"got {type(text).__name__} {describe(text)}"
            )
    for qid, title in zip(topics["query_id"], topics["title"], strict=True):
        if not isinstance(title, str):
            raise TypeError(
                f"topics: the title of {qid!r} must be a str, "
                f"got {type(title).__name__} {describe(title)}"
            )
    stem, score = SYSTEMS[system]
    index = retrieval.Index(texts, stem=stem)
    rows = []
    for qid, title in zip(topics["query_id"], topics["title"], strict=True):
        for r, (doc, s) in enumerate(retrieval.rank(score(index, title), ids, depth), 1):
            rows.append((qid, doc, r, round(s, 6), system))
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "rank", "score", "run"])


def _columns(frame: pd.DataFrame, name: str, *columns: str) -> list[list]:
    """The ``columns`` of ``frame`` as lists; a missing one is an error naming it."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{name} has no column {missing[0]!r}: it needs the columns {', '.join(columns)}"
        )
    return [list(frame[c]) for c in columns]


def make_runs(out_dir: Path | str | None = None) -> dict[str, pd.DataFrame]:
    """Regenerate every system's run; write ``<system>.run`` files when ``out_dir`` is given."""
    docs, topics = read_documents(), read_topics()
    runs = {name: make_run(docs, topics, name) for name in SYSTEMS}
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        for name, run in runs.items():
            trec.write_run(run, Path(out_dir) / f"{name}.run", run_name=name)
    return runs


def load_collection() -> SimpleNamespace:
    """The course's own test collection (documents, topics, qrels, runs; CC BY 4.0).

    Returns a namespace with DataFrames ``documents``, ``topics``, ``qrels`` and a dict
    ``runs`` (system name -> run DataFrame), and for chapter 11 the DataFrames
    ``subtopic_qrels`` (query_id, subtopic_id, doc_id, relevance: the subtopic judgments, as
    :func:`coursekit.read_subtopic_qrels` reads them, for :func:`coursekit.evaluate_diversity`)
    and ``subtopics`` (query_id, subtopic_id, type, description; :func:`read_subtopics`).
    """
    runs = {p.stem: trec.read_run(p) for p in sorted((HERE / "runs").glob("*.run"))}
    return SimpleNamespace(
        documents=read_documents(),
        topics=read_topics(),
        qrels=trec.read_qrels(HERE / "qrels.txt"),
        runs=runs,
        subtopic_qrels=trec.read_subtopic_qrels(HERE / "qrels.subtopics.txt"),
        subtopics=read_subtopics(),
    )
