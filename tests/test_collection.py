"""The shipped collection: sizes, formats and reproducible runs."""

from coursekit.course import collection


def test_sizes():
    col = collection.load_collection()
    assert len(col.documents) == 63 and len(col.topics) == 12
    assert set(col.qrels["relevance"]) <= {0, 1, 2}
    assert len(col.runs) == 5


def test_runs_reproducible(tmp_path):
    collection.make_runs(tmp_path)
    for shipped in sorted((collection.HERE / "runs").glob("*.run")):
        assert (tmp_path / shipped.name).read_text() == shipped.read_text(), shipped.name


def test_pool_is_judged():
    """The README says the pool (the top 10 of every run, for every topic) was judged in full:
    every document ranked 1-10 by a run, in trec_eval's order, has a grade for its topic."""
    import coursekit as ck

    col = collection.load_collection()
    judged = set(zip(col.qrels["query_id"], col.qrels["doc_id"], strict=True))
    missing = []
    for name, run in col.runs.items():
        top = ck.sort_run(run).groupby("query_id", sort=False).head(10)
        missing += [
            (name, q, d)
            for q, d in zip(top["query_id"], top["doc_id"], strict=True)
            if (q, d) not in judged
        ]
    assert missing == []
    assert set(col.qrels["query_id"]) == set(col.topics["query_id"])
