"""Build the additions to the course's water-management test collection.

The committed files of ``coursekit/data/collection/`` are what the course reads; this script is
how topics 13-54, documents W064-W250 and their judgments were written into them, and how the
depth-20 pool was checked. The first 63 documents, the first 12 topics and their 124 judgments
(the collection's first version) are kept byte for byte; the script checks that they are.

The additions themselves are data, in ``coursekit/data/collection/source/`` (tab-separated, a
header row, one file per kind; its README.md describes each column):

* ``topics.tsv``: topics 13-54, ``topic title description narrative``;
* ``documents.tsv``: documents W064-W250, ``doc_id text``;
* ``judgments.tsv``: every judgment added to the first version's, ``topic doc_id grade judged``;
* ``subtopics.tsv``: the subtopics of some topics (chapter 11), ``topic subtopic type
  description``;
* ``subtopic_judgments.tsv``: which relevant documents cover which subtopic, ``topic subtopic
  doc_id judgment``.

    .venv/bin/python tools/build_collection.py --base DIR   # rebuild from the first version in DIR
    .venv/bin/python tools/build_collection.py              # the same, on the committed files
    .venv/bin/python tools/build_collection.py --check      # do the files equal the source's build?
    .venv/bin/python tools/build_collection.py --pool       # list pooled pairs still unjudged

Building writes ``documents.trec``, ``topics.trec`` and ``qrels.txt``, regenerates the five
runs with :func:`coursekit.course.collection.make_runs`, and writes the subtopic judgments as a
TREC Web track diversity qrels file, ``qrels.subtopics.txt`` (``topic subtopic doc_id
judgment``, by :func:`coursekit.trec.write_subtopic_qrels`), with the subtopics' descriptions
in ``subtopics.tsv``. A document covers a subtopic only if it is relevant (grade >= 1) to the
topic in ``qrels.txt``, and every subtopic is covered by at least one document.

Judgments, 0-3 for topics 13-54 (0 not relevant, 1 marginally, 2 relevant, 3 highly relevant),
0-2 for topics 1-12 (the scale of their first judgments: 0 not relevant, 1 partly, 2 relevant).
The ``judged`` column of ``judgments.tsv`` says when a pair was judged:

* ``writing``: a grade the author gave a document while writing it, for the topics it was
  written for or obviously touches, read against each topic's narrative;
* ``pool``: a grade given afterwards to every other (topic, document) pair in the top 20 of any
  run, or to a pair the author went back to for a topic's recall; a pair is judged once, from
  the narrative (topics 13-54) or the description (topics 1-12).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit import trec  # noqa: E402
from coursekit.course import collection  # noqa: E402

HERE = collection.HERE
SOURCE = HERE / "source"
POOL_DEPTH = 20

# SHA-256 of the first version's parts, as this script extracts them (see _digest): documents
# W001-W063, topics 1-12, and the 124 qrels lines of coursekit at commit 9e6acaa.
FIRST_VERSION = {
    "documents": "cfb0a297997291427315708e1b40a9b90910a4d967a357ba279fdf2075e2f7dc",
    "topics": "9ef84cd290f4d0739d19212009a0f1e6d4192138e54bb513425cff2486e61959",
    "qrels": "b6d63db2618b7b2ed29f4dfd3cc4d763ca079daeb6b0b5e94048d31b7061a9b5",
}

#: the header row of each source file: its columns, in order
COLUMNS = {
    "topics.tsv": ("topic", "title", "description", "narrative"),
    "documents.tsv": ("doc_id", "text"),
    "judgments.tsv": ("topic", "doc_id", "grade", "judged"),
    "subtopics.tsv": ("topic", "subtopic", "type", "description"),
    "subtopic_judgments.tsv": ("topic", "subtopic", "doc_id", "judgment"),
}
#: the values of judgments.tsv's ``judged`` column
JUDGED = ("writing", "pool")
#: the values of subtopics.tsv's ``type`` column: informational or navigational (TREC Web track)
SUBTOPIC_TYPES = ("inf", "nav")
#: the values of subtopic_judgments.tsv's ``judgment`` column: 1 covers the subtopic, 0 does not
SUBTOPIC_JUDGMENTS = ("0", "1")
#: the built files of the subtopics (chapter 11), beside the collection's
SUBTOPIC_FILES = ("qrels.subtopics.txt", "subtopics.tsv")
_DOC_ID = re.compile(r"W\d{3}")
_NUMBER = re.compile(r"[1-9]\d*")

# --- reading the source ----------------------------------------------------------------------


def read_table(path: Path) -> list[tuple[str, ...]]:
    """The rows of one source file, each a tuple of its fields; the header row must be the one
    :data:`COLUMNS` gives, every row has as many fields, none empty or padded with spaces."""
    columns = COLUMNS[path.name]
    text = path.read_bytes().decode("utf-8")  # (read_text would turn CR LF into LF)
    if "\r" in text or not text.endswith("\n"):
        raise ValueError(f"{path}: lines must end with a line feed alone, the last one too")
    lines = text[:-1].split("\n")
    if tuple(lines[0].split("\t")) != columns:
        raise ValueError(f"{path}, line 1: the header row must be {' '.join(columns)}")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        fields = tuple(line.split("\t"))
        if len(fields) != len(columns):
            raise ValueError(
                f"{path}, line {number}: {len(fields)} fields, not {len(columns)} "
                f"({' '.join(columns)}, separated by tabs)"
            )
        for name, field in zip(columns, fields, strict=True):
            if not field or field != field.strip():
                raise ValueError(f"{path}, line {number}: {name} is empty or padded with spaces")
        rows.append(fields)
    return rows


def _unique(path: Path, ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for number, one in enumerate(ids, start=2):
        if one in seen:
            raise ValueError(f"{path}, line {number}: {what} {one} is there twice")
        seen.add(one)


def topics(source: Path = SOURCE) -> list[tuple[int, str, str, str]]:
    """(number, title, description, narrative) of the topics added to the first version's 12."""
    path = source / "topics.tsv"
    rows = read_table(path)
    for number, (num, *_) in enumerate(rows, start=2):
        if not _NUMBER.fullmatch(num):
            raise ValueError(f"{path}, line {number}: topic {num!r} is not a topic number")
    _unique(path, [row[0] for row in rows], "topic")
    return [(int(num), title, desc, narr) for num, title, desc, narr in rows]


def documents(source: Path = SOURCE) -> list[tuple[str, str]]:
    """(document id, text) of the documents added to the first version's 63."""
    path = source / "documents.tsv"
    rows = read_table(path)
    for number, (doc_id, _) in enumerate(rows, start=2):
        if not _DOC_ID.fullmatch(doc_id):
            raise ValueError(f"{path}, line {number}: {doc_id!r} is not a document id (W001)")
    _unique(path, [row[0] for row in rows], "document")
    return [(doc_id, text) for doc_id, text in rows]


def judgments(source: Path = SOURCE) -> dict[tuple[str, str], int]:
    """Every judgment this script adds: (topic, document) -> grade; a pair judged twice fails."""
    path = source / "judgments.tsv"
    found: dict[tuple[str, str], int] = {}
    for number, (topic, doc, grade, judged) in enumerate(read_table(path), start=2):
        if not _NUMBER.fullmatch(topic) or not grade.isdigit() or judged not in JUDGED:
            raise ValueError(
                f"{path}, line {number}: a topic number, a whole grade and "
                f"{' or '.join(JUDGED)} expected"
            )
        if (topic, doc) in found:
            raise ValueError(f"topic {topic}, {doc} is judged twice")
        found[(topic, doc)] = int(grade)
    return found


# --- building --------------------------------------------------------------------------------


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("".join(parts).encode("utf-8")).hexdigest()


def _split(text: str, tag: str) -> list[str]:
    """The ``<tag>...</tag>`` blocks of a file, each with the white space that follows it."""
    return re.findall(rf"<{tag}>.*?</{tag}>\s*", text, flags=re.S)


def _block_id(block: str, tag: str) -> str:
    found = re.search(rf"<{tag}>\s*(\S+?)\s*</{tag}>", block)
    if found is None:
        raise ValueError(f"no <{tag}> in {block[:60]!r}")
    return found.group(1)


def document_block(doc_id: str, text: str) -> str:
    return f"<DOC>\n<DOCNO>{doc_id}</DOCNO>\n<TEXT>\n{text}\n</TEXT>\n</DOC>\n"


def topic_block(num: int, title: str, desc: str, narr: str) -> str:
    return (
        f"<top>\n<num>{num}</num>\n<title>{title}</title>\n<desc>{desc}</desc>\n"
        f"<narr>{narr}</narr>\n</top>\n\n"
    )


def assemble(base: Path = HERE, source: Path = SOURCE) -> dict[str, str]:
    """The text of ``documents.trec``, ``topics.trec`` and ``qrels.txt``: the first version's
    parts read from ``base`` (checked against :data:`FIRST_VERSION`), then the source's."""
    new_documents, new_topics = documents(source), topics(source)
    new_docs = {doc_id for doc_id, _ in new_documents}
    new_nums = {str(num) for num, *_ in new_topics}
    added = judgments(source)
    files = {}

    # documents: the first version's blocks, byte for byte, then the new ones
    kept = [
        b
        for b in _split((base / "documents.trec").read_text(encoding="utf-8"), "DOC")
        if _block_id(b, "DOCNO") not in new_docs
    ]
    _check("documents", kept)
    known_docs = {_block_id(b, "DOCNO") for b in kept} | new_docs
    files["documents.trec"] = "".join(kept + [document_block(*d) for d in new_documents])

    # topics
    kept = [
        b
        for b in _split((base / "topics.trec").read_text(encoding="utf-8"), "top")
        if _block_id(b, "num") not in new_nums
    ]
    _check("topics", kept)
    known_topics = {_block_id(b, "num") for b in kept} | new_nums
    files["topics.trec"] = "".join(kept + [topic_block(*t) for t in new_topics])

    # qrels: the first version's lines, unchanged, and the added judgments, sorted
    lines = {}
    for line in (base / "qrels.txt").read_text(encoding="utf-8").splitlines():
        if line.strip():
            topic, _, doc, grade = line.split()
            if (topic, doc) not in added:
                lines[(topic, doc)] = f"{topic} 0 {doc} {grade}\n"
    _check("qrels", [lines[k] for k in sorted(lines, key=_qrels_order)])
    for (topic, doc), grade in added.items():
        if topic not in known_topics or doc not in known_docs:
            raise ValueError(f"judgment for an unknown topic or document: {topic} {doc}")
        if not 0 <= grade <= (2 if int(topic) <= 12 else 3):
            raise ValueError(f"grade {grade} out of range for topic {topic} ({doc})")
        lines[(topic, doc)] = f"{topic} 0 {doc} {grade}\n"
    files["qrels.txt"] = "".join(lines[k] for k in sorted(lines, key=_qrels_order))
    return files


def build(base: Path, source: Path = SOURCE) -> None:
    files = assemble(base, source)
    extra = assemble_subtopics(files, source)
    for name, text in {**files, **extra}.items():
        (HERE / name).write_bytes(text.encode("utf-8"))
    collection.make_runs(HERE / "runs")
    counts = (
        len({_block_id(b, "DOCNO") for b in _split(files["documents.trec"], "DOC")}),
        len({_block_id(b, "num") for b in _split(files["topics.trec"], "top")}),
        len(files["qrels.txt"].splitlines()),
    )
    print("{} documents, {} topics, {} judgments".format(*counts))
    judged = [line.split() for line in extra["qrels.subtopics.txt"].splitlines()]
    print(
        f"{len({row[0] for row in judged})} topics with subtopics, "
        f"{len(extra['subtopics.tsv'].splitlines()) - 1} subtopics, "
        f"{len(judged)} subtopic judgments"
    )


def check(base: Path, source: Path = SOURCE) -> int:
    """0 when the committed files are what the source builds, else 1 (nothing is written)."""
    files = assemble(base, source)
    files.update(assemble_subtopics(files, source))
    stale = [
        name
        for name, text in files.items()
        if not (HERE / name).is_file() or (HERE / name).read_bytes() != text.encode("utf-8")
    ]
    for name in stale:
        print(f"{name} differs from what {source} builds: run tools/build_collection.py")
    return 1 if stale else 0


def _qrels_order(key: tuple[str, str]) -> tuple[int, str]:
    return int(key[0]), key[1]


def _check(part: str, blocks: list[str]) -> None:
    if _digest(blocks) != FIRST_VERSION[part]:
        raise SystemExit(
            f"the {part} kept from the base differ from the collection's first version: "
            "rebuild with --base pointing at a copy of the first version"
        )


# --- subtopics (chapter 11: diversity) ------------------------------------------------------


def subtopics(source: Path = SOURCE) -> dict[tuple[str, str], tuple[int, str, str]]:
    """(topic, subtopic) -> (line in subtopics.tsv, type, description), in file order."""
    path = source / "subtopics.tsv"
    found: dict[tuple[str, str], tuple[int, str, str]] = {}
    for number, (topic, subtopic, kind, description) in enumerate(read_table(path), start=2):
        if not _NUMBER.fullmatch(topic) or not _NUMBER.fullmatch(subtopic):
            raise ValueError(f"{path}, line {number}: a topic and a subtopic number expected")
        if kind not in SUBTOPIC_TYPES:
            raise ValueError(
                f"{path}, line {number}: type {kind!r} is not {' or '.join(SUBTOPIC_TYPES)}"
            )
        if (topic, subtopic) in found:
            first = found[(topic, subtopic)][0]
            raise ValueError(
                f"{path}, line {number}: subtopic {subtopic} of topic {topic} is there twice "
                f"(line {first})"
            )
        found[(topic, subtopic)] = (number, kind, description)
    return found


def subtopic_judgments(
    qrels: dict[tuple[str, str], int], docs: set[str], source: Path = SOURCE
) -> list[tuple[str, str, str, int]]:
    """The rows of subtopic_judgments.tsv, (topic, subtopic, doc, judgment), checked against
    subtopics.tsv, the documents ``docs`` and the built ``qrels`` ((topic, doc) -> grade): an
    unknown subtopic or document, a pair judged twice, a covering document that is not relevant
    in qrels.txt and a subtopic that no document covers are refused with their file and line."""
    known = subtopics(source)
    path = source / "subtopic_judgments.tsv"
    rows: list[tuple[str, str, str, int]] = []
    lines: dict[tuple[str, str, str], int] = {}
    for number, (topic, subtopic, doc, judgment) in enumerate(read_table(path), start=2):
        where = f"{path}, line {number}"
        if (topic, subtopic) not in known:
            raise ValueError(f"{where}: topic {topic} has no subtopic {subtopic} in subtopics.tsv")
        if doc not in docs:
            raise ValueError(f"{where}: unknown document {doc!r}")
        if judgment not in SUBTOPIC_JUDGMENTS:
            raise ValueError(f"{where}: judgment {judgment!r} is not 0 or 1")
        if (topic, subtopic, doc) in lines:
            raise ValueError(
                f"{where}: {doc} is judged twice for subtopic {subtopic} of topic {topic} "
                f"(line {lines[(topic, subtopic, doc)]})"
            )
        lines[(topic, subtopic, doc)] = number
        if judgment == "1" and qrels.get((topic, doc), 0) < 1:
            grade = qrels.get((topic, doc))
            said = "not judged" if grade is None else f"graded {grade}"
            raise ValueError(
                f"{where}: {doc} covers subtopic {subtopic} of topic {topic} but is {said} "
                "for the topic in qrels.txt (a covering document must be relevant, grade >= 1)"
            )
        rows.append((topic, subtopic, doc, int(judgment)))
    covered = {(topic, subtopic) for topic, subtopic, _, judgment in rows if judgment}
    for key, (number, _, _) in known.items():
        if key not in covered:
            raise ValueError(
                f"{source / 'subtopics.tsv'}, line {number}: no document covers subtopic "
                f"{key[1]} of topic {key[0]} (judgment 1 in subtopic_judgments.tsv)"
            )
    return rows


def assemble_subtopics(files: dict[str, str], source: Path = SOURCE) -> dict[str, str]:
    """The text of ``qrels.subtopics.txt`` (TREC Web track diversity qrels, written by
    :func:`coursekit.trec.write_subtopic_qrels`) and ``subtopics.tsv`` (the descriptions),
    from the source and the built ``files`` of :func:`assemble` (their qrels and documents)."""
    qrels = {}
    for line in files["qrels.txt"].splitlines():
        topic, _, doc, grade = line.split()
        qrels[(topic, doc)] = int(grade)
    docs = {_block_id(b, "DOCNO") for b in _split(files["documents.trec"], "DOC")}
    topic_ids = {_block_id(b, "num") for b in _split(files["topics.trec"], "top")}
    known = subtopics(source)
    for (topic, _), (number, _, _) in known.items():
        if topic not in topic_ids:
            raise ValueError(f"{source / 'subtopics.tsv'}, line {number}: unknown topic {topic}")
    rows = sorted(
        subtopic_judgments(qrels, docs, source),
        key=lambda r: (int(r[0]), int(r[1]), r[2]),
    )
    frame = {
        "query_id": [r[0] for r in rows],
        "subtopic_id": [r[1] for r in rows],
        "doc_id": [r[2] for r in rows],
        "relevance": [r[3] for r in rows],
    }
    with tempfile.TemporaryDirectory() as folder:
        written = Path(folder) / "qrels.subtopics.txt"
        trec.write_subtopic_qrels(pd.DataFrame(frame), written)
        text = written.read_bytes().decode("utf-8")
    header = "\t".join(COLUMNS["subtopics.tsv"]) + "\n"
    ordered = sorted(known.items(), key=lambda kv: (int(kv[0][0]), int(kv[0][1])))
    table = "".join(f"{t}\t{s}\t{kind}\t{desc}\n" for (t, s), (_, kind, desc) in ordered)
    return {"qrels.subtopics.txt": text, "subtopics.tsv": header + table}


# --- the pool --------------------------------------------------------------------------------


def pool(depth: int = POOL_DEPTH) -> dict[str, list[str]]:
    """Each topic's pool: the documents any run ranks in its top ``depth``, in trec_eval's order
    (score descending, ties by document id descending), in first-seen order."""
    col = collection.load_collection()
    found: dict[str, list[str]] = {}
    for run in col.runs.values():
        rows = sorted(
            zip(run["query_id"].astype(str), run["doc_id"].astype(str), run["score"], strict=True),
            key=lambda r: (int(r[0]), -r[2], _descending(r[1])),
        )
        seen: dict[str, int] = {}
        for topic, doc, _ in rows:
            seen[topic] = seen.get(topic, 0) + 1
            if seen[topic] <= depth and doc not in found.setdefault(topic, []):
                found[topic].append(doc)
    return found


def _descending(doc_id: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in doc_id) + (1,)


def report_unjudged(source: Path = SOURCE) -> int:
    col = collection.load_collection()
    judged = set(
        zip(col.qrels["query_id"].astype(str), col.qrels["doc_id"].astype(str), strict=True)
    )
    texts = dict(zip(col.documents["doc_id"], col.documents["text"], strict=True))
    narratives = {str(num): (title, narr) for num, title, _, narr in topics(source)}
    missing = 0
    for topic, docs in sorted(pool().items(), key=lambda kv: int(kv[0])):
        todo = [d for d in docs if (topic, d) not in judged]
        if not todo:
            continue
        missing += len(todo)
        title, narr = narratives.get(topic, ("(first version)", ""))
        print(f"\n## topic {topic}: {title}\n{narr}")
        for doc in sorted(todo):
            print(f"  {doc}: {texts[doc]}")
    print(f"\n{missing} pooled pairs unjudged")
    return 1 if missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, default=HERE, help="folder of the first version")
    parser.add_argument("--source", type=Path, default=SOURCE, help="folder of the TSV files")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--pool", action="store_true", help="list unjudged pooled pairs")
    action.add_argument(
        "--check", action="store_true", help="compare the files with the source's build"
    )
    args = parser.parse_args(argv)
    if args.pool:
        return report_unjudged(args.source)
    if args.check:
        return check(args.base, args.source)
    build(args.base, args.source)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
