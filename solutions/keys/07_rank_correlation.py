"""Answer key of exercises/07_rank_correlation.ipynb (expected values computed by coursekit).

Six systems ranked by two measures. Hidden inputs (``hidden=``) are used by the grader only.
"""

import coursekit as ck
from coursekit.exercises import Choice, Function, Value

BY_MAP = ["S3", "S1", "S5", "S2", "S6", "S4"]
BY_PRES = ["S1", "S3", "S2", "S6", "S5", "S4"]
PAIRS = ck.concordant_pairs(BY_MAP, BY_PRES)["verdict"].value_counts()
SWAP_BOTTOM = ["S3", "S1", "S5", "S2", "S4", "S6"]  # BY_MAP with its last two exchanged
SWAP_TOP = ["S1", "S3", "S5", "S2", "S6", "S4"]  # BY_MAP with its first two exchanged

QUESTIONS = [
    Value("q1", [int(PAIRS.get("concordant", 0)), int(PAIRS.get("discordant", 0))], low=0,
          high=15, hint="6 systems make 15 pairs; a pair is concordant if both orders agree"),
    Value("q2", ck.kendall_tau(BY_MAP, BY_PRES), low=-1, high=1,
          hint="(concordant - discordant) / number of pairs"),
    Value("q3", ck.spearman_rho(BY_MAP, BY_PRES), low=-1, high=1,
          hint="1 - 6 * sum of squared position differences / (K (K^2 - 1))"),
    Value("q4", ck.kendall_tau(BY_MAP, list(reversed(BY_MAP))), low=-1, high=1,
          hint="every pair is in the opposite order"),
    Value("q5", [ck.kendall_tau(BY_MAP, SWAP_TOP), ck.kendall_tau(BY_MAP, SWAP_BOTTOM)],
          low=-1, high=1, hint="one adjacent swap makes one discordant pair"),
    Choice("q6", "c", options="abc", hint="look at the two values of q5"),
    Choice("q7", "b", options="abc", hint="tau counts pairs"),
    Function(
        "q8", name="kendall_tau", reference="coursekit.correlation:kendall_tau", points=2,
        cases=[("the same order", [["a", "b", "c"], ["a", "b", "c"]]),
               ("reversed", [["a", "b", "c", "d"], ["d", "c", "b", "a"]]),
               ("one adjacent swap", [["a", "b", "c", "d"], ["b", "a", "c", "d"]]),
               ("edge case: two items swapped", [["x", "y"], ["y", "x"]]),
               ("items listed in another order", [["p", "q", "r", "s", "t"],
                                                  ["q", "p", "s", "r", "t"]])],
        hidden=[("six systems", [BY_MAP, BY_PRES]),
                ("a far swap", [["a", "b", "c", "d", "e"], ["e", "b", "c", "d", "a"]])],
        hint="positions in each ranking, then compare every pair once"),
]
