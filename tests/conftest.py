import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import toygame  # noqa: F401  (registers the test game "highcard")


@pytest.fixture(scope="session")
def postgres() -> Iterator[str | None]:
    """The throwaway PostgreSQL cluster of this test process (None where none can run)."""
    from serving import postgres_cluster

    yield from postgres_cluster()
