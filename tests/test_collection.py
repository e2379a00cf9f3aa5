"""The shipped collection: sizes, formats, a complete pool, reproducible runs, and the source
(``source/*.tsv``) that ``tools/build_collection.py`` builds it from.

The files are read here with their own small parsers (regular expressions, ``str.split``), not
with the loader under test, and the loader's output is compared with them.
"""

import hashlib
import importlib.util
import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from coursekit.course import collection

POOL_DEPTH = 20
HERE = collection.HERE
SOURCE = HERE / "source"
ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "build_collection", ROOT / "tools" / "build_collection.py"
)
builder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(builder)


def raw_documents() -> dict[str, str]:
    text = (HERE / "documents.trec").read_text(encoding="utf-8")
    pairs = re.findall(r"<DOCNO>(\w+)</DOCNO>\s*<TEXT>\s*(.*?)\s*</TEXT>", text, flags=re.S)
    assert len(pairs) == text.count("<DOC>") == text.count("</DOC>")
    return {doc: " ".join(body.split()) for doc, body in pairs}


def raw_topics() -> list[str]:
    """The ``<top>`` blocks of topics.trec, in file order."""
    text = (HERE / "topics.trec").read_text(encoding="utf-8")
    blocks = re.findall(r"<top>(.*?)</top>", text, flags=re.S)
    assert len(blocks) == text.count("<top>")
    return blocks


def tag(block: str, name: str) -> str | None:
    found = re.search(rf"<{name}>(.*?)</{name}>", block, flags=re.S)
    return None if found is None else " ".join(found.group(1).split())


def raw_qrels() -> dict[tuple[str, str], int]:
    judged = {}
    for line in (HERE / "qrels.txt").read_text(encoding="utf-8").splitlines():
        topic, iteration, doc, grade = line.split()
        assert iteration == "0" and (topic, doc) not in judged, line
        judged[(topic, doc)] = int(grade)
    return judged


def raw_run(path) -> dict[str, list[tuple[str, int, float]]]:
    """topic -> [(doc, rank as written, score)] of one run file."""
    rows = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        topic, q0, doc, rank, score, _ = line.split()
        assert q0 == "Q0", line
        rows[topic].append((doc, int(rank), float(score)))
    return rows


def run_paths():
    return sorted((HERE / "runs").glob("*.run"))


# --- sizes and formats -----------------------------------------------------------------------


def test_sizes():
    col = collection.load_collection()
    docs, topics = raw_documents(), raw_topics()
    assert len(topics) >= 50
    assert list(col.topics["query_id"]) == [tag(b, "num") for b in topics]
    assert len(set(col.topics["query_id"])) == len(topics)
    assert list(col.documents["doc_id"]) == list(docs)
    assert list(col.documents["text"]) == list(docs.values())
    assert len(col.runs) == 5
    assert sorted(col.runs) == sorted(p.stem for p in run_paths())


def test_readme_counts_match_the_files():
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    found = re.search(r"(\d+) documents, (\d+) topics, (\d+) judgments", readme)
    assert found is not None
    counts = (len(raw_documents()), len(raw_topics()), len(raw_qrels()))
    assert tuple(int(n) for n in found.groups()) == counts
    assert f"Pool depth {POOL_DEPTH}." in readme


def test_topics_fields():
    """Titles and descriptions are read whole; every topic after the first 12 has a narrative
    that defines each grade, and the loader keeps it out of the description."""
    col = collection.load_collection()
    loaded = col.topics.set_index("query_id")
    for block in raw_topics():
        num, title, desc, narr = (tag(block, t) for t in ("num", "title", "desc", "narr"))
        assert title and desc, num
        assert loaded.loc[num, "title"] == title
        assert loaded.loc[num, "description"] == desc
        if int(num) > 12:
            assert narr is not None, num
            for grade in ("(3)", "(2)", "(1)", "(0)"):
                assert grade in narr, (num, grade)


def test_grades():
    col = collection.load_collection()
    judged = raw_qrels()
    assert len(col.qrels) == len(judged)
    assert set(judged.values()) <= {0, 1, 2, 3}
    assert set(col.qrels["relevance"]) <= {0, 1, 2, 3}
    # topics 1-12 keep the first version's scale, 0-2
    assert all(g <= 2 for (topic, _), g in judged.items() if int(topic) <= 12)


def test_every_judgment_names_a_document_and_a_topic():
    docs = raw_documents()
    topics = {tag(b, "num") for b in raw_topics()}
    judged = raw_qrels()
    assert {doc for _, doc in judged} <= set(docs)
    assert {topic for topic, _ in judged} == topics
    relevant = defaultdict(int)
    for (topic, _), grade in judged.items():
        relevant[topic] += grade >= 1
    assert min(relevant[t] for t in topics) >= 2


# --- the first version is kept --------------------------------------------------------------

# qrels.txt of the first version (commit 9e6acaa), topic -> "document=grade ..."
FIRST_QRELS = {
    "1": "W001=2 W002=2 W003=2 W004=1 W005=2 W041=1 W050=1",
    "2": "W006=2 W007=2 W008=2 W009=2 W010=1 W022=0 W040=1 W045=0 W047=0 W052=0",
    "3": "W011=2 W012=2 W013=2 W014=2 W015=2 W021=0",
    "4": "W001=0 W003=0 W011=0 W014=0 W016=2 W017=2 W018=2 W019=1 W020=2 W021=1 W032=0 W033=0 "
    "W035=0 W036=0 W043=1 W055=0 W059=0 W061=0 W062=0 W063=0",
    "5": "W001=0 W003=0 W006=0 W009=0 W020=0 W021=2 W022=2 W023=2 W024=2 W025=2 W036=0 W038=0 "
    "W042=0 W046=0 W047=1 W049=0 W050=0 W055=0 W057=1 W063=0",
    "6": "W020=1 W026=2 W027=2 W028=2 W029=1 W030=1 W063=1",
    "7": "W012=1 W031=2 W032=2 W033=2 W034=2 W035=2 W062=1",
    "8": "W009=1 W036=2 W037=2 W038=2 W039=2 W040=1 W048=1",
    "9": "W003=1 W014=1 W023=1 W041=2 W042=2 W043=2 W044=2 W045=2 W060=1",
    "10": "W001=0 W003=0 W006=0 W009=0 W024=0 W025=0 W030=0 W038=0 W042=0 W046=2 W047=2 W048=2 "
    "W049=2 W050=1 W051=0 W057=0 W063=0",
    "11": "W008=1 W024=0 W051=2 W052=2 W053=2 W054=2 W055=1",
    "12": "W005=1 W044=0 W056=2 W057=2 W058=2 W059=2 W060=2",
}
FIRST_TITLES = [
    "flood protection levees",
    "dams fish migration",
    "groundwater depletion",
    "drinking water treatment",
    "agricultural pollution of rivers",
    "drought restrictions",
    "irrigation efficiency",
    "hydroelectric power",
    "wetland restoration",
    "transboundary river treaties",
    "sediment deltas",
    "urban stormwater drainage",
]
# SHA-256 of "id<TAB>text<NEWLINE>" for W001-W063 of the first version's documents.trec, the
# text with white space collapsed as raw_documents() does
FIRST_DOCUMENTS = "8eb4daf6fbf0091450d977c83a78271bd4f0b6b1f90982ef823e72823f4c67e4"


def test_first_version_is_kept():
    judged = raw_qrels()
    first = {
        (topic, doc): int(grade)
        for topic, items in FIRST_QRELS.items()
        for doc, grade in (item.split("=") for item in items.split())
    }
    assert len(first) == 124
    assert {pair: judged.get(pair) for pair in first} == first
    topics = raw_topics()
    assert [(tag(b, "num"), tag(b, "title")) for b in topics[:12]] == [
        (str(i), t) for i, t in enumerate(FIRST_TITLES, 1)
    ]
    assert all(tag(b, "narr") is None for b in topics[:12])
    docs = raw_documents()
    first_ids = [f"W{i:03d}" for i in range(1, 64)]
    assert list(docs)[:63] == first_ids
    payload = "".join(f"{d}\t{docs[d]}\n" for d in first_ids)
    assert hashlib.sha256(payload.encode("utf-8")).hexdigest() == FIRST_DOCUMENTS


# --- runs and pool ---------------------------------------------------------------------------


def test_runs_reproducible(tmp_path):
    collection.make_runs(tmp_path)
    shipped = run_paths()
    assert sorted(p.name for p in tmp_path.glob("*.run")) == [p.name for p in shipped]
    for path in shipped:
        assert (tmp_path / path.name).read_text() == path.read_text(), path.name


def top_documents(rows: list[tuple[str, int, float]], depth: int) -> set[str]:
    """The top ``depth`` of one topic, in trec_eval's order (score descending, ties by document
    id descending) and in the order of the rank column as written; both are pooled."""
    by_score = sorted(rows, key=lambda r: r[0], reverse=True)  # ids descending, then ...
    by_score.sort(key=lambda r: r[2], reverse=True)  # ... scores descending (stable sort)
    by_rank = sorted(rows, key=lambda r: r[1])
    return {r[0] for r in by_score[:depth]} | {r[0] for r in by_rank[:depth]}


def test_top_documents_orders_ties_like_trec_eval():
    rows = [("W001", 1, 2.0), ("W003", 2, 1.0), ("W002", 3, 1.0), ("W004", 4, 1.0)]
    assert top_documents(rows, 2) == {"W001", "W003", "W004"}  # W004 by trec_eval, W003 by rank


def test_pool_is_judged():
    """The README says the pool (the top 20 of every run, for every topic) was judged in full:
    every document ranked 1-20 by a run has a grade for its topic."""
    judged = raw_qrels()
    topics = [tag(b, "num") for b in raw_topics()]
    missing, pooled = [], set()
    for path in run_paths():
        run = raw_run(path)
        assert set(run) <= set(topics), path.name
        for topic, rows in run.items():
            for doc in top_documents(rows, POOL_DEPTH):
                pooled.add((topic, doc))
                if (topic, doc) not in judged:
                    missing.append((path.stem, topic, doc))
    assert missing == []
    assert len(pooled) > 1000  # 54 topics, five runs: a real pool, not an empty one


# --- the build's source: coursekit/data/collection/source/*.tsv ------------------------------

SOURCE_COLUMNS = {
    "topics.tsv": ["topic", "title", "description", "narrative"],
    "documents.tsv": ["doc_id", "text"],
    "judgments.tsv": ["topic", "doc_id", "grade", "judged"],
    "subtopics.tsv": ["topic", "subtopic", "type", "description"],
    "subtopic_judgments.tsv": ["topic", "subtopic", "doc_id", "judgment"],
}


def raw_source(name: str) -> list[dict[str, str]]:
    """The rows of a source file as dicts, its header row checked against SOURCE_COLUMNS."""
    header, *lines = (SOURCE / name).read_text(encoding="utf-8").split("\n")
    assert header.split("\t") == SOURCE_COLUMNS[name]
    assert lines[-1] == "" and all(lines[:-1]), name  # a final line feed, no blank line
    rows = [dict(zip(SOURCE_COLUMNS[name], line.split("\t"), strict=True)) for line in lines[:-1]]
    assert all(all(v and v == v.strip() for v in row.values()) for row in rows), name
    return rows


def test_source_readme_describes_every_file_and_column():
    readme = (SOURCE / "README.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in SOURCE.glob("*.tsv")) == sorted(SOURCE_COLUMNS)
    for name, columns in SOURCE_COLUMNS.items():
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{name}` |"))
        assert all(f"`{column}`" in row for column in columns), name


def test_source_agrees_with_the_collection_files():
    """The TSV files hold what the first version lacks, and the built files hold them as they
    are: topics 13-54, documents W064-W250, and every judgment outside the first version's."""
    blocks = {tag(b, "num"): b for b in raw_topics()}
    topics = raw_source("topics.tsv")
    assert [row["topic"] for row in topics] == [str(n) for n in range(13, 55)]
    for row in topics:
        block = blocks[row["topic"]]
        assert [tag(block, t) for t in ("title", "desc", "narr")] == [
            row["title"],
            row["description"],
            row["narrative"],
        ]
    docs = raw_documents()
    assert {row["doc_id"]: row["text"] for row in raw_source("documents.tsv")} == {
        d: text for d, text in docs.items() if d > "W063"
    }
    judged = raw_source("judgments.tsv")
    assert {row["judged"] for row in judged} == {"writing", "pool"}
    added = {(row["topic"], row["doc_id"]): int(row["grade"]) for row in judged}
    assert len(added) == len(judged)  # no pair twice
    first = {
        (topic, item.split("=")[0])
        for topic, items in FIRST_QRELS.items()
        for item in items.split()
    }
    assert added == {pair: grade for pair, grade in raw_qrels().items() if pair not in first}


def test_the_files_are_what_the_source_builds():
    """tools/build_collection.py, run on the committed files, would write them unchanged."""
    built = builder.assemble(HERE, SOURCE)
    assert sorted(built) == ["documents.trec", "qrels.txt", "topics.trec"]
    for name, text in built.items():
        assert (HERE / name).read_text(encoding="utf-8") == text, name
    assert builder.check(HERE, SOURCE) == 0


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        ("judgments.tsv", lambda t: t + "13\tW064\t1\tpool\n", "judged twice"),
        ("judgments.tsv", lambda t: t + "13\tW064\t1\n", "line 1115: 3 fields, not 4"),
        ("judgments.tsv", lambda t: t + "13\tW999\t1\tpool\n", "unknown topic or document"),
        ("judgments.tsv", lambda t: t + "2\tW250\t3\tpool\n", "grade 3 out of range"),
        ("judgments.tsv", lambda t: t + "13\tW249\t2\tlater\n", "writing or pool expected"),
        ("topics.tsv", lambda t: t.replace("topic\t", "num\t", 1), "line 1: the header row"),
        ("documents.tsv", lambda t: t + "W064\tagain\n", "document W064 is there twice"),
        ("documents.tsv", lambda t: t.replace("\n", "\r\n"), "line feed alone"),
    ],
)
def test_the_build_refuses_bad_source(tmp_path, name, edit, message):
    for path in SOURCE.glob("*.tsv"):
        shutil.copy(path, tmp_path / path.name)
    target = tmp_path / name
    target.write_text(edit(target.read_text(encoding="utf-8")), encoding="utf-8", newline="")
    with pytest.raises(ValueError, match=message):
        builder.assemble(HERE, tmp_path)


def test_the_build_keeps_the_first_version(tmp_path):
    """A base whose first-version part differs (one grade of topic 1 changed) is refused."""
    for name in ("documents.trec", "topics.trec", "qrels.txt"):
        shutil.copy(HERE / name, tmp_path / name)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(qrels.read_text().replace("1 0 W004 1\n", "1 0 W004 2\n"))
    with pytest.raises(SystemExit, match="the qrels kept from the base differ"):
        builder.assemble(tmp_path, SOURCE)
