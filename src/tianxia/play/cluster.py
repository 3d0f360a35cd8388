"""Tournament games as Ray tasks, on an existing cluster or a private local one (extra `ray`).

    with RayPool("ray://head:10001") as pool:          # or RayPool() for a local one
        result = tournament.run(pool=pool, journal=out / "games.jsonl")

Every game is one task running `play_seating`, the function the process pool runs, on
the same plan, so a simulation-limited tournament gives the same results game for game
on Ray, on processes or in one process.

Ray is made to keep to loopback for a private cluster and is never started without an
address: `ray.init()` alone would join whatever cluster a killed run left recorded. A
pool that started Ray shuts it down when it closes; one that joined a running driver's
Ray leaves it be.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any

from tianxia.play.tournament import GameRecord, Seating, play_seating

LOCAL = "local"

# Set before ray is imported: without them a cluster on one machine tries the machine's
# other addresses and hangs, and Ray reports usage to its makers.
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}


def import_ray() -> Any:
    """`ray`, imported with the environment it needs here.

    Raises:
        ValueError: ray is not installed (`pip install 'tianxia[ray]'`).
    """
    for key, value in RAY_ENV.items():
        os.environ.setdefault(key, value)
    try:
        import ray
    except ImportError as e:
        raise ValueError(f"tournaments on Ray need ray: pip install 'tianxia[ray]' ({e})") from e
    return ray


def _play_task(spec: dict[str, Any], entrants: list[str], plan: Seating) -> GameRecord:
    # A worker process starts bare: the games register themselves when tianxia loads,
    # and must have done so before the plan's game is loaded.
    import tianxia  # noqa: F401

    return play_seating(spec, entrants, plan)


class RayPool:
    """A connection to Ray for the length of a tournament.

    Args:
        address: a cluster's address (`ray://host:10001`, `host:6379`, `auto`), or None
            or `local` for a private cluster on this machine, bound to 127.0.0.1.
        cpus: CPUs of a private cluster (None: every core); ignored for a cluster that
            exists.
    """

    def __init__(self, address: str | None = None, cpus: int | None = None) -> None:
        self.address = address or LOCAL
        self.cpus = cpus
        self._started = False
        self._ray: Any = None

    def __enter__(self) -> RayPool:
        ray = self._ray = import_ray()
        if not ray.is_initialized():
            if self.address == LOCAL:
                ray.init(
                    address=LOCAL,
                    num_cpus=self.cpus,
                    include_dashboard=False,
                    log_to_driver=False,
                    _node_ip_address="127.0.0.1",
                )
            else:
                ray.init(address=self.address, log_to_driver=False)
            self._started = True
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False

    def workers(self) -> int:
        """CPUs in the cluster: the games played at once."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def play(
        self, spec: dict[str, Any], entrants: list[str], plans: Sequence[Seating]
    ) -> Iterator[GameRecord]:
        """Each planned game's record as it finishes, in the order they finish."""
        ray = self._ray
        task = ray.remote(num_cpus=1, max_retries=2)(_play_task)
        pending = [task.remote(spec, entrants, plan) for plan in plans]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            for ref in pending:  # an interrupted tournament leaves no game running
                ray.cancel(ref, force=True)
