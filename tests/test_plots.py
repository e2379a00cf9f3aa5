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


def test_labelled_scatter_keeps_every_label_inside_the_axes():
    fig, ax = plt.subplots(figsize=(6, 4))
    x = {f"S{i:02d}": 0.1 + 0.02 * i for i in range(1, 16)}
    y = {name: 0.3 + 0.01 * i for i, name in enumerate(x)}
    plots.labelled_scatter(x, y, ax=ax, title="MAP against R@100", xlabel="MAP", ylabel="R@100")
    fig.canvas.draw()
    box = ax.get_window_extent()
    for text in ax.texts:
        extent = text.get_window_extent()
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1, text.get_text()
    assert min(t.get_fontsize() for t in ax.texts) >= 0.8 * plt.rcParams["font.size"]
    plt.close(fig)


def test_labelled_scatter_names_of_close_points_do_not_overprint():
    # chapter 07: S02, S13 and S05 lie within 0.05 of each other in x and 0.005 in y; their
    # names were printed over each other ("S02S13S05")
    fig, ax = plt.subplots(figsize=(6, 4))
    x = {"S01": 0.45, "S02": 0.6065, "S13": 0.6214, "S05": 0.6580, "S09": 0.72, "S07": 0.52}
    y = {"S01": 0.55, "S02": 0.7182, "S13": 0.7152, "S05": 0.7132, "S09": 0.80, "S07": 0.60}
    plots.labelled_scatter(x, y, ax=ax, xlabel="MAP", ylabel="R@100")
    fig.canvas.draw()
    boxes = {t.get_text(): t.get_window_extent() for t in ax.texts}
    names = sorted(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not boxes[a].overlaps(boxes[b]), (a, b)
    plt.close(fig)


def test_found_by_rank_puts_the_legend_beside_the_data_with_whole_number_ticks():
    fig, ax = plt.subplots(figsize=(6, 4))
    rels = {f"system {i}": [1, 0, 1, 1] + [0] * 96 for i in range(1, 6)}
    plots.found_by_rank(rels, n_relevant=4, n_max=100, ax=ax)
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # right of the axes: over no data
    assert list(ax.get_yticks()) == [0, 1, 2, 3, 4]
    plt.close(fig)


def test_recall_rank_counts_documents_with_whole_numbers():
    fig, ax = plt.subplots(figsize=(6, 4))
    plots.recall_rank([1, 0, 0, 1], n_relevant=3, n_max=10, ax=ax)
    assert all(float(t).is_integer() for t in ax.get_yticks())
    plt.close(fig)
