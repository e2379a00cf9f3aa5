"""Figures: what a reader relies on (labels, colours, legends), checked on the Axes."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from coursekit.views import plots  # noqa: E402


@pytest.mark.parametrize("first", [-0.2, 0.3])
def test_per_query_bars_colours_and_legend_do_not_depend_on_the_first_bar(first):
    fig, ax = plt.subplots(figsize=(4, 3))
    plots.per_query_bars(
        {"q1": first, "q2": 0.1, "q3": -0.05, "q4": 0.0}, ax=ax, ylabel="AP (B − A)"
    )
    blue, red = mcolors.to_rgba("C0"), mcolors.to_rgba("C3")
    assert [p.get_facecolor() for p in ax.patches] == [red if first < 0 else blue, blue, red, blue]
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["AP (B − A) ≥ 0", "AP (B − A) < 0"]
    assert [h.get_facecolor() for h in legend.legend_handles] == [blue, red]
    assert ax.get_ylabel() == "AP (B − A)" and ax.get_xlabel() == "query"
    plt.close(fig)
