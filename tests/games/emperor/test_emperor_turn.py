"""First turn, growth, colonisation and movement (EM-3 to EM-6), with the 10-unit cap."""

from __future__ import annotations

import pytest

import tianxia
from tianxia import IllegalActionError
from tianxia.games.emperor.position import play, position, where

G2 = tianxia.load_game("emperor", players=2)


def legal(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {str(a) for a in s.legal_actions()}


@pytest.mark.parametrize(("players", "count"), [(2, 3), (3, 2), (4, 1), (5, 1)])
def test_first_turn_occupies_adjacent_empty_provinces(players: int, count: int) -> None:
    g = tianxia.load_game("emperor", players=players)
    s = g.new_initial_state()
    assert s.phase == "start" and s.current_player() == 0
    first = "kwangtung"
    s = s.apply(f"start {first}")
    taken = [first]
    while s.phase == "start":
        options = legal(s)
        assert all(o.startswith("start ") for o in options)
        nxt = sorted(options)[0].split()[1]
        nbrs = {g.tables.ids[q] for p in taken for q in g.tables.nbrs[g.tables.index[p]]}
        assert nxt in nbrs
        s = s.apply(f"start {nxt}")
        taken.append(nxt)
    assert len(taken) == count
    assert all(where(s, p) == (0, 3) for p in taken)
    assert s.started[0]


def test_start_province_must_border_the_first_one() -> None:
    s = G2.new_initial_state().apply("start hopeh")
    with pytest.raises(IllegalActionError) as e:
        s.apply("start yunnan")
    assert e.value.rule == "EM-4.1"
    assert "border" in e.value.reason


def test_start_refuses_a_dead_end_group() -> None:
    # Taiwan's three neighbours are taken: a group of three cannot be completed there
    s = position(
        G2,
        {"chekiang": (1, 3), "fukien": (1, 3), "kwangtung": (1, 3)},
        started=(False, True),
        phase="start",
    )
    assert "start taiwan" not in legal(s)
    assert s.explain("start taiwan").startswith("illegal: EM-4.1")


def test_first_turn_has_no_growth() -> None:
    s = play(G2.new_initial_state(), "start hopeh", "start honan", "start anhwei")
    # three units in each province cannot colonise (one must stay) and nothing else is open
    assert s.phase in ("movement", "assign yang")
    assert where(s, "hopeh") == (0, 3)


def test_growth_base_three_and_marker_bonus() -> None:
    s = position(
        G2,
        {"hopeh": (0, 5), "honan": (0, 2), "korea": (1, 2)},
        markers={"hopeh": {"city": 1}, "honan": {"agriculture": 1}},
        phase="growth",
    )
    assert s.phase == "growth"
    assert legal(s) == {"grow hopeh", "grow honan"}
    s = s.apply("grow honan")
    assert where(s, "honan") == (0, 5)
    # the city's unit: Hopeh or an own neighbour of Hopeh
    assert legal(s) == {"grow hopeh", "grow honan"}
    s = s.apply("grow hopeh")
    assert where(s, "hopeh") == (0, 6)
    # agriculture in Honan: two units, one at a time
    s = play(s, "grow hopeh", "grow honan")
    assert where(s, "hopeh") == (0, 7) and where(s, "honan") == (0, 6)
    assert s.phase != "growth"


def test_growth_marker_in_an_opponents_province_gives_nothing() -> None:
    s = position(
        G2,
        {"hopeh": (0, 5), "korea": (1, 2)},
        markers={"korea": {"agriculture": 1}},
        phase="growth",
    )
    assert s.growth == (-1,)


def test_growth_into_a_full_province_is_refused_and_surplus_removed() -> None:
    s = position(G2, {"hopeh": (0, 10), "honan": (0, 9), "korea": (1, 2)}, phase="growth")
    assert legal(s) == {"grow honan"}
    with pytest.raises(IllegalActionError) as e:
        s.apply("grow hopeh")
    assert e.value.rule == "EM-2.3"
    s = s.apply("grow honan")
    assert where(s, "honan") == (0, 10)


def test_growth_stops_when_the_thirty_units_are_on_the_board() -> None:
    holdings = {p: (0, 10) for p in ("hopeh", "honan")} | {"anhwei": (0, 9), "korea": (1, 2)}
    s = position(G2, holdings, markers={"anhwei": {"city": 1}}, phase="growth")
    s = s.apply("grow anhwei")
    assert where(s, "anhwei") == (0, 10)
    assert s.phase != "growth"  # the city's unit has no piece left


def test_colonise_moves_three_and_leaves_one() -> None:
    s = position(G2, {"hopeh": (0, 4), "korea": (1, 2)}, phase="colonisation")
    assert "colonise hopeh>honan" in legal(s) and "colonise hopeh>shantung" in legal(s)
    s = s.apply("colonise hopeh>honan")
    assert where(s, "hopeh") == (0, 1) and where(s, "honan") == (0, 3)


def test_colonise_needs_four_units() -> None:
    s = position(G2, {"hopeh": (0, 4), "shantung": (0, 3), "korea": (1, 2)}, phase="colonisation")
    with pytest.raises(IllegalActionError) as e:
        s.apply("colonise shantung>kiangsu")
    assert e.value.rule == "EM-5.1" and "at least one must stay" in e.value.reason


def test_colonise_only_into_an_empty_province() -> None:
    s = position(G2, {"hopeh": (0, 6), "honan": (1, 2)}, phase="colonisation")
    with pytest.raises(IllegalActionError) as e:
        s.apply("colonise hopeh>honan")
    assert e.value.rule == "EM-5.1"


def test_colonists_cross_a_blocked_border() -> None:
    s = position(G2, {"hopeh": (0, 6), "korea": (1, 2)}, phase="colonisation")
    s = s.apply("colonise hopeh>liaoning")
    assert where(s, "liaoning") == (0, 3) and where(s, "hopeh") == (0, 3)


def test_closed_borders_option_stops_colonists_at_a_blocked_border() -> None:
    g = tianxia.load_game("emperor", players=2, borders="closed")
    s = position(g, {"hopeh": (0, 6), "korea": (1, 2)}, phase="colonisation")
    assert "colonise hopeh>honan" in legal(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("colonise hopeh>liaoning")
    assert e.value.rule == "EM-2.2" and "great wall" in e.value.reason


def test_open_borders_option_lets_movement_cross() -> None:
    hold = {"hopeh": (0, 6), "liaoning": (0, 1), "korea": (1, 2)}
    assert "move 1 hopeh>liaoning" not in legal(position(G2, hold, phase="movement"))
    g = tianxia.load_game("emperor", players=2, borders="open")
    s = position(g, hold, phase="movement").apply("move 5 hopeh>liaoning")
    assert where(s, "liaoning") == (0, 6)


def test_colonise_any_number_of_times_then_done() -> None:
    s = position(G2, {"hopeh": (0, 7), "korea": (1, 2)}, phase="colonisation")
    s = s.apply("colonise hopeh>honan")
    assert s.phase == "colonisation"
    assert s.apply("done").phase == "movement"
    s = s.apply("colonise hopeh>shantung")
    assert where(s, "hopeh") == (0, 1)
    # nothing more can be colonised: the phase ends by itself
    assert s.phase == "movement"


def test_each_unit_crosses_one_border_only() -> None:
    s = position(
        G2, {"hopeh": (0, 4), "honan": (0, 1), "anhwei": (0, 1), "korea": (1, 2)}, phase="movement"
    )
    s = s.apply("move 3 hopeh>honan")
    assert where(s, "honan") == (0, 4)
    # only Honan's own unit may go on; the three newcomers have crossed their border
    assert "move 1 honan>anhwei" in legal(s) and "move 2 honan>anhwei" not in legal(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("move 2 honan>anhwei")
    assert e.value.rule == "EM-6.1"


def test_movement_only_into_own_provinces() -> None:
    s = position(G2, {"hopeh": (0, 4), "honan": (1, 1)}, phase="movement")
    with pytest.raises(IllegalActionError) as e:
        s.apply("move 1 hopeh>shantung")
    assert e.value.rule == "EM-6.1"


def test_movement_cannot_cross_a_blocked_border() -> None:
    s = position(G2, {"hopeh": (0, 4), "liaoning": (0, 1), "korea": (1, 1)}, phase="movement")
    with pytest.raises(IllegalActionError) as e:
        s.apply("move 1 hopeh>liaoning")
    assert e.value.rule == "EM-2.2"


def test_movement_surplus_over_ten_is_removed_at_once() -> None:
    s = position(G2, {"hopeh": (0, 8), "honan": (0, 9), "korea": (1, 1)}, phase="movement")
    s = s.apply("move 5 hopeh>honan")
    assert where(s, "honan") == (0, 10) and where(s, "hopeh") == (0, 3)
    # the surplus came from the newcomers: Honan's own nine may still move
    assert s.to_json()["moved"][s.t.index["honan"]] == 1
    assert "move 9 honan>hopeh" in legal(s)


def test_cap_holds_after_every_step_of_random_games() -> None:
    import random

    from tianxia.core import CHANCE
    from tianxia.core.match import sample_chance

    for players in (2, 5):
        g = tianxia.load_game("emperor", players=players)
        rng = random.Random(players)
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                a = sample_chance(s, rng)
            else:
                # merger offers left out, so that the games run their full length
                a = rng.choice(
                    [x for x in s.legal_actions() if str(x)[:5] not in ("merge", "offer")]
                )
            s = s.apply(a)
            assert max(s.units) <= 10
            assert all((o == -1) == (u == 0) for o, u in zip(s.owner, s.units))
        assert s.turn == 33


def test_turns_go_round_from_seat_0() -> None:
    g = tianxia.load_game("emperor", players=4)
    s = g.new_initial_state()
    seen = []
    provinces = ["hopeh", "yunnan", "taiwan", "kansu"]
    while len(seen) < 4:
        seat = s.player
        seen.append(seat)
        s = s.apply(f"start {provinces[seat]}")
        while s.phase in ("movement", "expansion"):
            s = s.apply("done")
        s = play(s, "yang korea", f"yin {provinces[seat]}", "yin card plague", "yang card water")
    assert seen == [0, 1, 2, 3]
    assert s.player == 0 and s.turn == 5 and s.phase == "growth"


def test_honan_shensi_option_opens_the_disputed_border() -> None:
    hold = {"honan": (0, 6), "shensi": (0, 1), "korea": (1, 2)}
    s = position(G2, hold, phase="movement")
    assert "move 1 honan>shensi" not in legal(s)
    g = tianxia.load_game("emperor", players=2, honan_shensi="normal")
    assert "move 1 honan>shensi" in legal(position(g, hold, phase="movement"))


def test_colonists_may_move_on_in_the_movement_phase() -> None:
    s = position(G2, {"hopeh": (0, 7), "korea": (1, 2)}, phase="colonisation")
    s = play(s, "colonise hopeh>honan", "done")
    assert s.phase == "movement"
    assert "move 3 honan>hopeh" in legal(s) and "move 4 honan>hopeh" not in legal(s)
    s = s.apply("move 3 honan>hopeh")
    assert where(s, "hopeh") == (0, 7) and where(s, "honan") == (None, 0)


def _groups_reference(s: tianxia.State) -> list[int]:
    """EM-4.1 by brute force: the empty provinces that lie in some group of `start_count`
    adjacent provinces made of the group begun and empty provinces; if there is none, the
    empty provinces the group begun may still be extended into."""
    t = s.t  # type: ignore[attr-defined]
    k, chosen = t.start_count, tuple(s.chosen)  # type: ignore[attr-defined]
    usable = {p for p in range(t.P) if s.owner[p] == -1} | set(chosen)  # type: ignore[attr-defined]
    # every connected set of k usable provinces that holds the group begun (small map)
    found: set[frozenset[int]] = set()
    frontier = [frozenset(chosen)] if chosen else [frozenset((p,)) for p in usable]
    while frontier:
        grown: set[frozenset[int]] = set()
        for g in frontier:
            if len(g) == k:
                found.add(g)
                continue
            for p in g:
                for q in t.nbrs[p]:
                    if q in usable and q not in g:
                        grown.add(g | {q})
        frontier = list(grown)
    full = sorted({p for g in found for p in g if p not in chosen})
    if chosen:
        near = sorted({q for p in chosen for q in t.nbrs[p] if q in usable and q not in chosen})
        return [p for p in near if p in full] or near
    return full or sorted(usable)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_start_options_match_the_rule_by_brute_force(players: int) -> None:
    """The first placement's offer (one labelling of empty regions, no search per
    province) agrees with an enumeration of every group on seeded crowded boards."""
    import random

    from tianxia.games.emperor import rules

    g = tianxia.load_game("emperor", players=players)
    rng = random.Random(players)
    s0 = g.new_initial_state()
    checked = 0
    for _ in range(60):
        # a random crowding of the map by other realms, then this seat's first turn
        owner = [-1] * s0.t.P  # type: ignore[attr-defined]
        for p in rng.sample(range(len(owner)), rng.randrange(len(owner) - 2)):
            owner[p] = 1
        units = [3 if o >= 0 else 0 for o in owner]
        s = s0.replace(owner=tuple(owner), units=tuple(units))
        while s.phase == "start" and s.current_player() == 0:  # type: ignore[attr-defined]
            offer = rules.start_options(s)
            assert offer == _groups_reference(s)
            assert rules.start_open(s) == bool(offer)
            checked += 1
            if not offer:
                break
            s = s.apply(s.t.start[rng.choice(offer)])  # type: ignore[attr-defined]
    assert checked >= 60
