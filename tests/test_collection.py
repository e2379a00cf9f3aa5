"""The shipped collection: sizes, formats and reproducible runs."""

from coursekit import collection


def test_sizes():
    col = collection.load()
    assert len(col.documents) == 63 and len(col.topics) == 12
    assert set(col.qrels["relevance"]) <= {0, 1, 2}
    assert len(col.runs) == 5


def test_runs_reproducible(tmp_path):
    collection.make_runs(tmp_path)
    for shipped in sorted((collection.HERE / "runs").glob("*.run")):
        assert (tmp_path / shipped.name).read_text() == shipped.read_text(), shipped.name
