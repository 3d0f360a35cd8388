"""Measure every game through each research interface and write RESULTS.md beside this file.

Run from the repository root, alone on the machine: ``.venv/bin/python
benchmarks/adapters/record.py [seconds]`` (default 3 s per interface and game).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import tianxia
from tianxia.adapters import bench


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    results = [bench.run(name, seconds) for name in tianxia.list_games()]
    m = results[0]["machine"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# Research interfaces: steps per second",
        "",
        f"Recorded {m['date']} on {m['cpu']} ({m['cores']} cores), Python {m['python']},",
        f"{m['platform']}; load average {load:.1f} when the run started.",
        f"Engine: {tianxia._native.summary()}.",
        f"Each figure is {seconds:g} s of seeded random games, each game at its smallest",
        "player count. Regenerate with `.venv/bin/python benchmarks/adapters/record.py`.",
        "",
        "A step is one applied action, chance included; *agent steps* count decisions only",
        "(for `gym`, the learning seat's own). `engine_observing` is the bare engine plus the",
        "mover's observation tensor at every decision, the work every environment must do.",
        "",
        "Reading the figures: OpenSpiel pays for pyspiel's crossing between C++ and Python",
        "on every call and for mapping ids, but computes no observation unless asked.",
        "PettingZoo and Gymnasium build the observation tensor and the action mask at every",
        "decision, so compare them with `engine_observing`: the rest of the gap is the mask",
        "and the environment's bookkeeping. Gymnasium's steps include its opponents' (random",
        "bots) moves, which need no observation.",
        "",
    ]
    for r in results:
        lines += [bench.to_markdown(r), ""]
    out = Path(__file__).with_name("RESULTS.md")
    out.write_text("\n".join(lines), encoding="utf-8")
    print(out.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
