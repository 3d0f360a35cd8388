"""The tournament chart: win rates against the fair share, and ratings with their spread."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tianxia.play.tournament import TournamentResult


def save_chart(result: TournamentResult, stem: Path) -> list[Path]:
    """Write `stem.png` and `stem.svg`; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    standings = result.standings
    labels = [s.label for s in standings]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    xs = list(range(len(labels)))
    left.bar(xs, [100 * s.win_rate for s in standings], color="#b03a2e")
    left.axhline(100 / result.game.players, color="black", linestyle="--", linewidth=1)
    left.set_xticks(xs, labels, rotation=20, ha="right")
    left.set_ylabel("wins per seat (%)")
    left.set_title(f"win rate (dashed: fair share 1/{result.game.players})")
    right.errorbar(
        xs,
        [s.mu for s in standings],
        yerr=[3 * s.sigma for s in standings],
        fmt="o",
        color="#1f618d",
        capsize=4,
    )
    right.set_xticks(xs, labels, rotation=20, ha="right")
    right.set_ylabel("openskill mu (bars: ±3 sigma)")
    right.set_title("rating")
    fig.suptitle(
        f"{result.game.info.title}, {result.game.players} players, "
        f"{len(result.records)} games, seed {result.seed}"
    )
    fig.tight_layout()
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for p in paths:
        fig.savefig(p, metadata={"Date": None} if p.suffix == ".svg" else None)
    plt.close(fig)
    return paths
