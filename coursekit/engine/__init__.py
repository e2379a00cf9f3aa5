"""The engine under ``trec/`` and ``evaluation/``: ids as integers, rows ordered, pairs matched.

The route of a run: (1) its ids become integer codes (:mod:`.codes`: hashed, or numbered in
byte order when many doc ids break ties, :func:`.byteorder.sorted_codes`); (2) its rows are put in
trec_eval's order, ties by doc id descending (:mod:`.order`), by counting where keys are small
(:mod:`.counting`); (3) each retrieved (query, doc) pair finds its judgment, by direct
addressing (:mod:`.addressing`, :mod:`.matching`) or the reference, pandas' ``get_indexer``;
(4) the same look-ups find repeated pairs; (5) ``evaluate`` sums the measures on the result.

Pure numpy, pandas and pyarrow on arrays: no file, no DataFrame, no measure. ``trec/`` (the
readers) and ``evaluation/`` import it; it imports neither (``tests/test_layout.py``).
"""

from __future__ import annotations

from .addressing import addressable, match_by_address, repeated_by_address
from .byteorder import codes_in_byte_order, sorted_codes
from .codes import (
    first_rows,
    id_words,
    object_addresses,
    packed_codes,
    string_codes,
)
from .counting import MIN_ROWS, countable, order_by, stable_order
from .matching import (
    HASHED_KEYS,
    first_repeated,
    first_repeated_pair,
    match_pairs,
    reference_match,
    use_hash_tables,
)
from .order import (
    descending_keys,
    in_trec_order,
    string_ranks,
    ties_to_break,
    trec_order,
    trec_order_and_queries,
    untied_order,
)

__all__ = [
    "HASHED_KEYS",
    "MIN_ROWS",
    "addressable",
    "codes_in_byte_order",
    "countable",
    "descending_keys",
    "first_repeated",
    "first_repeated_pair",
    "first_rows",
    "id_words",
    "in_trec_order",
    "match_by_address",
    "match_pairs",
    "object_addresses",
    "order_by",
    "packed_codes",
    "reference_match",
    "repeated_by_address",
    "sorted_codes",
    "stable_order",
    "string_codes",
    "string_ranks",
    "ties_to_break",
    "trec_order",
    "trec_order_and_queries",
    "untied_order",
    "use_hash_tables",
]
