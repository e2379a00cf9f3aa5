"""The data of every worked example of the course material (see :mod:`coursekit.course.examples`).

Raw data only, as the sources give them; nothing is computed here.
"""

from __future__ import annotations

from ..i18n import N_
from .sources import SOURCES, Example, frozen


def _example(key, source, where, description, data, printed=None, notes="") -> Example:
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}")
    return Example(key, source, where, description, frozen(data), frozen(printed), notes)


_DOCS_15 = (
    "588",
    "589",
    "576",
    "590",
    "986",
    "592",
    "984",
    "988",
    "578",
    "985",
    "103",
    "591",
    "772",
    "456",
    "990",
)

EXAMPLES: tuple[Example, ...] = (
    # --- lecture slides, chapter 8 (French) ----------------------------------------------
    _example(
        "slides-ab",
        "slides",
        N_("§IV.1, exercise on systems A and B"),
        "Two systems answer one query over 10 documents, 4 of them relevant.",
        {
            "collection": tuple(f"d{i}" for i in range(1, 11)),
            "relevant": ("d1", "d4", "d6", "d10"),
            "retrieved": {
                "A": ("d5", "d1", "d6", "d2"),
                "B": ("d7", "d8", "d1", "d6", "d2", "d10", "d9"),
            },
        },
        printed={"recall_A": 0.5, "precision_A": 0.5, "recall_B": 0.75, "precision_B": 0.428},
        notes=N_("3/7 = 0.42857... is printed truncated as 0.428 (rounded: 0.429)."),
    ),
    _example(
        "slides-14",
        "slides",
        N_("§IV.1 (exercise) and §IV.4 (average precision for one query)"),
        "A ranked list of 14 documents for a query with 6 relevant documents.",
        {
            "docs": _DOCS_15[:13] + ("990",),
            "n_relevant": 6,
            # §IV.1 marks 5 relevant documents (990 unmarked: "a relevant document is missing");
            # §IV.4 marks 990 relevant as well.
            "relevant_ranks_curve": (1, 2, 4, 6, 13),
            "relevant_ranks_ap": (1, 2, 4, 6, 13, 14),
        },
        printed={
            "ap": 0.702,
            "ap_terms": (1, 1, 0.75, 0.667, 0.38, 0.42),
            # (rank beside which the annotation is printed, found, precision printed)
            "annotations": (
                (4, 1, 1.0),
                (5, 2, 1.0),
                (6, 3, 0.75),
                (9, 4, 0.667),
                (13, 5, 0.38),
                (14, 6, 0.42),
            ),
        },
        notes=N_(
            "The two tables differ on document 990 (rank 14): unmarked in §IV.1, relevant in "
            "§IV.4. Each table is used for its own section. The R/P annotations of the first "
            "four relevant documents are printed two or three rows below them (beside ranks 4, 5, "
            "6, 9 instead of 1, 2, 4, 6); the ranks of the 'x' marks are trusted, because the "
            "printed precisions 1/1, 2/2, 3/4, 4/6 only fit those ranks. 6/14 = 0.4286 is "
            "printed truncated as 0.42 (5/13 = 0.3846 is rightly 0.38 to two decimals), and "
            "the mean of the printed terms, 0.7028, is truncated again to 0.702: the printed "
            "AP is a little low."
        ),
    ),
    _example(
        "slides-11points",
        "slides",
        N_("§IV.2 and §IV.3 (recall-precision curve and its interpolation)"),
        "Eleven measured (recall, precision) points of one query, to interpolate at the 11 "
        "standard recall levels.",
        {
            "points": (
                (0.07, 1.00),
                (0.13, 0.50),
                (0.20, 0.75),
                (0.27, 0.67),
                (0.33, 0.71),
                (0.40, 0.67),
                (0.47, 0.64),
                (0.53, 0.67),
                (0.60, 0.64),
                (0.67, 0.67),
                (0.90, 0.01),
            ),
        },
        printed={
            "interpolated": (1, 0.75, 0.75, 0.71, 0.67, 0.67, 0.67, 0.01, 0.01, 0.01, 0),
        },
        notes=N_(
            "No ranking produces these points: recall steps of 1/15 suggest 15 relevant "
            "documents, precision 0.50 at 2 found means rank 4, and precision 0.75 at 3 found "
            "means rank 4 again. The points are interpolated as given; the interpolation "
            "rule itself is applied correctly by the slides."
        ),
    ),
    _example(
        "slides-map",
        "slides",
        N_("§IV.7 (mean average precision, example)"),
        "Two queries; the (recall, precision) points of each relevant document found.",
        {
            # recall steps of 0.125 = 1/8: 8 relevant documents, 6 found per query;
            # the ranks follow from precision = found / rank at each point
            "n_relevant": 8,
            "relevant_ranks": {"Q1": (1, 4, 6, 9, 11, 14), "Q2": (2, 4, 7, 9, 10, 13)},
        },
        printed={"ap_Q1": 0.555, "ap_Q2": 0.4725, "map": 0.5138, "divisor": 6},
        notes=N_(
            "The slides divide each sum of precisions by 6, the number of relevant documents "
            "found, although their own definition (§IV.4) divides by the number of relevant "
            "documents of the collection: 8, as the recall steps of 0.125 show. The ranks are "
            "recovered from the printed precisions (found / rank), which all match exactly."
        ),
    ),
    _example(
        "slides-top",
        "slides",
        N_("§V.1 to §V.3 (P@X, R-precision, reciprocal rank)"),
        "A ranked list of 15 documents, 6 of them marked relevant, 8 relevant in all.",
        {"docs": _DOCS_15, "relevant_ranks": (3, 5, 6, 9, 10, 13), "n_relevant": 8},
        printed={"P@5": 2 / 5, "P@10": 5 / 10, "P@15": 6 / 15, "Rprec": 0.375, "RR": 1 / 3},
    ),
    _example(
        "slides-dcg",
        "slides",
        N_("§V.4 and §V.5 (DCG and nDCG, Järvelin & Kekäläinen's form)"),
        "Ten documents returned by system A with graded relevance (rsv) values.",
        {
            "docs": tuple(f"d{i}" for i in range(1, 11)),
            "grades": (0.3, 0.2, 0.3, 0, 0, 0.4, 0.5, 0, 0.3, 0),
            "variant": "jarvelin",
        },
        printed={"dcg10": 1.1169, "best_dcg10": 1.445, "idcg10": 1.735, "ndcg10": 0.644},
        notes=N_(
            "The DCG and the best DCG are right. The nDCG slide recomputes the ideal DCG with "
            "other divisors (0.3/2.585 for rank 4 instead of 0.3/2 and so on) and gets 1.735, "
            "more than the 1.445 of the slide before; the nDCG printed from it (0.644) is "
            "therefore too low."
        ),
    ),
    # --- G8 Innovation talk with a PyTerrier example (French) -----------------------------
    _example(
        "pyterrier",
        "pyterrier",
        N_("the PyTerrier / pytrec_eval example (MAP and NDCG slides)"),
        "A run of 3 documents for 2 queries, with binary judgments.",
        {
            "run": {
                "q1": {"d1": 1.0, "d2": -0.1, "d3": 1.5},
                "q2": {"d1": 1.5, "d2": 0.2, "d3": 0.5},
            },
            "qrels": {"q1": {"d2": 1}, "q2": {"d2": 1, "d3": 1}},
        },
        printed={
            "ap": {"q1": 1 / 3, "q2": 0.5833333333333333},
            "ndcg": {"q1": 0.5, "q2": 0.6934264036172708},
            "utility_D1_Q2": 1,
            "dcg_q1_formula": "1 * log2(4)",
            "map_formula": "1/2 (0.33 * 0.5833) = 0.4583",
        },
        notes=N_(
            "The utility (2^rel - 1) column gives 1 to D1 in Q2, a non-relevant document "
            "(grade 0, utility 0); the DCG of Q1 is written 1*log2(4) where 1/log2(4) is "
            "meant; the MAP formula is written with * for +. The values printed by "
            "pytrec_eval are right."
        ),
    ),
    # --- V. Labatut's M2 slides (French) -----------------------------------------------------
    _example(
        "labatut-confusion",
        "labatut",
        N_("'Exemple pour Précision et Rappel' (unranked results)"),
        "A corpus of 100 documents, 20 relevant; the engine returns 10 documents.",
        {
            "n_docs": 100,
            "n_relevant": 20,
            "retrieved": ("105", "695", "23", "8", "87", "147", "694", "3691", "68", "9999"),
            "relevant_retrieved": ("695", "23", "8", "694", "3691", "9999"),
        },
        printed={
            "TP": 6,
            "FP": 4,
            "FN": 14,
            "TN": 76,
            "accuracy": 0.82,
            "precision": 0.6,
            "recall": 0.3,
        },
    ),
    _example(
        "labatut-f",
        "labatut",
        N_("'Exemple de F-mesure'"),
        "The same 10 documents, now with 15 relevant documents in the corpus.",
        {
            "n_docs": 100,
            "n_relevant": 15,
            "retrieved": ("105", "695", "23", "8", "87", "147", "694", "3691", "68", "9999"),
            "relevant_retrieved": ("695", "23", "8", "694", "3691", "9999"),
        },
        printed={
            "TP": 6,
            "FP": 4,
            "FN": 9,
            "TN": 81,
            "precision": 0.6,
            "recall": 0.3,
            "accuracy": 0.82,
            "F": 0.4,
        },
        notes=N_(
            "The slide says 15 relevant documents and its counts (FN 9, TN 81) follow from "
            "15, but it keeps recall 0.3 and accuracy 0.82 from the 20-relevant example, and "
            "F = 0.4 from them. The course trusts the stated 15 and the counts."
        ),
    ),
    _example(
        "labatut-ranked",
        "labatut",
        N_("'Exemple de courbe Précision-Rappel' (typical, worst and best orderings)"),
        "20 ranked documents, 9 relevant in all, in three orderings.",
        {
            "length": 20,
            "n_relevant": 9,
            "relevant_ranks": {
                "typical": (1, 2, 4, 5, 6, 8, 10, 13, 15),
                "worst": tuple(range(12, 21)),
                "best": tuple(range(1, 10)),
            },
        },
        notes=N_(
            "In the typical ordering's table the labels of the Pre(k) and Rec(k) rows are "
            "shifted: the row labelled Rec(k) holds the precisions."
        ),
    ),
    _example(
        "labatut-iap",
        "labatut",
        N_("'Courbe de précision interpolée moyenne' (five queries, 20 ranks)"),
        "Five queries over 20 ranks; interpolated precision at the 11 standard recall levels "
        "and its mean over the queries (IAP).",
        {
            "length": 20,
            # trusted: the ranks where the Rec_j(k) row increases, and its step (1/n_relevant)
            "n_relevant": {"q1": 9, "q2": 10, "q3": 10, "q4": 8, "q5": 6},
            "relevant_ranks": {
                "q1": (1, 2, 4, 5, 6, 8, 10, 13, 15),
                "q2": (1, 2, 3, 7, 8, 9, 10, 12, 13, 16),
                "q3": (2, 4, 6, 7, 8, 9, 11, 13, 14, 15),
                "q4": (1, 2, 6, 7, 8, 13, 14, 15),
                "q5": (1, 2, 5, 6, 7, 8),
            },
            # the ranks of the check marks as printed (not trusted, see notes)
            "marked_ranks": {
                "q1": (1, 2, 4, 5, 6, 8, 10, 13, 15),
                "q2": (1, 2, 3, 8, 9, 10, 13, 16),
                "q3": (2, 4, 6, 8, 9, 10, 12, 14),
                "q4": (1, 2, 3, 8, 9, 10, 13),
                "q5": (2, 5, 6, 7, 8, 9, 10),
            },
        },
        printed={
            "levels": (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
            "interpolated": {
                "q1": (1.00, 1.00, 1.00, 0.83, 0.83, 0.83, 0.83, 0.75, 0.70, 0.62, 0.60),
                "q2": (1.00, 1.00, 1.00, 1.00, 0.70, 0.70, 0.70, 0.70, 0.69, 0.69, 0.63),
                "q3": (0.67, 0.67, 0.67, 0.67, 0.67, 0.67, 0.67, 0.67, 0.67, 0.67, 0.67),
                "q4": (1.00, 1.00, 1.00, 1.00, 0.63, 0.63, 0.63, 0.62, 0.62, 0.62, 0.62),
                "q5": (1.00, 1.00, 1.00, 1.00, 1.00, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75),
            },
            "IAP": (0.93, 0.93, 0.93, 0.90, 0.77, 0.72, 0.72, 0.70, 0.68, 0.67, 0.65),
        },
        notes=N_(
            "The table contradicts itself; per query the course trusts the Rec_j(k) row: its "
            "step gives n_relevant (1/9, 1/10, 1/10, 1/8, 1/6) and the ranks where it rises "
            "give the relevant ranks. The Pre_j(k) rows are already interpolated rank by rank "
            "(best precision at rank k or later); for q1, q2, q3 and q5 they match the Rec "
            "rows exactly, which supports them. q1: marks, Rec and Pre agree (the 'typical' "
            "ordering of labatut-ranked). q2: 8 marks (1, 2, 3, 8, 9, 10, 13, 16) but the Rec "
            "row rises at 7 and 12 as well (10 relevant). q3: 8 marks (2, 4, 6, 8, 9, 10, 12, "
            "14) but the Rec row rises at 2, 4, 6, 7, 8, 9, 11, 13, 14, 15; the constant 0.67 "
            "of its Pre row is 10/15, the best precision, reached at rank 15. q4: 7 marks "
            "(1, 2, 3, 8, 9, 10, 13, those of q2 without 16) against a Rec row in steps of "
            "1/8 rising at 1, 2, 6, 7, 8, 13, 14, 15; its Pre row fits neither (0.62 from rank "
            "9 to 14, then 8/14, 8/15, ... one column late). q5: 7 marks (2, 5 to 10) but the "
            "Rec row rises at 1, 2, 5, 6, 7, 8 in steps of 1/6. The printed interpolated rows "
            "of q2 and q3 follow from the trusted ranks; those of q1, q4 and q5 do not (q1 "
            "from 0.6 on, q4 and q5 at 0.3 or 0.4), so the printed IAP row differs too."
        ),
    ),
    # --- B. Audeh, P. Beaune, M. Beigbeder: MOR (French) ----------------------------------------
    _example(
        "mor-systems",
        "mor",
        N_("Tables 1, 2 and 5 (the five systems, after Magdy & Jones 2010)"),
        "Five systems return 100 documents for one query with 4 relevant documents; the ranks "
        "of the relevant documents each finds. The user prefers recall first, then early "
        "ranks: system 1 > 2 > 3 > 4 > 5.",
        {
            "n_relevant": 4,
            "n_max": 100,
            "relevant_ranks": {
                1: (1, 2, 3, 4),
                2: (50, 51, 53, 54),
                3: (1, 98, 99, 100),
                4: (1, 54),
                5: (1,),
            },
            "preference": (1, 2, 3, 4, 5),
        },
        printed={
            "table1": {
                "AP": (1, 0.047, 0.273, 0.259, 0.250),
                "recall": (1, 1, 1, 0.5, 0.25),
                "F_1": (0.077, 0.077, 0.077, 0.341, 0.019),
                "F'_1": (1, 0.092, 0.429, 0.341, 0.250),
                "F'_4": (1, 0.459, 0.864, 0.474, 0.250),
            },
            "table2": {
                "F_1": (0.077, 0.077, 0.077, 0.341, 0.019),
                "F'_4": (1, 0.091, 0.429, 0.341, 0.250),
                "PRES": (1, 0.500, 0.280, 0.370, 0.250),
            },
            "table5": {
                "F'_4": (1, 0.092, 0.429, 0.341, 0.250),
                "PRES": (1, 0.500, 0.280, 0.370, 0.250),
                "MOR": (1, 0.895, 0.801, 0.495, 0.398),
            },
        },
        notes=N_(
            "The ranks of the relevant documents are the data trusted. Tables 2 and 5 label "
            "F'_4 a column that holds the F'_1 values of Table 1. Tables 1 and 2 print for "
            "system 4 an F_1 equal to its F'_1. F_1 uses precision over the 100 documents "
            "returned."
        ),
    ),
    _example(
        "mor-single",
        "mor",
        N_("Figure 7 (one relevant document, N_max = 10)"),
        "A query with a single relevant document; MOR, PRES and reciprocal rank as functions "
        "of its rank (or of its absence from the first N_max).",
        {"n_relevant": 1, "n_max": 10, "ranks": tuple(range(1, 11))},
    ),
)
