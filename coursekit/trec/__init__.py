"""Reading and writing TREC run and qrels files, and the dict-of-dicts form.

A **qrels** file has one judgment per line, ``query_id iteration doc_id grade``::

    401 0 FBIS3-10082 1

A **run** file has one retrieved document per line,
``query_id Q0 doc_id rank score run_name``::

    401 Q0 FBIS3-10082 1 12.73 bm25

In memory both are pandas DataFrames (columns ``query_id, doc_id, relevance`` and
``query_id, doc_id, rank, score, run``); the nested dicts used by pytrec_eval and ir_measures
(``{query_id: {doc_id: grade_or_score}}``) are accepted wherever a DataFrame is.

A **diversity qrels** file (TREC Web track) judges each document per subtopic,
``topic subtopic doc_id grade`` (:mod:`.subtopics`).

Every problem in a file is reported with the file name and line number. The checks of ids,
columns and grades that ``evaluate`` applies to DataFrames and dicts are public here too
(:func:`check_columns`, :func:`check_grades`, :func:`column_numbers`, :func:`id_text`, …); the
integer work under the readers (codes, order, duplicates) is :mod:`coursekit.engine`'s.
"""

from __future__ import annotations

from ..engine import first_repeated
from .columns import (
    MAX_GRADE,
    QRELS_COLUMNS,
    RUN_COLUMNS,
    check_columns,
    check_grades,
    column_numbers,
    id_text,
    ids_as_text,
    not_text,
)
from .frames import as_qrels_frame, as_run_frame, check_no_duplicates, sort_run
from .read import read_qrels, read_run
from .subtopics import (
    SUBTOPIC_COLUMNS,
    as_subtopic_qrels_frame,
    read_subtopic_qrels,
    subtopic_qrels_to_dict,
    write_subtopic_qrels,
)
from .write import qrels_to_dict, run_to_dict, write_qrels, write_run

__all__ = [
    "MAX_GRADE",
    "QRELS_COLUMNS",
    "RUN_COLUMNS",
    "SUBTOPIC_COLUMNS",
    "as_qrels_frame",
    "as_run_frame",
    "as_subtopic_qrels_frame",
    "check_columns",
    "check_grades",
    "check_no_duplicates",
    "column_numbers",
    "first_repeated",
    "id_text",
    "ids_as_text",
    "not_text",
    "qrels_to_dict",
    "read_qrels",
    "read_run",
    "read_subtopic_qrels",
    "run_to_dict",
    "sort_run",
    "subtopic_qrels_to_dict",
    "write_qrels",
    "write_run",
    "write_subtopic_qrels",
]
