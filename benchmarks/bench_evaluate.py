"""Benchmark: coursekit.evaluate against pytrec_eval on a TREC-scale run.

    .venv/bin/python benchmarks/bench_evaluate.py                 # 1000 queries x 1000 documents
    .venv/bin/python benchmarks/bench_evaluate.py --queries 100 --docs 200 --repeats 3   # quick

The data are seeded and synthetic: each query retrieves ``--docs`` distinct documents from a pool
of 100,000 ids ("doc12345"; ``--pool`` for another size: with a million, 630,000 distinct doc
ids, as a large collection gives) with continuous scores, written in rank order as a run file
is; the qrels judge ``--judged`` of the retrieved documents and ``--unretrieved`` others per query,
with grades 0..3. Before timing anything the script checks that both tools give the same mean
AP (within 1e-9; where two scores of a query are equal as float32, which pytrec_eval ties,
once coursekit compares scores as float32 too), so that the two columns time the same work
(coursekit's default, float64 scores, is timed). Each figure is the median of
``--repeats`` runs, in one process, with the garbage collector run before each one; the two
tools take turns within each repetition so that a busy machine slows both alike.

Cases:
  (a) in memory: evaluate(run, qrels, ["AP", "nDCG@10", "P@10"]) against
      RelevanceEvaluator(qrels_dict, {"map", "ndcg_cut_10", "P_10"}).evaluate(run_dict),
      evaluator construction included; coursekit with the id columns as read_run/read_qrels
      return them (categoricals), as Python strings (object dtype, pandas 2's default: one
      object a row, and one object per distinct id shared by its rows, as pandas 2's
      read_csv gives them), as pandas' default string dtype (pandas 3: "str", stored by
      pyarrow), as "string[pyarrow]", and as nested dicts;
  (b) from files: read_run + read_qrels + evaluate against parse_run + parse_qrel +
      RelevanceEvaluator + evaluate;
  (c) as (a), the rows in random order, so that coursekit has to sort: with distinct scores,
      and with heavy ties (scores rounded to 1 decimal) to break by doc id; the dicts list
      each query's documents in random order. pytrec_eval, which sorts each query itself,
      always reads dicts built query by query (see ``by_query``).
  (d) the nested dicts' floor: only reading their keys and values into arrays, timed against
      pytrec_eval's whole evaluation.
  --scale: 10,000 queries from files, each tool in its own process: seconds and peak RSS.

``--baseline DIR`` also times DIR/coursekit (a copy from before a change), in turn with the two,
as a "before" column; ``--without PATH`` switches a fast path of this coursekit off (nested,
hashed, addressing, hash-tables): with ``--baseline .`` the two columns show what it gains.

``--only TEXT`` times only the cases whose name contains TEXT (e.g. ``--only "heavy ties"``).

``--clock cpu`` times this process's CPU time instead of wall-clock time: on a machine shared
with other work it varies less from run to run (but counts pyarrow's reading threads in full).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import chain
from pathlib import Path

import numpy as np
import pandas as pd
import pytrec_eval

import coursekit as ck

MEASURES = ["AP", "nDCG@10", "P@10"]
TREC_MEASURES = {"map", "ndcg_cut_10", "P_10"}
POOL_SIZE = 100_000
GRADE_PROBABILITIES = [0.55, 0.25, 0.12, 0.08]  # grades 0, 1, 2, 3
TARGET_RATIO = 0.5
# cpu: the process's CPU time over all its threads (pyarrow reads files on several threads, so
# this counts that work in full where wall time sees it in parallel)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


# --- the data --------------------------------------------------------------------------------


def make_data(
    n_queries: int,
    n_docs: int,
    n_judged: int,
    n_unretrieved: int,
    seed: int,
    pool_size: int = POOL_SIZE,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run (in rank order, plain string ids) and graded qrels, as DataFrames; the doc ids
    drawn from a pool of ``pool_size`` ("doc0" to "doc99999" by default)."""
    rng = np.random.default_rng(seed)
    if n_docs > pool_size // 2:
        raise SystemExit(f"--docs must be at most half of --pool ({pool_size // 2})")
    pool = np.array([f"doc{i}" for i in range(pool_size)], dtype=object)
    queries = np.array([str(301 + i) for i in range(n_queries)], dtype=object)
    n_judged = min(n_judged, n_docs)
    run_docs = np.empty((n_queries, n_docs), dtype=np.int64)
    run_scores = np.empty((n_queries, n_docs))
    qrels_docs = np.empty((n_queries, n_judged + n_unretrieved), dtype=np.int64)
    for i in range(n_queries):
        docs = rng.choice(pool_size, size=n_docs, replace=False)
        scores = rng.normal(size=n_docs)
        order = np.argsort(-scores, kind="stable")  # rank order, as a run file is written
        run_docs[i], run_scores[i] = docs[order], scores[order]
        judged = docs[rng.choice(n_docs, size=n_judged, replace=False)]
        others = np.setdiff1d(rng.choice(pool_size, size=2 * n_unretrieved + 10), docs)
        while others.size < n_unretrieved:  # practically never
            others = np.union1d(others, np.setdiff1d(rng.choice(pool_size, size=100), docs))
        unretrieved = rng.permutation(others)[:n_unretrieved]
        qrels_docs[i] = np.concatenate([judged, unretrieved])
    grades = rng.choice(4, size=qrels_docs.size, p=GRADE_PROBABILITIES)
    run = pd.DataFrame(
        {
            "query_id": np.repeat(queries, n_docs),
            "doc_id": pool[run_docs.ravel()],
            "rank": np.tile(np.arange(1, n_docs + 1), n_queries),
            "score": run_scores.ravel(),
            "run": "bench",
        }
    )
    qrels = pd.DataFrame(
        {
            "query_id": np.repeat(queries, qrels_docs.shape[1]),
            "doc_id": pool[qrels_docs.ravel()],
            "relevance": grades,
        }
    )
    return run, qrels


def shuffled(run: pd.DataFrame, seed: int) -> pd.DataFrame:
    """The rows in random order (the rank column then meaningless)."""
    rng = np.random.default_rng(seed + 1)
    rows = run.iloc[rng.permutation(len(run))].reset_index(drop=True)
    rows["rank"] = np.arange(1, len(rows) + 1)
    return rows


def heavy_ties(run: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Scores rounded to 1 decimal (about 80 distinct values a query) and rows shuffled."""
    return shuffled(run, seed).assign(score=lambda frame: frame["score"].round(1))


def by_query(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows grouped by query, each query's rows in their order: so that ``to_dict`` builds
    the dicts query by query, as ``parse_run`` does from a file (Python strings created for
    shuffled rows lie scattered in memory, which slows whichever tool reads them query by
    query: from one layout to the other pytrec_eval's time changes by about 40%)."""
    return frame.sort_values("query_id", kind="stable")


def to_dict(frame: pd.DataFrame, value: str) -> dict[str, dict[str, float | int]]:
    """{query_id: {doc_id: value}} with plain Python str, float and int (pytrec_eval's form)."""
    result: dict[str, dict] = {}
    values = frame[value].tolist()
    for q, d, v in zip(frame["query_id"].tolist(), frame["doc_id"].tolist(), values, strict=True):
        result.setdefault(q, {})[d] = v
    return result


def with_ids(frame: pd.DataFrame, dtype: object) -> pd.DataFrame:
    """The id columns converted to ``dtype`` (object: Python strings; "string[pyarrow]")."""
    frame = frame.copy()
    for column in ("query_id", "doc_id"):
        frame[column] = frame[column].astype(dtype)
    return frame


def shared_objects(frame: pd.DataFrame) -> pd.DataFrame:
    """The id columns as Python strings, one object per distinct id shared by its rows (as
    pandas 2's read_csv and frames built from lists give them; ``with_ids(frame, object)``
    gives one object per row)."""
    frame = frame.copy()
    for column in ("query_id", "doc_id"):
        distinct, rows = np.unique(frame[column].to_numpy(dtype=object), return_inverse=True)
        frame[column] = pd.Series(distinct.astype(object)[rows], dtype=object)
    return frame


def categorical(frame: pd.DataFrame) -> pd.DataFrame:
    """The id columns as categoricals, as read_run and read_qrels return them."""
    frame = frame.copy()
    for column in ("query_id", "doc_id"):
        frame[column] = frame[column].astype("category")
    return frame


# --- the two tools ---------------------------------------------------------------------------


_PRECISION = {"score_precision": "float64"}  # (float32 only to check agreement: see below)


KIT = [ck]  #: the coursekit timed: this one, or the ``--baseline`` one while it is timed


def coursekit_mean_ap(run, qrels) -> float:
    return float(KIT[0].evaluate(run, qrels, MEASURES, **_PRECISION).mean["AP"])


def load_baseline(folder: str) -> object:
    """Another copy of coursekit (``folder/coursekit``, e.g. extracted with ``git archive``),
    imported beside this one as ``coursekit_baseline`` (its relative imports follow it)."""
    import importlib.util

    package = Path(folder) / "coursekit"
    spec = importlib.util.spec_from_file_location(
        "coursekit_baseline", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["coursekit_baseline"] = module
    spec.loader.exec_module(module)
    return module


def pytrec_eval_mean_ap(run_dict, qrels_dict) -> float:
    per_query = pytrec_eval.RelevanceEvaluator(qrels_dict, TREC_MEASURES).evaluate(run_dict)
    return float(np.mean([values["map"] for values in per_query.values()]))


def pytrec_eval_from_files(run_path: Path, qrels_path: Path) -> float:
    with open(run_path) as run_file, open(qrels_path) as qrels_file:
        run, qrels = pytrec_eval.parse_run(run_file), pytrec_eval.parse_qrel(qrels_file)
    return pytrec_eval_mean_ap(run, qrels)


def coursekit_from_files(run_path: Path, qrels_path: Path) -> float:
    return coursekit_mean_ap(KIT[0].read_run(run_path), KIT[0].read_qrels(qrels_path))


def read_nested(nested: dict[str, dict]) -> object:
    """Only the first step of evaluating nested dicts: their keys and values as two arrays,
    with pyarrow (as coursekit reads them). Timed alone, it shows how much of the dicts
    case is reading a million Python objects one by one, which no evaluation can skip."""
    import pyarrow as pa

    rankings = list(nested.values())
    keys = pa.array(list(chain.from_iterable(rankings)))
    return keys, pa.array(list(chain.from_iterable(map(dict.values, rankings))))


def check_same_mean_ap(case: str, tools: dict[str, Callable[[], float]]) -> None:
    """Both tools' mean AP, equal within 1e-9; or, where two scores of a query are equal as
    32-bit floats (pytrec_eval stores them so, and then ties them), equal once coursekit too
    compares them as float32 (``score_precision="float32"``): the same work all the same."""
    values = {name: tool() for name, tool in tools.items()}
    first = next(iter(values.values()))
    if all(abs(value - first) <= 1e-9 for value in values.values()):
        print(f"  {case}: mean AP {first:.6f} from every tool")
        return
    _PRECISION["score_precision"] = "float32"
    try:
        as_float32 = {name: tool() for name, tool in tools.items()}
    finally:
        _PRECISION["score_precision"] = "float64"
    first = next(iter(as_float32.values()))
    if any(abs(value - first) > 1e-9 for value in as_float32.values()):
        raise SystemExit(f"{case}: the mean AP differs: {values}")
    print(f"  {case}: mean AP {first:.6f} from every tool with scores as float32 ({values})")


def median_times(
    tools: dict[str, Callable[[], object]], repeats: int, clock: Callable[[], float]
) -> dict[str, float]:
    """Median seconds of each tool on ``clock``; the tools take turns within each repetition."""
    times: dict[str, list[float]] = {name: [] for name in tools}
    for _ in range(repeats):
        for name, tool in tools.items():
            gc.collect()
            start = clock()
            tool()
            times[name].append(clock() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def _without_matcher(name: str) -> None:
    from coursekit.evaluation import matchers

    matchers.FAST = tuple(n for n in matchers.FAST if n != name)


def _without_addressing() -> None:
    from coursekit.engine import matching

    matching.addressable = lambda *sizes: False  # the reference look-up, get_indexer, instead


def _without_hash_tables() -> None:
    from coursekit.engine import matching
    from coursekit.evaluation import pairs

    matching.use_hash_tables = pairs.use_hash_tables = lambda n_keys: False


#: The fast paths ``--without`` switches off, each justified by the gain it shows here.
WITHOUT = {
    "nested": lambda: _without_matcher("nested_rankings"),
    "hashed": lambda: _without_matcher("hashed_rankings"),
    "addressing": _without_addressing,
    "hash-tables": _without_hash_tables,
}


def _with_kit(tool: Callable[[], float], kit: object) -> Callable[[], float]:
    """``tool``, a coursekit case, calling ``kit`` (another copy of coursekit) instead."""

    def call() -> float:
        KIT[0] = kit
        try:
            return tool()
        finally:
            KIT[0] = ck

    return call


# --- scale: 10,000 queries x 1,000 documents, each tool in its own process ----------------------


def write_files(folder: Path, n_queries: int, n_docs: int, args: argparse.Namespace) -> None:
    """The run and qrels files, written a block of queries at a time (never all in memory)."""
    run_part, qrels_part = folder / "run.txt.part", folder / "qrels.txt.part"
    with open(run_part, "w") as run_file, open(qrels_part, "w") as qrels_file:
        for first in range(0, n_queries, 500):
            block = min(500, n_queries - first)
            run, qrels = make_data(
                block, n_docs, args.judged, args.unretrieved, args.seed + first, args.pool
            )
            run["query_id"] = (run["query_id"].astype(int) + first).astype(str)
            qrels["query_id"] = (qrels["query_id"].astype(int) + first).astype(str)
            run_file.write(
                "".join(
                    f"{q} Q0 {d} {r} {s!r} bench\n"
                    for q, d, r, s in zip(
                        run.query_id, run.doc_id, run["rank"], run.score, strict=True
                    )
                )
            )
            qrels_file.write(
                "".join(
                    f"{q} 0 {d} {g}\n"
                    for q, d, g in zip(qrels.query_id, qrels.doc_id, qrels.relevance, strict=True)
                )  # fmt: skip
            )
    run_part.rename(folder / "run.txt")  # complete files only: --scale-dir reuses them
    qrels_part.rename(folder / "qrels.txt")


def child(tool: str, run_path: str, qrels_path: str) -> None:
    """Read and evaluate in this process; print the mean AP, seconds and peak RSS (MB)."""
    import resource

    start = time.perf_counter()
    if tool == "coursekit":
        # float32 scores, as pytrec_eval: on 10M random scores some are equal in float32 only
        result = ck.evaluate(run_path, qrels_path, MEASURES, score_precision="float32")
        value = float(result.mean["AP"])
    else:
        value = pytrec_eval_from_files(Path(run_path), Path(qrels_path))
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    print(f"{value!r} {seconds} {peak}")


def scale(args: argparse.Namespace) -> int:
    import subprocess

    n_queries, n_docs = args.scale_queries, args.docs
    with tempfile.TemporaryDirectory(prefix="coursekit-scale-") as tmp:
        folder = Path(args.scale_dir or tmp)
        started = time.perf_counter()
        if not (folder / "run.txt").exists():  # --scale-dir keeps the files for another time
            write_files(folder, n_queries, n_docs, args)
        size = (folder / "run.txt").stat().st_size / 2**20
        print(f"{n_queries} queries x {n_docs} documents: run file {size:.0f} MB, written in "
              f"{time.perf_counter() - started:.0f} s")  # fmt: skip
        results = {}
        for tool in ("coursekit", "pytrec_eval"):
            command = [sys.executable, __file__, "--child", tool, str(folder / "run.txt"),
                       str(folder / "qrels.txt")]  # fmt: skip
            output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            value, seconds, peak = map(float, output.split())
            results[tool] = (value, seconds, peak)
            print(f"  {tool:<12} mean AP {value:.6f}  {seconds:6.1f} s  peak RSS {peak:6.0f} MB")
    if abs(results["coursekit"][0] - results["pytrec_eval"][0]) > 1e-9:
        raise SystemExit("the mean AP differs")
    ours, theirs = results["coursekit"], results["pytrec_eval"]
    print(f"ratio: time {ours[1] / theirs[1]:.2f}x, peak RSS {ours[2] / theirs[2]:.2f}x")
    return 0


# --- main ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=1000, help="number of queries (1000)")
    parser.add_argument("--docs", type=int, default=1000, help="documents per query (1000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure (5)")
    parser.add_argument("--judged", type=int, default=200, help="judged retrieved docs (200)")
    parser.add_argument("--unretrieved", type=int, default=50, help="judged others (50)")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument(
        "--pool",
        type=int,
        default=POOL_SIZE,
        help=f"doc ids to draw from ({POOL_SIZE:,}; a million: a large collection's many)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall (default) or cpu: this process's CPU time, steadier on a busy machine",
    )
    parser.add_argument(
        "--scale", action="store_true", help="read + evaluate a large run, each tool in a process"
    )
    parser.add_argument("--scale-queries", type=int, default=10_000, help="with --scale (10000)")
    parser.add_argument("--scale-dir", help="with --scale: write the files here, or reuse them")
    parser.add_argument(
        "--baseline",
        help="also time another coursekit, DIR/coursekit (before a change), as a third tool",
    )
    parser.add_argument(
        "--without",
        action="append",
        choices=sorted(WITHOUT),
        default=[],
        help="time coursekit with a fast path switched off (with --baseline .: each path's gain)",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="time only the cases whose name contains this text (repeatable: any of them)",
    )
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    if args.scale:
        return scale(args)
    if min(args.queries, args.docs, args.repeats) < 1 or min(args.judged, args.unretrieved) < 0:
        parser.error("--queries, --docs, --repeats must be >= 1; --judged, --unretrieved >= 0")

    for path in args.without:
        WITHOUT[path]()
    started = time.perf_counter()
    print(
        f"coursekit {ck.__version__}, pytrec_eval-terrier "
        f"{importlib.metadata.version('pytrec-eval-terrier')}, numpy {np.__version__}, pandas "
        f"{pd.__version__}, Python {platform.python_version()}, {os.cpu_count()} CPUs"
    )
    print(
        f"data: {args.queries} queries x {args.docs} documents (pool {args.pool:,}), "
        f"{min(args.judged, args.docs)} + {args.unretrieved} judgments a query, seed {args.seed}"
    )
    run, qrels = make_data(
        args.queries, args.docs, args.judged, args.unretrieved, args.seed, args.pool
    )
    run_dict, qrels_dict = to_dict(run, "score"), to_dict(qrels, "relevance")
    unsorted, tied = shuffled(run, args.seed), heavy_ties(run, args.seed)
    unsorted_dict = to_dict(by_query(unsorted), "score")
    tied_dict = to_dict(by_query(tied), "score")

    with tempfile.TemporaryDirectory(prefix="coursekit-bench-") as tmp:
        run_path, qrels_path = Path(tmp) / "run.txt", Path(tmp) / "qrels.txt"
        ck.write_run(run, run_path)
        ck.write_qrels(qrels, qrels_path)
        # The frames exactly as read_run and read_qrels return them (categorical ids).
        run_read, qrels_read = ck.read_run(run_path), ck.read_qrels(qrels_path)
        tied_categorical, qrels_categorical = categorical(tied), categorical(qrels)
        unsorted_categorical, unsorted_object = categorical(unsorted), with_ids(unsorted, object)
        run_object, qrels_object = with_ids(run, object), with_ids(qrels, object)
        run_shared, qrels_shared = shared_objects(run), shared_objects(qrels)
        tied_object = with_ids(tied, object)
        run_arrow, qrels_arrow = (
            with_ids(run, "string[pyarrow]"),
            with_ids(qrels, "string[pyarrow]"),
        )
        print(f"set-up: {time.perf_counter() - started:.1f} s")

        cases: dict[str, dict[str, Callable[[], float]]] = {
            "(a) in memory, categorical ids": {
                "coursekit": lambda: coursekit_mean_ap(run_read, qrels_read),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(run_dict, qrels_dict),
            },
            "(a) in memory, object string ids": {
                "coursekit": lambda: coursekit_mean_ap(run_object, qrels_object),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(run_dict, qrels_dict),
            },
            "(a) in memory, object ids, shared objects": {
                "coursekit": lambda: coursekit_mean_ap(run_shared, qrels_shared),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(run_dict, qrels_dict),
            },
            f"(a) in memory, {run['doc_id'].dtype} string ids (pandas' default)": {
                "coursekit": lambda: coursekit_mean_ap(run, qrels),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(run_dict, qrels_dict),
            },
            "(a) in memory, pyarrow string ids": {
                "coursekit": lambda: coursekit_mean_ap(run_arrow, qrels_arrow),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(run_dict, qrels_dict),
            },
            "(a) in memory, nested dicts": {
                "coursekit": lambda: coursekit_mean_ap(run_dict, qrels_dict),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(run_dict, qrels_dict),
            },
            "(b) from files": {
                "coursekit": lambda: coursekit_from_files(run_path, qrels_path),
                "pytrec_eval": lambda: pytrec_eval_from_files(run_path, qrels_path),
            },
            "(c) unsorted, distinct scores, categorical": {
                "coursekit": lambda: coursekit_mean_ap(unsorted_categorical, qrels_categorical),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(unsorted_dict, qrels_dict),
            },
            "(c) unsorted, distinct scores, object string ids": {
                "coursekit": lambda: coursekit_mean_ap(unsorted_object, qrels_object),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(unsorted_dict, qrels_dict),
            },
            "(c) unsorted, distinct scores, nested dicts": {
                "coursekit": lambda: coursekit_mean_ap(unsorted_dict, qrels_dict),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(unsorted_dict, qrels_dict),
            },
            "(c) heavy ties, unsorted, categorical": {
                "coursekit": lambda: coursekit_mean_ap(tied_categorical, qrels_categorical),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(tied_dict, qrels_dict),
            },
            "(c) heavy ties, unsorted, object string ids": {
                "coursekit": lambda: coursekit_mean_ap(tied_object, qrels_object),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(tied_dict, qrels_dict),
            },
            "(c) heavy ties, unsorted, nested dicts": {
                "coursekit": lambda: coursekit_mean_ap(tied_dict, qrels_dict),
                "pytrec_eval": lambda: pytrec_eval_mean_ap(tied_dict, qrels_dict),
            },
        }

        if args.only:  # a few cases: those whose name contains one of the texts given
            cases = {c: t for c, t in cases.items() if any(o in c for o in args.only)}
            if not cases:
                parser.error(f"no case contains {' or '.join(map(repr, args.only))}")
        if args.baseline:  # the same inputs, the other coursekit: "before" beside "coursekit"
            baseline = load_baseline(args.baseline)
            for tools in cases.values():
                tools["before"] = _with_kit(tools["coursekit"], baseline)
        print("checking that both tools compute the same thing:")
        for case, tools in cases.items():
            check_same_mean_ap(case, tools)

        print(f"timing ({args.clock} clock), median of {args.repeats} runs:")
        rows = []
        for case, tools in cases.items():
            medians = median_times(tools, args.repeats, CLOCKS[args.clock])
            rows.append((case, medians["coursekit"], medians["pytrec_eval"], medians.get("before")))
            print(f"  {case}: done", flush=True)

    width = max(len(case) for case, *_ in rows)
    header = f"{'case':<{width}}  {'coursekit s':>11}  {'pytrec_eval s':>13}  {'ratio':>6}"
    if args.baseline:
        header += f"  {'before':>6}"
    print()
    print(header)
    print("-" * len(header))
    for case, ours, theirs, before in rows:
        ratio = ours / theirs
        mark = "" if ratio <= TARGET_RATIO else "  (above target)"
        then = f"  {before / theirs:>5.2f}x" if before is not None else ""
        print(f"{case:<{width}}  {ours:>11.3f}  {theirs:>13.3f}  {ratio:>5.2f}x{then}{mark}")
    print(f"\nratio = coursekit / pytrec_eval; target <= {TARGET_RATIO:.1f}x")
    if args.baseline:
        print(f"before = the coursekit of {args.baseline} / pytrec_eval, timed in turn with both")
    print(f"load average: {os.getloadavg()[0]:.2f} at the end")
    reading = {
        "read": lambda: (read_nested(run_dict), read_nested(qrels_dict)),
        "pytrec_eval": lambda: pytrec_eval_mean_ap(run_dict, qrels_dict),
    }
    medians = median_times(reading, args.repeats, CLOCKS[args.clock])
    print(
        f"nested dicts, only reading their keys and values into arrays (pyarrow): "
        f"{medians['read']:.3f} s, {medians['read'] / medians['pytrec_eval']:.2f}x pytrec_eval"
    )
    print(f"total time: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
