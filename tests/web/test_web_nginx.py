"""The browser's game tests and the content security policy's walk, once through the
shipped nginx configuration (deploy/nginx/tianxia.conf) rather than straight to the
server: what a player meets in the recommended deployment (`make test-long`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("playwright")

from nginxfront import Nginx, available
from serving import Server
from web.test_web_csp import test_every_kind_of_page_works_under_the_policy, watched
from web.test_web_play import (
    test_a_game_against_bots_is_two_clicks_from_the_lobby,
    test_a_refused_move_shows_its_reason_and_a_reload_resumes,
    test_a_replay_steps_to_the_end,
    test_a_spectator_sees_no_hand_and_hotseat_hides_each_hand,
    test_each_language_renders,
    test_the_browsers_language_is_chosen_without_asking,
    test_two_people_on_two_browsers_play_one_game_with_a_bot,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not available(), reason="Debian's nginx is missing"),
]

# Collected here as well, with `site` below: the same tests, through nginx.
__all__ = [
    "test_a_game_against_bots_is_two_clicks_from_the_lobby",
    "test_a_refused_move_shows_its_reason_and_a_reload_resumes",
    "test_a_replay_steps_to_the_end",
    "test_a_spectator_sees_no_hand_and_hotseat_hides_each_hand",
    "test_each_language_renders",
    "test_every_kind_of_page_works_under_the_policy",
    "test_the_browsers_language_is_chosen_without_asking",
    "test_two_people_on_two_browsers_play_one_game_with_a_bot",
    "watched",
]


@pytest.fixture(scope="module")
def site(site: Server) -> Iterator[Server]:
    """The browser tests' server (tests/web/conftest.py), reached through nginx: its
    `base` is nginx's address for the tests of this module."""
    proxy = Nginx(int(site.base.rsplit(":", 1)[1]))
    proxy.start()
    direct, site.base = site.base, proxy.base
    try:
        yield site
    finally:
        site.base = direct
        proxy.stop()
