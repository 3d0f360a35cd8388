"""Tournaments as Ray tasks on a two-node cluster on loopback: the same games, resumable."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tianxia.play.cluster import RAY_ENV

# Before ray is imported: a cluster on one machine must keep to 127.0.0.1.
for _key, _value in RAY_ENV.items():
    os.environ.setdefault(_key, _value)

ray = pytest.importorskip("ray", reason="ray is not installed (extra `ray`)")

import tianxia  # noqa: E402
from tianxia.play import GameRecord, Tournament  # noqa: E402
from tianxia.play.cluster import RayPool  # noqa: E402

pytestmark = [pytest.mark.ray, pytest.mark.timeout(150), pytest.mark.xdist_group("ray")]

ENTRANTS = ["ismcts:simulations=6:prior_worlds=1", "greedy"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    from ray.cluster_utils import Cluster

    c = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "node_ip_address": "127.0.0.1"}
    )
    try:
        c.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        ray.init(address=c.address, log_to_driver=False)
        c.wait_for_nodes()
        yield c.address
    finally:
        ray.shutdown()
        c.shutdown()


def _tournament() -> Tournament:
    return Tournament(tianxia.load_game("greatwall", players=2), ENTRANTS, 4, seed=7)


def test_ray_plays_the_same_games_as_the_process_pool(cluster: str) -> None:
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    on_processes = _tournament().run(workers=2)
    seen: list[int] = []
    with RayPool(cluster) as pool:
        assert pool.workers() == 2
        on_ray = _tournament().run(pool=pool, on_game=lambda r: seen.append(r.index))
    assert sorted(seen) == [0, 1, 2, 3]
    assert on_ray.to_json()["results"] == on_processes.to_json()["results"]
    assert [s.mu for s in on_ray.standings] == [s.mu for s in on_processes.standings]
    assert ray.is_initialized()  # the pool joined the cluster's driver and left it running


def test_an_interrupted_tournament_on_ray_resumes_from_its_journal(
    cluster: str, tmp_path: Path
) -> None:
    journal = tmp_path / "games.jsonl"

    def stop_after_two(record: GameRecord) -> None:
        if len(journal.read_text().splitlines()) == 3:  # the header and two games
            raise KeyboardInterrupt

    with RayPool(cluster) as pool, pytest.raises(KeyboardInterrupt):
        _tournament().run(pool=pool, journal=journal, on_game=stop_after_two)
    played: list[int] = []
    with RayPool(cluster) as pool:
        resumed = _tournament().run(
            pool=pool, journal=journal, on_game=lambda r: played.append(r.index)
        )
    # Every game is reported once, the two from the journal first; only two were played.
    assert len(played) == 4 and sorted(played) == [0, 1, 2, 3]
    assert len(journal.read_text().splitlines()) == 5
    whole = _tournament().run(workers=1)
    assert resumed.to_json()["results"] == whole.to_json()["results"]
