"""The collection's subtopic judgments (chapter 11): the source TSVs, the built diversity qrels,
the loader, the build's checks, and diversity measures of the five runs recomputed here.

The files are read with the small parsers below (``str.split``), not with the loader or the
``coursekit.trec`` reader under test; S-recall and alpha-nDCG are recomputed by a short
implementation of their definitions (ndeval's conventions: subtopics with a covering document,
equal weights, the greedy ideal ranking with ties to the later doc id).
"""

import importlib.util
import math
import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

import coursekit as ck
from coursekit.course import collection

HERE = collection.HERE
SOURCE = HERE / "source"
ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "build_collection", ROOT / "tools" / "build_collection.py"
)
builder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(builder)

COLUMNS = {
    "subtopics.tsv": ["topic", "subtopic", "type", "description"],
    "subtopic_judgments.tsv": ["topic", "subtopic", "doc_id", "judgment"],
}
BUILT = ("qrels.txt", "documents.trec", "topics.trec")


def tsv(path: Path) -> list[dict[str, str]]:
    """The rows of a tab-separated file with a header row (checked against COLUMNS)."""
    header, *lines = path.read_text(encoding="utf-8").split("\n")
    assert header.split("\t") == COLUMNS[path.name]
    assert lines[-1] == "" and all(lines[:-1]), path  # a final line feed, no blank line
    rows = [dict(zip(COLUMNS[path.name], line.split("\t"), strict=True)) for line in lines[:-1]]
    assert all(all(v and v == v.strip() for v in row.values()) for row in rows), path
    return rows


def raw_qrels() -> dict[tuple[str, str], int]:
    judged = {}
    for line in (HERE / "qrels.txt").read_text(encoding="utf-8").splitlines():
        topic, _, doc, grade = line.split()
        judged[(topic, doc)] = int(grade)
    return judged


def raw_subtopic_qrels() -> list[tuple[str, str, str, int]]:
    rows = []
    for line in (HERE / "qrels.subtopics.txt").read_text(encoding="utf-8").splitlines():
        topic, subtopic, doc, judgment = line.split(" ")
        rows.append((topic, subtopic, doc, int(judgment)))
    return rows


def covers() -> dict[str, dict[str, set[str]]]:
    """topic -> {doc: the subtopics it covers}, from the built file."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for topic, subtopic, doc, judgment in raw_subtopic_qrels():
        if judgment >= 1:
            found[topic][doc].add(subtopic)
    return found


def ranking(run: Path, topic: str) -> list[str]:
    """The run's documents for the topic, by score descending, ties by doc id descending."""
    rows = []
    for line in run.read_text(encoding="utf-8").splitlines():
        query, _, doc, _, score, _ = line.split()
        if query == topic:
            rows.append((float(score), doc))
    return [doc for _, doc in sorted(rows, reverse=True)]


# --- the source and the built files ----------------------------------------------------------


def test_the_built_files_agree_with_the_source():
    source = [
        (row["topic"], row["subtopic"], row["doc_id"], int(row["judgment"]))
        for row in tsv(SOURCE / "subtopic_judgments.tsv")
    ]
    built = raw_subtopic_qrels()
    assert len(set(source)) == len(source)  # no triple twice
    assert sorted(built) == sorted(source)
    # written topic by topic, subtopic by subtopic (as numbers), then by document
    assert built == sorted(built, key=lambda r: (int(r[0]), int(r[1]), r[2]))
    descriptions = tsv(SOURCE / "subtopics.tsv")
    shipped = tsv(HERE / "subtopics.tsv")
    assert sorted(map(tuple, (r.values() for r in shipped))) == sorted(
        map(tuple, (r.values() for r in descriptions))
    )
    assert [(r["topic"], r["subtopic"]) for r in shipped] == sorted(
        ((r["topic"], r["subtopic"]) for r in shipped), key=lambda p: (int(p[0]), int(p[1]))
    )


def test_subtopics_are_well_formed():
    rows = tsv(SOURCE / "subtopics.tsv")
    per_topic = defaultdict(list)
    for row in rows:
        per_topic[row["topic"]].append(int(row["subtopic"]))
        assert row["type"] in ("inf", "nav")
        assert row["description"].endswith("."), row
    topics = {tag for tag in re.findall(r"<num>(\d+)</num>", (HERE / "topics.trec").read_text())}
    assert len(per_topic) >= 20
    assert set(per_topic) <= topics
    for topic, numbers in per_topic.items():
        assert 2 <= len(numbers) <= 5, topic
        assert numbers == list(range(1, len(numbers) + 1)), topic


def test_every_covering_document_is_relevant_and_every_subtopic_covered():
    qrels = raw_qrels()
    subtopics = {(r["topic"], r["subtopic"]) for r in tsv(SOURCE / "subtopics.tsv")}
    covered = set()
    for topic, subtopic, doc, judgment in raw_subtopic_qrels():
        assert (topic, subtopic) in subtopics
        if judgment >= 1:
            assert qrels.get((topic, doc), 0) >= 1, (topic, subtopic, doc)
            covered.add((topic, subtopic))
    assert covered == subtopics


def test_novelty_and_diversity_matter():
    """Several documents cover two subtopics or more (so redundancy costs), and some subtopics
    are covered only by documents that a run ranks below 10 or not at all."""
    found = covers()
    multi = [(t, d) for t, docs in found.items() for d, subs in docs.items() if len(subs) >= 2]
    assert len(multi) >= 20
    run = HERE / "runs" / "bm25_stem.run"
    missed = [
        (topic, subtopic)
        for topic, docs in found.items()
        for subtopic in {s for subs in docs.values() for s in subs}
        if not any(subtopic in docs.get(d, ()) for d in ranking(run, topic)[:10])
    ]
    assert len(missed) >= 10


def test_readme_counts_match_the_files():
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    found = re.search(
        r"(\d+) topics with subtopics, (\d+) subtopics, (\d+) subtopic judgments", readme
    )
    assert found is not None
    rows = raw_subtopic_qrels()
    subtopics = tsv(HERE / "subtopics.tsv")
    counts = (len({r[0] for r in rows}), len(subtopics), len(rows))
    assert tuple(int(n) for n in found.groups()) == counts
    qrels = raw_qrels()
    relevant = {(t, d) for (t, d), g in qrels.items() if g >= 1 and t in {r[0] for r in rows}}
    covering = {(t, d) for t, _, d, j in rows if j >= 1}
    text = " ".join(readme.split())
    assert f"`qrels.txt`, {len(relevant)} (topic, document) pairs)" in text
    assert f"{len(covering)} pairs cover at least one subtopic" in text
    assert f"{len(relevant - covering)} relevant documents cover none" in text
    source_readme = (SOURCE / "README.md").read_text(encoding="utf-8")
    for name, columns in COLUMNS.items():
        row = next(line for line in source_readme.splitlines() if line.startswith(f"| `{name}` |"))
        assert all(f"`{column}`" in row for column in columns), name


# --- the loader ------------------------------------------------------------------------------


def test_the_loader_returns_the_subtopics():
    col = collection.load_collection()
    frame = col.subtopic_qrels
    assert list(frame.columns) == ["query_id", "subtopic_id", "doc_id", "relevance"]
    assert list(frame.itertuples(index=False, name=None)) == raw_subtopic_qrels()
    described = col.subtopics
    assert list(described.columns) == ["query_id", "subtopic_id", "type", "description"]
    assert [tuple(r) for r in described.itertuples(index=False, name=None)] == [
        tuple(r.values()) for r in tsv(HERE / "subtopics.tsv")
    ]


# --- the build -------------------------------------------------------------------------------


def test_the_files_are_what_the_source_builds():
    files = {name: (HERE / name).read_text(encoding="utf-8") for name in BUILT}
    built = builder.assemble_subtopics(files, SOURCE)
    assert sorted(built) == sorted(builder.SUBTOPIC_FILES)
    for name, text in built.items():
        assert (HERE / name).read_bytes() == text.encode("utf-8"), name
    assert builder.check(HERE, SOURCE) == 0


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        ("subtopic_judgments.tsv", "22\t1\tW111\t1", r"tsv, line 257: W111 is judged twice"),
        ("subtopic_judgments.tsv", "22\t1\tW999\t1", r"tsv, line 257: unknown document"),
        ("subtopic_judgments.tsv", "22\t9\tW111\t1", r"line 257: topic 22 has no subtopic 9"),
        ("subtopic_judgments.tsv", "22\t1\tW010\t1", r"line 257: W010 covers .* graded 0"),
        ("subtopic_judgments.tsv", "22\t1\tW001\t1", r"line 257: W001 covers .* not judged"),
        ("subtopic_judgments.tsv", "22\t1\tW109\t2", r"line 257: judgment '2' is not 0 or 1"),
        ("subtopic_judgments.tsv", "22\t1\tW109", r"line 257: 3 fields, not 4"),
        ("subtopics.tsv", "22\t5\tinf\tOne more.", r"subtopics.tsv, line 101: no document"),
        ("subtopics.tsv", "99\t1\tinf\tA topic.", r"subtopics.tsv, line 101: unknown topic 99"),
        ("subtopics.tsv", "22\t1\tinf\tAgain.", r"line 101: subtopic 1 of topic 22 is there"),
        ("subtopics.tsv", "22\t5\tweb\tOne more.", r"line 101: type 'web' is not inf or nav"),
    ],
)
def test_the_build_refuses_bad_subtopics(tmp_path, name, edit, message):
    for path in SOURCE.glob("*.tsv"):
        shutil.copy(path, tmp_path / path.name)
    target = tmp_path / name
    assert len(target.read_text(encoding="utf-8").splitlines()) in (100, 256)  # line numbers
    with open(target, "a", encoding="utf-8", newline="") as handle:
        handle.write(edit + "\n")
    files = {name: (HERE / name).read_text(encoding="utf-8") for name in BUILT}
    with pytest.raises(ValueError, match=message):
        builder.assemble_subtopics(files, tmp_path)


def test_a_covering_document_graded_0_is_refused(tmp_path):
    for path in SOURCE.glob("*.tsv"):
        shutil.copy(path, tmp_path / path.name)
    files = {name: (HERE / name).read_text(encoding="utf-8") for name in BUILT}
    assert "22 0 W111 3\n" in files["qrels.txt"]
    files["qrels.txt"] = files["qrels.txt"].replace("22 0 W111 3\n", "22 0 W111 0\n")
    with pytest.raises(ValueError, match=r"W111 covers subtopic 1 of topic 22 but is graded 0"):
        builder.assemble_subtopics(files, tmp_path)


# --- diversity measures of the runs ----------------------------------------------------------


def s_recall(docs: list[str], cover: dict[str, set[str]], k: int) -> float:
    every = set().union(*cover.values())
    seen = set().union(set(), *(cover.get(d, set()) for d in docs[:k]))
    return len(seen) / len(every)


def gains(docs: list[str], cover: dict[str, set[str]], alpha: float) -> list[float]:
    seen: dict[str, int] = defaultdict(int)
    out = []
    for doc in docs:
        out.append(sum((1 - alpha) ** seen[s] for s in cover.get(doc, ())))
        for s in cover.get(doc, ()):
            seen[s] += 1
    return out


def dcg(values: list[float], k: int) -> float:
    return sum(g / math.log2(r + 1) for r, g in enumerate(values[:k], start=1))


def greedy_ideal(cover: dict[str, set[str]], alpha: float, k: int) -> list[str]:
    """At each rank the document of largest novelty gain, ties to the later doc id."""
    order: list[str] = []
    left = set(cover)
    while left and len(order) < k:
        best = max(left, key=lambda d: (gains([*order, d], cover, alpha)[-1], d))
        order.append(best)
        left.remove(best)
    return order


def alpha_ndcg(docs: list[str], cover: dict[str, set[str]], k: int, alpha: float) -> float:
    ideal = dcg(gains(greedy_ideal(cover, alpha, k), cover, alpha), k)
    return dcg(gains(docs, cover, alpha), k) / ideal


def test_one_topic_by_hand():
    """bm25_stem on topic 22 (storm surge barriers: 1 movable barriers, 2 dams and dikes,
    3 natural buffers, 4 what a surge is). Its top 10 begins W111 {1}, W109 {1}, W112 {4},
    W110 {1, 2}; the rest cover nothing, and W113 {2, 3}, the only document on subtopic 3,
    is not in the run's top 100.

    S-recall@10 = |{1, 4, 2}| / 4 = 0.75.
    Novelty gains (alpha = 0.5): 1, 0.5 (subtopic 1 again), 1, 0.25 + 1 = 1.25 (1 a third time,
    2 new): alpha-DCG@10 = 1 + 0.5/log2 3 + 1/2 + 1.25/log2 5.
    Greedy ideal: W113 (2; ties with W110, the later id wins), W110 (0.5 + 1 = 1.5), W112 (1),
    W111 (0.5; ties with W109), W109 (0.25): 2 + 1.5/log2 3 + 1/2 + 0.5/log2 5 + 0.25/log2 6.
    """
    run = HERE / "runs" / "bm25_stem.run"
    docs = ranking(run, "22")
    cover = covers()["22"]
    assert [sorted(cover.get(d, ())) for d in docs[:4]] == [["1"], ["1"], ["4"], ["1", "2"]]
    assert not any(cover.get(d) for d in docs[4:10])
    assert "W113" not in docs
    by_hand_dcg = 1 + 0.5 / math.log2(3) + 1 / 2 + 1.25 / math.log2(5)
    ideal_dcg = 2 + 1.5 / math.log2(3) + 1 / 2 + 0.5 / math.log2(5) + 0.25 / math.log2(6)
    assert greedy_ideal(cover, 0.5, 10) == ["W113", "W110", "W112", "W111", "W109"]
    by_hand = {"StRecall@10": 0.75, "alpha_nDCG@10": by_hand_dcg / ideal_dcg}
    assert by_hand["alpha_nDCG@10"] == pytest.approx(0.62627, abs=1e-5)
    assert s_recall(docs, cover, 10) == by_hand["StRecall@10"]
    assert alpha_ndcg(docs, cover, 10, 0.5) == pytest.approx(by_hand["alpha_nDCG@10"])
    col = collection.load_collection()
    table = ck.evaluate_diversity(
        col.runs["bm25_stem"], col.subtopic_qrels, ["StRecall@10", "alpha_nDCG@10"]
    ).table()
    for measure, value in by_hand.items():
        assert table.loc["22", measure] == pytest.approx(value, abs=1e-12)


def test_evaluate_diversity_agrees_on_every_run_and_topic():
    col = collection.load_collection()
    found = covers()
    measures = ["StRecall@10", "alpha_nDCG(alpha=0.5)@10"]  # (named alpha_nDCG@10)
    for path in sorted((HERE / "runs").glob("*.run")):
        evaluation = ck.evaluate_diversity(
            col.runs[path.stem], col.subtopic_qrels, measures, missing_as_zero=True
        )
        table = evaluation.table()
        assert sorted(table.index, key=int) == sorted(found, key=int)
        for topic, cover in found.items():
            docs = ranking(path, topic)
            expected = (s_recall(docs, cover, 10), alpha_ndcg(docs, cover, 10, 0.5))
            values = table.loc[topic, ["StRecall@10", "alpha_nDCG@10"]]
            assert tuple(values) == pytest.approx(expected, abs=1e-12), (
                path.stem,
                topic,
            )


def test_readme_table_of_the_runs():
    """The README's S-recall@10 and alpha-nDCG@10 of each run are what the files give."""
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Subtopics", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` +\| ([0-9.]+) +\| ([0-9.]+) +\|$", section, flags=re.M)
    assert len(rows) == 5
    col = collection.load_collection()
    for name, recall, ndcg in rows:
        measures = ["StRecall@10", "alpha_nDCG@10"]
        mean = ck.evaluate_diversity(
            col.runs[name], col.subtopic_qrels, measures, missing_as_zero=True
        ).mean
        assert (f"{mean['StRecall@10']:.4f}", f"{mean['alpha_nDCG@10']:.4f}") == (recall, ndcg)
