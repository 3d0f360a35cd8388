"""The pages over HTTP, the languages' catalogues, and what a browser's view carries."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

pytest.importorskip("babel")

from serving import Server
from tianxia.web.i18n import JS_STRINGS, LANGS, LOCALE, negotiate, script_strings


def test_every_page_is_served(site: Server) -> None:
    assert httpx.get(site.base + "/").status_code == 200
    for game in ("china", "greatwall", "emperor", "mandarin", "silkroad"):
        r = httpx.get(f"{site.base}/rules/{game}")
        assert r.status_code == 200
        # Headings carry ids so the rules' section links land on them.
        assert re.search(r'<h1 id="[^"]+">', r.text), game
    assert httpx.get(site.base + "/rules/chess").status_code == 404
    assert httpx.get(site.base + "/games/nosuchgame").status_code == 404
    assert httpx.get(site.base + "/static/table.js").status_code == 200
    gid = httpx.post(f"{site.base}/api/games", json={"game": "greatwall"}).json()["id"]
    assert 'data-game="' + gid in httpx.get(f"{site.base}/games/{gid}").text
    assert httpx.get(f"{site.base}/games/{gid}/replay").status_code == 200


def test_the_language_comes_from_the_switch_then_the_cookie_then_the_browser() -> None:
    assert negotiate("de", "nl", "en") == "de"
    assert negotiate(None, "nl", "de") == "nl"
    assert negotiate(None, None, "fr-FR,de;q=0.8,nl;q=0.9") == "nl"
    assert negotiate(None, None, "fr, es") == "en"
    assert negotiate("xx", None, "garbage;q=x") == "en"


def test_the_switch_is_remembered(site: Server) -> None:
    with httpx.Client(base_url=site.base) as client:
        assert 'lang="nl"' in client.get("/?lang=nl").text
        assert 'lang="nl"' in client.get("/").text  # the cookie


def test_every_string_is_translated_into_dutch_and_german() -> None:
    from babel.messages.pofile import read_po

    with (LOCALE / "tianxia.pot").open("rb") as f:
        wanted = {m.id for m in read_po(f) if m.id}
    single, plural = script_strings()
    assert {*JS_STRINGS, *single, *plural} <= wanted, "run `make i18n`: the template is old"
    for lang in LANGS[1:]:
        with (LOCALE / lang / "LC_MESSAGES" / "tianxia.po").open("rb") as f:
            catalog = read_po(f, locale=lang)
        # A plural is done when every one of its forms is.
        done = {m.id for m in catalog if m.id and all(_forms(m.string)) and not m.fuzzy}
        assert wanted - done == set(), f"{lang}: untranslated {sorted(wanted - done, key=str)[:10]}"
        for m in catalog:
            if m.id and "{" in str(m.id):
                # A placeholder must survive translation, or the page shows a hole.
                for english, form in zip(_forms(m.id) * 2, _forms(m.string), strict=False):
                    for name in [p.split("}")[0] for p in english.split("{")[1:]]:
                        assert "{" + name + "}" in form, (lang, m.id)


def _forms(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, tuple | list) else [str(value)]


def test_a_browser_gets_its_board_and_a_bots_reasons_only_after_the_end(site: Server) -> None:
    from websockets.sync.client import connect

    gid = httpx.post(
        f"{site.base}/api/games",
        json={"game": "greatwall", "players": 2, "seats": ["open", "bot:easy"]},
    ).json()["id"]
    secret = httpx.post(f"{site.base}/api/games/{gid}/join", json={"seat": 0}).json()["secret"]
    url = site.base.replace("http", "ws", 1) + f"/ws/games/{gid}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "secret": secret, "board": True, "lang": "de"}))
        view = json.loads(ws.recv())
        assert view["board"].startswith("<svg")
        assert set(view["placed"]) <= {a["action"] for a in view["legal"]}
        assert "why" not in view
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "secret": secret}))
        assert "board" not in json.loads(ws.recv())  # only when asked for


def test_a_finished_games_replay_carries_the_bots_reasons(site: Server) -> None:
    import time

    gid = httpx.post(
        f"{site.base}/api/games",
        json={"game": "greatwall", "players": 2, "seats": ["bot:random", "bot:random"]},
    ).json()["id"]
    for _ in range(600):
        if httpx.get(f"{site.base}/api/games/{gid}").json()["status"] == "finished":
            break
        time.sleep(0.1)
    r = httpx.get(f"{site.base}/api/games/{gid}/replay", params={"step": 3, "board": True})
    data = r.json()
    assert data["why"], "every bot move has its reason once the game is over"
    # In words, not the search's figures, and in the reader's language.
    for why in data["why"].values():
        assert why.startswith(("Chose at random among", "Played the only move open")), why
        assert "\n" not in why and "legal actions" not in why, why
    german = httpx.get(f"{site.base}/api/games/{gid}/replay", params={"lang": "de"}).json()
    assert all(w.startswith(("Wählte", "Spielte")) for w in german["why"].values())
    # The seats by name in the reader's language, in the answer and the "Seen by" list.
    assert german["names"] == ["Bot A (zufällig)", "Bot B (zufällig)"], german["names"]
    page = httpx.get(f"{site.base}/games/{gid}/replay", params={"lang": "de"}).text
    assert '<option value="1">Bot B (zufällig)</option>' in page
    assert ">P1<" not in page
    assert data["board"].startswith("<svg")
    assert (
        httpx.get(f"{site.base}/api/games/{gid}/replay", params={"lang": "fr"}).status_code == 422
    )


def test_a_move_clock_is_sent_with_its_deadline(site: Server) -> None:
    import time

    from websockets.sync.client import connect

    gid = httpx.post(
        f"{site.base}/api/games",
        json={"game": "greatwall", "players": 2, "seats": ["open", "bot:easy"], "clock": 600},
    ).json()["id"]
    secret = httpx.post(f"{site.base}/api/games/{gid}/join", json={"seat": 0}).json()["secret"]
    with connect(site.base.replace("http", "ws", 1) + f"/ws/games/{gid}") as ws:
        ws.send(json.dumps({"type": "hello", "secret": secret}))
        view = json.loads(ws.recv())
        while not view.get("legal"):
            view = json.loads(ws.recv())
        assert view["clock"]["initial"] == 600 and view["clock"]["seats"][0]["running"]
        assert 0 < view["clock"]["deadline"] - time.time() <= 600


def test_the_scripts_strings_and_plurals_are_found_and_sent_in_their_forms(
    tmp_path: Path,
) -> None:
    from tianxia.web.i18n import js_strings

    (tmp_path / "page.js").write_text(
        'el("p", { text: t("Your turn") });\n'
        'el("p", { text: tn("{n} card", "{n} cards", hand, { n: hand }) });\n'
    )
    single, plural = script_strings(tmp_path)
    assert single == ["Your turn"] and plural == [("{n} card", "{n} cards")]
    # The page's own scripts: every t() string is sent, translated.
    sent = js_strings("de")
    assert sent["Your turn"] != "Your turn"
    assert all(s in sent for s in script_strings()[0])
