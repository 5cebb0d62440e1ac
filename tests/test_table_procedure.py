"""Hand-made tests of the table procedure engine (checker.table): the `procedure:` entries of spec/mcr.yaml,
spec/shanghai-knocking.yaml and spec/shanghai-classic.yaml, each with a legal log and an illegal one (the
illegal one asserting the exact rule id it breaks and that it is the log's last event).

Every wall is built with `arrange_wall`, so each test deals exactly the hands its comment shows. Seats are
absolute (0-3), seat + 1 is a seat's next (downstream) player and the dealer is seat 0 unless said otherwise.
Notation in the comments: `0: discard 5p` is seat 0's event; `draw 1 (6p)` is seat 1 drawing 6p from the front;
`back (7p)` a replacement from the back of the wall.
"""
from __future__ import annotations

import dataclasses

import pytest

from checker import tiles as T
from checker.table.log import new_table, replay_events
from checker.table.events import parse_event
from checker.table.simulate import play_hand
from checker.table.wall import arrange_wall

RULESETS = ("mcr", "shanghai-knocking", "shanghai-classic")


# ---------------------------------------------------------------------------------------------- helpers

def log(ruleset, hands, draws="", replacements="", dealer=0, options=None, **fields):
    """The header of a hand-written log: a wall dealing `hands` (seat -> tiles), then `draws` from the front and
    `replacements` from the back, in order."""
    wall = arrange_wall(hands, draws, replacements, dealer=dealer)
    header = {"game": "mjcheck-table", "version": 1, "ruleset": ruleset, "wall": T.format_tiles(wall),
              "dealer": dealer}
    if options:
        header["options"] = dict(options)
    header.update(fields)
    return header


def draw(seat, tile=None, back=False):
    ev = {"event": "draw", "seat": seat}
    if tile:
        ev["tile"] = tile
    if back:
        ev["from"] = "back"
    return ev


def discard(seat, tile):
    return {"event": "discard", "seat": seat, "tile": tile}


def chow(seat, tiles):
    return {"event": "chow", "seat": seat, "tiles": tiles}


def pung(seat):
    return {"event": "pung", "seat": seat}


def kong(seat):
    return {"event": "kong", "seat": seat}


def add_kong(seat, tile):
    return {"event": "add_kong", "seat": seat, "tile": tile}


def concealed_kong(seat, tile):
    return {"event": "concealed_kong", "seat": seat, "tile": tile}


def flower(seat, tile):
    return {"event": "flower", "seat": seat, "tile": tile}


def knock(seat):
    return {"event": "knock", "seat": seat}


def pass_(seat):
    return {"event": "pass", "seat": seat}


def win(seat, tile=None):
    ev = {"event": "win", "seat": seat}
    if tile:
        ev["tile"] = tile
    return ev


def draw_game():
    return {"event": "draw_game"}


def legal(header, events):
    """Replay; every event must be legal (the hand may be unfinished). Returns the Replay."""
    r = replay_events(header, events)
    assert r.verdict in ("legal", "unfinished"), (r.verdict, r.rule, r.line, r.message)
    return r


def unfinished(header, events):
    """Every event legal, and the hand goes on."""
    r = legal(header, events)
    assert r.verdict == "unfinished", r.result
    return r


def ended(header, events):
    """Every event legal, and the hand has ended: its result."""
    r = legal(header, events)
    assert r.verdict == "legal" and r.result is not None, (r.verdict, r.message)
    return r.result


def illegal(header, events, rule):
    """The last event, and only it, breaks `rule`."""
    r = replay_events(header, events)
    assert (r.verdict, r.rule, r.line) == ("illegal", rule, len(events) + 1), (r.verdict, r.rule, r.line, r.message)
    return r


def is_flower(ruleset, tile):
    """1f-8f everywhere; under shanghai-knocking the dragons 5z 6z 7z too (tiles: dragons_as_flowers)."""
    return tile >= 34 or (ruleset == "shanghai-knocking" and 31 <= tile <= 33)


def play_out(header, first_discard):
    """The events of a hand played to the wall's end: the dealer discards `first_discard`, then each seat in turn
    draws and discards the tile it drew (a flower is exposed and replaced from the back first); nobody claims or
    wins; when no live tile is left, draw_game. Each event is checked legal on a table as it is made."""
    table = new_table(header)
    ruleset, dealer = header["ruleset"], header.get("dealer", 0)
    events = []

    def play(ev):
        problem = table.apply(parse_event(ev))
        assert problem is None, (ev, problem)
        events.append(ev)

    play(discard(dealer, first_discard))
    seat = dealer
    while True:
        seat = (seat + 1) % 4
        if table.live_tiles <= 0:
            play(draw_game())
            return events, table
        tile = table.wall[table.head]
        play(draw(seat, T.tile_name(tile)))
        while is_flower(ruleset, tile):
            play(flower(seat, T.tile_name(tile)))
            tile = table.wall[table.tail - 1]
            play(draw(seat, T.tile_name(tile), back=True))
        play(discard(seat, T.tile_name(tile)))


# A quiet deal with no flowers and no dragons (so no flower phase under any ruleset):
#   seat 0 (dealer, 14): 1m2m3m4m5m6m7m8m9m 1p2p3p4p5p
#   seat 1 (13):         1s2s3s4s5s6s7s8s9s 1z2z3z4z
#   seat 2 (13):         1m2m3m4m5m6m7m8m9m 6p7p8p9p
#   seat 3 (13):         1s2s3s4s5s6s7s8s9s 1z2z3z4z
QUIET = {0: "1m2m3m4m5m6m7m8m9m1p2p3p4p5p", 1: "1s2s3s4s5s6s7s8s9s1z2z3z4z",
         2: "1m2m3m4m5m6m7m8m9m6p7p8p9p", 3: "1s2s3s4s5s6s7s8s9s1z2z3z4z"}


# ---------------------------------------------------------------------------------------------- procedure.turn

@pytest.mark.parametrize("ruleset", RULESETS)
def test_turn_dealer_discards_first_without_drawing_is_legal(ruleset):
    # procedure.turn: the dealer holds 14 tiles and opens with a discard, no draw; then seat 1 draws (6p).
    h = log(ruleset, QUIET, draws="6p")
    unfinished(h, [discard(0, "5p")])
    unfinished(h, [discard(0, "5p"), draw(1, "6p"), discard(1, "6p")])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_turn_dealer_drawing_before_its_first_discard_is_illegal(ruleset):
    # procedure.turn: the dealer's 14th tile is its draw; a draw before its first discard is out of turn.
    illegal(log(ruleset, QUIET, draws="6p"), [draw(0)], "procedure.turn")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_turn_draw_by_the_wrong_seat_is_illegal(ruleset):
    # procedure.turn: after 0: discard 5p (and no claim) seat 1 draws; seat 2 drawing is out of turn.
    h = log(ruleset, QUIET, draws="6p")
    illegal(h, [discard(0, "5p"), draw(2)], "procedure.turn")
    illegal(h, [discard(0, "5p"), draw(3, "6p")], "procedure.turn")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_turn_discard_of_a_tile_not_held_is_illegal(ruleset):
    # procedure.turn: the dealer holds no 9s (its tiles are 1m-9m and 1p-5p).
    illegal(log(ruleset, QUIET), [discard(0, "9s")], "procedure.turn")
    # seat 1 draws 6p and holds 1s-9s 1z-4z 6p: it holds no 5p (the tile the dealer just discarded)
    illegal(log(ruleset, QUIET, draws="6p"), [discard(0, "5p"), draw(1, "6p"), discard(1, "5p")], "procedure.turn")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_turn_drawn_tile_must_be_the_walls_next_tile(ruleset):
    # procedure.turn: the wall's next tile is 6p; a draw naming 7p is not what the wall gives.
    h = log(ruleset, QUIET, draws="6p7p")
    unfinished(h, [discard(0, "5p"), draw(1, "6p")])
    illegal(h, [discard(0, "5p"), draw(1, "7p")], "procedure.turn")


# ---------------------------------------------------------------------------------------------- procedure.deal

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("dealer", [0, 2])
def test_deal_gives_the_dealer_14_tiles_and_the_others_13(ruleset, dealer):
    # procedure.deal (dealer_tiles 14, others 13): the arranged hands, dealer 0 or 2, are what the table holds.
    hands = {(dealer + k) % 4: QUIET[k] for k in range(4)}  # the dealer gets QUIET's 14-tile hand
    table = new_table(log(ruleset, hands, dealer=dealer))
    for seat in range(4):
        assert sum(table.players[seat].counts) == (14 if seat == dealer else 13)
        assert table.players[seat].counts == T.tile_counts(T.parse_tiles(hands[seat])) + [0] * 8
    assert table.head == 14 + 3 * 13 and table.tail == 144
    # shanghai-classic opens with the 换牌 window (procedure.tile_swap); the others go straight to the dealer
    assert table.phase == ("swap" if ruleset == "shanghai-classic" else "play") and table.turn == dealer


@pytest.mark.parametrize("ruleset", RULESETS)
def test_deal_with_dealer_2_the_dealer_discards_first(ruleset):
    # procedure.deal / procedure.turn: with dealer 2, seat 2 holds 14 tiles and discards first; seat 0 may not.
    hands = {(2 + k) % 4: QUIET[k] for k in range(4)}  # seat 2: 1m-9m 1p-5p
    h = log(ruleset, hands, dealer=2)
    unfinished(h, [discard(2, "5p")])
    illegal(h, [discard(0, "5p")], "procedure.turn")  # seat 0 holds 1s-9s 1z-4z: 13 tiles, not its turn


# ---------------------------------------------------------------------------------------------- flower_exposure

# seat 1 is dealt the flower 1f (its replacement from the back: 4z):
#   seat 0 (dealer): 1m2m3m4m5m6m7m8m9m 1p2p3p4p5p      seat 2: 1m2m3m4m5m6m7m8m9m 6p7p8p9p
#   seat 1:          1s2s3s4s5s6s7s8s9s 1z2z3z 1f        seat 3: 1s2s3s4s5s6s7s8s9s 1z2z3z4z
FLOWER_DEAL = {**QUIET, 1: "1s2s3s4s5s6s7s8s9s1z2z3z1f"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_flower_exposure_at_the_deal_before_the_dealers_discard_is_legal(ruleset):
    # procedure.flower_exposure: 1: flower 1f, back (4z); then 0: discard 5p.
    h = log(ruleset, FLOWER_DEAL, replacements="4z")
    unfinished(h, [flower(1, "1f"), draw(1, "4z", back=True), discard(0, "5p")])
    table = new_table(h)
    for ev in [flower(1, "1f"), draw(1, "4z", back=True)]:
        assert table.apply(parse_event(ev)) is None
    assert table.players[1].flowers == [T.parse_tile("1f")] and sum(table.players[1].counts) == 13
    assert table.phase == "play" and table.turn == 0


@pytest.mark.parametrize("ruleset", ["mcr", "shanghai-knocking"])
@pytest.mark.parametrize("case", ["others_flower_pending", "dealer_discards_its_flower"])
def test_flower_exposure_discard_before_the_deals_flowers_are_exposed_is_illegal(ruleset, case):
    # procedure.flower_exposure (at_deal, order dealer_first): every dealt flower is exposed and replaced before
    # the dealer's first discard.
    if case == "others_flower_pending":
        # seat 1 holds 1f; the dealer discards 5p before seat 1 exposed it
        illegal(log(ruleset, FLOWER_DEAL, replacements="4z"), [discard(0, "5p")], "procedure.flower_exposure")
    else:
        # the dealer is dealt 1m2m3m4m5m6m7m8m9m 1p2p3p4p 1f and discards the flower itself
        hands = {**QUIET, 0: "1m2m3m4m5m6m7m8m9m1p2p3p4p1f"}
        illegal(log(ruleset, hands), [discard(0, "1f")], "procedure.flower_exposure")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_flower_exposure_a_drawn_flower_is_exposed_not_discarded(ruleset):
    # procedure.flower_exposure: seat 1 draws 2f in play.
    #   legal:   0: discard 5p; draw 1 (2f); 1: flower 2f; back (4z); 1: discard 4z
    #   illegal: ... draw 1 (2f); 1: discard 2f           (a flower is never discarded)
    #   illegal: ... draw 1 (2f); 1: discard 1s           (discarding while holding a flower)
    h = log(ruleset, QUIET, draws="2f", replacements="4z")
    unfinished(h, [discard(0, "5p"), draw(1, "2f"), flower(1, "2f"), draw(1, "4z", back=True), discard(1, "4z")])
    illegal(h, [discard(0, "5p"), draw(1, "2f"), discard(1, "2f")], "procedure.flower_exposure")
    illegal(h, [discard(0, "5p"), draw(1, "2f"), discard(1, "1s")], "procedure.flower_exposure")


def test_flower_exposure_a_seat_may_not_expose_a_flower_it_does_not_hold():
    # procedure.flower_exposure (mcr): the dealer holds no 3f.
    illegal(log("mcr", QUIET), [flower(0, "3f")], "procedure.flower_exposure")


def test_flower_exposure_knocking_dragons_are_flowers():
    # procedure.flower_exposure under shanghai-knocking (tiles: dragons_as_flowers): seat 1 draws 6z (發).
    #   legal:   0: discard 5p; draw 1 (6z); 1: flower 6z; back (4z); 1: discard 4z
    #   illegal: 0: discard 5p; draw 1 (6z); 1: discard 6z
    h = log("shanghai-knocking", QUIET, draws="6z", replacements="4z")
    unfinished(h, [discard(0, "5p"), draw(1, "6z"), flower(1, "6z"), draw(1, "4z", back=True), discard(1, "4z")])
    illegal(h, [discard(0, "5p"), draw(1, "6z"), discard(1, "6z")], "procedure.flower_exposure")


def test_flower_exposure_knocking_a_dealt_dragon_is_exposed_at_the_deal():
    # shanghai-knocking: seat 1 is dealt 5z (白), a flower there: 1: flower 5z, back (4z), then 0: discard 5p.
    hands = {**QUIET, 1: "1s2s3s4s5s6s7s8s9s1z2z3z5z"}
    h = log("shanghai-knocking", hands, replacements="4z")
    assert new_table(h).phase == "flowers"
    unfinished(h, [flower(1, "5z"), draw(1, "4z", back=True), discard(0, "5p")])


def test_flower_exposure_mcr_dragons_are_ordinary_tiles():
    # mcr (dragons_as_flowers false): a drawn 6z is discarded like any tile, and "flower 6z" is refused.
    h = log("mcr", QUIET, draws="6z", replacements="4z")
    unfinished(h, [discard(0, "5p"), draw(1, "6z"), discard(1, "6z")])
    illegal(h, [discard(0, "5p"), draw(1, "6z"), flower(1, "6z")], "procedure.flower_exposure")
    # a dealt 5z starts no flower phase under mcr: the dealer discards at once
    hands = {**QUIET, 1: "1s2s3s4s5s6s7s8s9s1z2z3z5z"}
    assert new_table(log("mcr", hands)).phase == "play"
    illegal(log("mcr", hands), [flower(1, "5z")], "procedure.flower_exposure")


# ---------------------------------------------------------------------------------------------- replacement_draw

# The dealer holds four 9p:
#   seat 0 (dealer): 9p9p9p9p 1m2m3m4m5m6m7m8m9m 5p    seat 2: 1m2m3m4m5m6m7m8m9m 6p7p8p 1z
#   seat 1:          1s2s3s4s5s6s7s8s9s 1z2z3z4z       seat 3: 1s2s3s4s5s6s7s8s9s 2z3z4z 6p
# replacements (from the back): 7p
KONG_DEAL = {0: "9p9p9p9p1m2m3m4m5m6m7m8m9m5p", 1: "1s2s3s4s5s6s7s8s9s1z2z3z4z",
             2: "1m2m3m4m5m6m7m8m9m6p7p8p1z", 3: "1s2s3s4s5s6s7s8s9s2z3z4z6p"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replacement_draw_after_a_concealed_kong(ruleset):
    # procedure.replacement_draw (after_kong): 0: concealed_kong 9p, then a draw from the back (7p).
    h = log(ruleset, KONG_DEAL, replacements="7p")
    unfinished(h, [concealed_kong(0, "9p"), draw(0, "7p", back=True), discard(0, "7p")])
    illegal(h, [concealed_kong(0, "9p"), draw(0)], "procedure.replacement_draw")  # from the front
    illegal(h, [concealed_kong(0, "9p"), draw(0, "8p", back=True)], "procedure.replacement_draw")  # back tile is 7p


# seat 2 holds three 5p and claims the dealer's 5p as an exposed kong:
#   seat 0 (dealer): 5p 1m2m3m4m5m6m7m8m9m 1p2p3p4p     seat 2: 5p5p5p 1m2m3m4m5m6m7m8m9m 1z
#   seat 1:          1s2s3s4s5s6s7s8s9s 1z2z3z4z        seat 3: 1s2s3s4s5s6s7s8s9s 2z3z4z 6p
EXPOSED_KONG_DEAL = {0: "5p1m2m3m4m5m6m7m8m9m1p2p3p4p", 1: "1s2s3s4s5s6s7s8s9s1z2z3z4z",
                     2: "5p5p5p1m2m3m4m5m6m7m8m9m1z", 3: "1s2s3s4s5s6s7s8s9s2z3z4z6p"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replacement_draw_after_an_exposed_kong(ruleset):
    # procedure.replacement_draw: 0: discard 5p; 2: kong; back (7p); 2: discard 7p.
    h = log(ruleset, EXPOSED_KONG_DEAL, replacements="7p")
    unfinished(h, [discard(0, "5p"), kong(2), draw(2, "7p", back=True), discard(2, "7p")])
    illegal(h, [discard(0, "5p"), kong(2), draw(2)], "procedure.replacement_draw")
    illegal(h, [discard(0, "5p"), kong(2), draw(2, "9p", back=True)], "procedure.replacement_draw")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replacement_draw_after_a_flower(ruleset):
    # procedure.replacement_draw (after_flower): seat 1 is dealt 1f (FLOWER_DEAL); its replacement is 4z.
    h = log(ruleset, FLOWER_DEAL, replacements="4z")
    unfinished(h, [flower(1, "1f"), draw(1, "4z", back=True)])
    illegal(h, [flower(1, "1f"), draw(1)], "procedure.replacement_draw")
    illegal(h, [flower(1, "1f"), draw(1, "1m", back=True)], "procedure.replacement_draw")


# ---------------------------------------------------------------------------------------------- wall_end

@pytest.mark.parametrize("ruleset", RULESETS)
def test_wall_end_draw_game_while_tiles_remain_is_illegal(ruleset):
    # procedure.wall_end: 0: discard 5p leaves 144 - 53 = 91 live tiles; declaring a drawn game now is illegal.
    illegal(log(ruleset, QUIET), [discard(0, "5p"), draw_game()], "procedure.wall_end")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_wall_end_a_hand_played_out_is_drawn(ruleset):
    # procedure.wall_end (no dead wall by default): the QUIET deal; every seat discards what it draws (the 8
    # flowers in the wall are exposed and replaced from the back as they come) until the wall is empty, then
    # draw_game. 144 - 53 dealt = 91 tiles are drawn in all (front or back).
    h = log(ruleset, QUIET)
    events, table = play_out(h, "5p")
    assert table.live_tiles == 0 and table.tail == table.head
    assert sum(e["event"] == "draw" for e in events) == 91
    assert sum(e["event"] == "flower" for e in events) == 8 + (12 if ruleset == "shanghai-knocking" else 0)
    result = ended(h, events)
    assert result["ended"] == "draw" and result["winners"] == [] and result["payments"] == [0, 0, 0, 0]
    # drawing on after the last tile is illegal
    illegal(h, events[:-1] + [draw((int(events[-2]["seat"]) + 1) % 4)], "procedure.wall_end")


@pytest.mark.parametrize("ruleset", ["mcr", "shanghai-classic"])
def test_wall_end_dead_wall_tiles_14_keeps_fourteen_tiles_back(ruleset):
    # option "dead_wall_tiles" = 14 (mcr, shanghai-classic): the hand is drawn when 14 tiles are left in the wall.
    options = {"dead_wall_tiles": 14}
    h = log(ruleset, QUIET, options=options)
    events, table = play_out(h, "5p")
    assert table.live_tiles == 0 and table.tail - table.head == 14
    assert sum(e["event"] == "draw" for e in events) == 91 - 14
    result = ended(h, events)
    assert result["ended"] == "draw" and result["payments"] == [0, 0, 0, 0]
    # a draw into the dead wall is illegal; so is a drawn game one tile early
    illegal(h, events[:-1] + [draw((int(events[-2]["seat"]) + 1) % 4)], "procedure.wall_end")
    illegal(h, events[:-3] + [draw_game()], "procedure.wall_end")


# QUIET with seat 1 holding 5z5z in place of 1z2z: played out as play_out plays it (each seat discards what it
# draws), the last tile of the wall is seat 3's 5z (the tiles left over fill the wall in tile order).
LAST_5Z = {**QUIET, 1: "1s2s3s4s5s6s7s8s9s5z5z3z4z"}


def test_last_discard_claims_any_lets_the_last_discard_be_punged_mcr():
    # option last_discard_claims = any (the default; decision mcr-last-discard-claims): 3 discards the wall's last
    # tile 5z; 1 pungs it (its claim rules have no exception at the wall's end), discards 3z, and the hand is drawn.
    h = log("mcr", LAST_5Z)
    events, table = play_out(h, "5p")
    assert events[-2] == discard(3, "5z") and table.live_tiles == 0
    result = ended(h, events[:-1] + [pung(1), discard(1, "3z"), draw_game()])
    assert result["ended"] == "draw"


def test_last_discard_claims_win_only_refuses_a_pung_of_the_last_discard_mcr():
    # option last_discard_claims = win_only: the same pung is refused, citing the option that decides it; the hand
    # is drawn instead.
    h = log("mcr", LAST_5Z, options={"last_discard_claims": "win_only"})
    events, _ = play_out(h, "5p")
    illegal(h, events[:-1] + [pung(1)], "option.last_discard_claims")
    assert ended(h, events)["ended"] == "draw"


@pytest.mark.parametrize("ruleset", ["mcr", "shanghai-classic"])
def test_dead_wall_tiles_0_plays_the_wall_out(ruleset):
    # option "dead_wall_tiles" = 0 (the default, said explicitly): every tile is drawn.
    h = log(ruleset, QUIET, options={"dead_wall_tiles": 0})
    events, table = play_out(h, "5p")
    assert table.tail == table.head
    assert ended(h, events)["ended"] == "draw"


def test_dead_wall_tiles_is_not_an_option_of_shanghai_knocking():
    # shanghai-knocking has no dead wall (dead_wall: false): the option is bad input there.
    r = replay_events(log("shanghai-knocking", QUIET, options={"dead_wall_tiles": 14}), [])
    assert r.verdict == "bad input"


def test_wall_end_a_bot_played_drawn_hand_replays_legal():
    # procedure.wall_end through simulate.play_hand: the first seed whose mcr hand ends drawn, replayed line by line.
    for seed in range(60):
        hand = play_hand("mcr", seed)
        if hand.result["ended"] == "draw":
            break
    else:
        pytest.fail("no drawn mcr hand among seeds 0-59")
    r = replay_events(hand.header, hand.events)
    assert r.verdict == "legal" and r.result == hand.result
    assert r.result["winners"] == [] and r.result["payments"] == [0, 0, 0, 0]
    assert hand.events[-1] == {"event": "draw_game"} and hand.table.live_tiles == 0


# ---------------------------------------------------------------------------------------------- claims

# The dealer discards 5p:
#   seat 0 (dealer): 5p 5s 1m1m1m 2m2m2m 3m3m3m 9m9m9m
#   seat 1 (next):   3p4p5p6p 1s2s3s4s5s6s7s8s9s     (one 5p; chows 345p, 456p)
#   seat 2 (across): 5p5p 2p2p2p 8p8p8p 9p9p9p 2z2z  (pung)
#   seat 3 (before): 4p6p 4z4z4z 3z3z3z 1z1z 7s7s7s  (could chow 456p, but is not the dealer's next seat)
CLAIMS_DEAL = {0: "5p5s1m1m1m2m2m2m3m3m3m9m9m9m", 1: "3p4p5p6p1s2s3s4s5s6s7s8s9s",
               2: "5p5p2p2p2p8p8p8p9p9p9p2z2z", 3: "4p6p4z4z4z3z3z3z1z1z7s7s7s"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_claims_chow_by_the_next_seat_is_legal(ruleset):
    # procedure.claims (chow_from previous player): 0: discard 5p; 1: chow 456p; 1: discard 9s.
    h = log(ruleset, CLAIMS_DEAL)
    unfinished(h, [discard(0, "5p"), chow(1, "456p"), discard(1, "9s")])
    unfinished(h, [discard(0, "5p"), chow(1, "345p"), discard(1, "9s")])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_claims_chow_by_a_seat_other_than_the_next_is_illegal(ruleset):
    # procedure.claims: seat 3 holds 4p6p but only seat 1 may chow seat 0's discard.
    illegal(log(ruleset, CLAIMS_DEAL), [discard(0, "5p"), chow(3, "456p")], "procedure.claims")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_claims_chow_with_tiles_not_held_is_illegal(ruleset):
    # procedure.claims: seat 1 holds no 7p, so 567p is not its chow; nor is a run without the discard.
    h = log(ruleset, CLAIMS_DEAL)
    illegal(h, [discard(0, "5p"), chow(1, "567p")], "procedure.claims")
    illegal(h, [discard(0, "5p"), chow(1, "345s")], "procedure.claims")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_claims_pung_needs_two_matching_tiles(ruleset):
    # procedure.claims: seat 1 holds one 5p (illegal pung); seat 2 holds two (legal, from across the table).
    h = log(ruleset, CLAIMS_DEAL)
    illegal(h, [discard(0, "5p"), pung(1)], "procedure.claims")
    unfinished(h, [discard(0, "5p"), pung(2), discard(2, "2z")])


# The claimer holds three 5s; the dealer discards 5s:
#   seat 0 (dealer):  5s 5m5m5m 6m6m6m 7m7m7m 8m8m8m 9m
#   claimer:          5s5s5s 1p1p1p 2p2p2p 3p3p3p 1z
#   the other two:    4p4p4p 6p6p6p 7p7p7p 8p8p8p 2z  and  1m1m1m 2m2m2m 3m3m3m 4m4m4m 3z
# replacement from the back: 4z
def any_seat_deal(claimer):
    fillers = iter(["4p4p4p6p6p6p7p7p7p8p8p8p2z", "1m1m1m2m2m2m3m3m3m4m4m4m3z"])
    hands = {0: "5s5m5m5m6m6m6m7m7m7m8m8m8m9m"}
    for seat in (1, 2, 3):
        hands[seat] = "5s5s5s1p1p1p2p2p2p3p3p3p1z" if seat == claimer else next(fillers)
    return hands


@pytest.mark.parametrize("claimer", [1, 2, 3])
def test_claims_pung_and_kong_from_any_seat_are_legal_mcr(claimer):
    # procedure.claims (pung_kong_from any): the next seat, the seat across and the seat before the dealer.
    h = log("mcr", any_seat_deal(claimer), replacements="4z")
    unfinished(h, [discard(0, "5s"), pung(claimer), discard(claimer, "1z")])
    unfinished(h, [discard(0, "5s"), kong(claimer), draw(claimer, "4z", back=True), discard(claimer, "4z")])


@pytest.mark.parametrize("ruleset", ["shanghai-knocking", "shanghai-classic"])
def test_claims_pung_and_kong_from_the_seat_before_are_legal(ruleset):
    # procedure.claims: seat 3 (the seat before the dealer, which may not chow the dealer's tile) pungs and konges.
    h = log(ruleset, any_seat_deal(3), replacements="4z")
    unfinished(h, [discard(0, "5s"), pung(3), discard(3, "1z")])
    unfinished(h, [discard(0, "5s"), kong(3), draw(3, "4z", back=True), discard(3, "4z")])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_claims_a_player_may_not_claim_its_own_discard(ruleset):
    # procedure.claims: the dealer holds 5m5m5m 6m6m6m 7m7m7m, discards one 5m and tries to pung or chow it back.
    h = log(ruleset, any_seat_deal(2))
    illegal(h, [discard(0, "5m"), pung(0)], "procedure.claims")
    illegal(h, [discard(0, "5m"), chow(0, "567m")], "procedure.claims")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_claims_kong_needs_three_matching_tiles(ruleset):
    # procedure.claims: in CLAIMS_DEAL seat 2 holds two 5p: a pung, not a kong.
    illegal(log(ruleset, CLAIMS_DEAL), [discard(0, "5p"), kong(2)], "procedure.claims")


# ---------------------------------------------------------------------------------------------- claim_priority

def test_claim_priority_pung_after_a_chow_of_the_same_discard_is_illegal():
    # procedure.claim_priority (mcr: win > pung/kong > chow), CLAIMS_DEAL:
    #   legal:   0: discard 5p; 2: pung (seat 1, who could chow, is outranked); 2: discard 2z
    #   illegal: 0: discard 5p; 1: chow 456p; 2: pung   (the chow has taken the tile)
    h = log("mcr", CLAIMS_DEAL)
    unfinished(h, [discard(0, "5p"), pung(2), discard(2, "2z")])
    illegal(h, [discard(0, "5p"), chow(1, "456p"), pung(2)], "procedure.claim_priority")


# ---------------------------------------------------------------------------------------------- multiple_winners

# mcr: seats 1 and 3 both wait on 5s and the dealer discards it.
#   seat 0 (dealer): 5s 6s 1z1z1z 2z2z2z 3z3z3z 4z4z4z
#   seat 1:          1m2m3m4m5m6m7m8m9m 2p3p4p 5s    (pure straight; single wait on 5s)
#   seat 2:          7p7p7p 8p8p8p 9p9p9p 6z6z6z 7z
#   seat 3:          1s2s3s4s5s6s7s8s9s 5z5z5z 5s    (pure straight, half flush; single wait on 5s)
DOUBLE_WAIT_MCR = {0: "5s6s1z1z1z2z2z2z3z3z3z4z4z4z", 1: "1m2m3m4m5m6m7m8m9m2p3p4p5s",
                   2: "7p7p7p8p8p8p9p9p9p6z6z6z7z", 3: "1s2s3s4s5s6s7s8s9s5z5z5z5s"}


def test_multiple_winners_mcr_one_winner_is_legal():
    # procedure.multiple_winners (nearest_seat_after_discarder): 0: discard 5s; 1: win. Or seat 1 passes, 3 wins.
    h = log("mcr", DOUBLE_WAIT_MCR)
    result = ended(h, [discard(0, "5s"), win(1, "5s")])
    assert [w["seat"] for w in result["winners"]] == [1]
    result = ended(h, [discard(0, "5s"), pass_(1), win(3, "5s")])
    assert [w["seat"] for w in result["winners"]] == [3]


def test_multiple_winners_mcr_second_win_on_the_same_discard_is_illegal():
    # procedure.multiple_winners: 0: discard 5s; 1: win; 3: win  -> the second win breaks the rule.
    illegal(log("mcr", DOUBLE_WAIT_MCR), [discard(0, "5s"), win(1, "5s"), win(3, "5s")], "procedure.multiple_winners")


# Shanghai: both winners must have knocked first. Seats 1 and 3 knock, then the dealer discards 9s.
#   seat 0 (dealer): 9s 1p 1m1m1m 2s2s2s 3s3s3s 4s4s 5s     seat 2: 6s6s6s 7s7s7s 8s8s8s 3z3z3z 4z
#   seat 1:          1z1z1z 2m2m2m 5m5m5m 8p8p 9s9s         seat 3: 2z2z2z 3m3m3m 6m6m6m 7p7p7p 9s
# (seat 1 waits on 8p or 9s, seat 3 on 9s alone: 2 + 1 + the dealer's 9s = 3 of the four 9s)
# draws: 3p (seat 1), 2s (seat 2), 4p (seat 3), 4s (seat 0)
#   0: discard 1p; draw 1 (3p); 1: knock; 1: discard 3p; draw 2 (2s); 2: discard 2s;
#   draw 3 (4p); 3: knock; 3: discard 4p; draw 0 (4s); 0: discard 9s; then the wins.
TWO_KNOCKED = {0: "9s1p1m1m1m2s2s2s3s3s3s4s4s5s", 1: "1z1z1z2m2m2m5m5m5m8p8p9s9s",
               2: "6s6s6s7s7s7s8s8s8s3z3z3z4z", 3: "2z2z2z3m3m3m6m6m6m7p7p7p9s"}
TWO_KNOCKED_PLAY = [discard(0, "1p"), draw(1, "3p"), knock(1), discard(1, "3p"), draw(2, "2s"), discard(2, "2s"),
                    draw(3, "4p"), knock(3), discard(3, "4p"), draw(0, "4s"), discard(0, "9s")]


def test_multiple_winners_knocking_one_winner_is_legal():
    h = log("shanghai-knocking", TWO_KNOCKED, draws="3p2s4p4s")
    result = ended(h, TWO_KNOCKED_PLAY + [win(1, "9s")])
    assert [w["seat"] for w in result["winners"]] == [1]


def test_multiple_winners_knocking_second_win_on_the_same_discard_is_illegal():
    # shanghai-knocking (一炮多响 off: nearest_seat_after_discarder): seat 3's win after seat 1's is illegal.
    h = log("shanghai-knocking", TWO_KNOCKED, draws="3p2s4p4s")
    illegal(h, TWO_KNOCKED_PLAY + [win(1, "9s"), win(3, "9s")], "procedure.multiple_winners")


def test_multiple_winners_classic_two_winners_each_paid_by_the_discarder():
    # shanghai-classic (multiple_winners: all_paid, 一炮多响): seats 1 and 3 both win on the dealer's 9s.
    # Each hand by the spec (default options):
    #   seat 1: 1z1z1z 2m2m2m 5m5m5m 9s9s9s 8p8p, all concealed: 碰碰胡 (allows the win; unpriced_fan_value 0
    #           adds no 番), wind_pung 1z: 1 花; men_qing (menqing_doubles 1): x2 -> value 2 (under the 1-勒 cap 10).
    #   seat 3: 2z2z2z 3m3m3m 6m6m6m 7p7p7p 9s9s: the same: 1 花 (2z pung) x2 = 2.
    # Settlement (discard_payment alone, base_placement after_caps): one share = 底分 2 + value 2 = 4, paid by
    # the discarder alone. Seat 0 pays 4 + 4 = 8; seats 1 and 3 get 4 each; seat 2 pays nothing.
    h = log("shanghai-classic", TWO_KNOCKED, draws="3p2s4p4s")
    result = ended(h, TWO_KNOCKED_PLAY + [win(1, "9s"), win(3, "9s")])
    assert result["ended"] == "win"
    assert [(w["seat"], w["win_by"], w["discarder"], w["total"]) for w in result["winners"]] == \
        [(1, "discard", 0, 2), (3, "discard", 0, 2)]
    for w in result["winners"]:
        assert {f["id"] for f in w["fans"]} >= {"wind_pung", "men_qing", "peng_peng_hu"}
        assert sum(w["payments"]) == 0
    assert result["payments"] == [-8, 4, 0, 4]
    assert sum(result["payments"]) == 0
    # 一炮多响: the next dealer is the winner nearest the discarder going downstream (spec: after_multiple_win
    # nearest_winner_downstream_of_discarder): seat 1
    assert result["next"]["dealer"] == 1


def test_multiple_winners_classic_a_winner_may_not_win_twice():
    # procedure.multiple_winners (all_paid): seat 1 declaring its win on the same discard again is illegal.
    h = log("shanghai-classic", TWO_KNOCKED, draws="3p2s4p4s")
    illegal(h, TWO_KNOCKED_PLAY + [win(1, "9s"), win(1, "9s")], "procedure.multiple_winners")


# ---------------------------------------------------------------------------------------------- simultaneous claims

def claims(*answers):
    """A `claims` event: each answer (seat, claim[, tiles]) to the open discard, given at once."""
    out = []
    for seat, claim, *tiles in answers:
        out.append({"seat": seat, "claim": claim, **({"tiles": tiles[0]} if tiles else {})})
    return {"event": "claims", "answers": out}


def test_claims_at_once_two_wins_under_head_bump_the_nearest_seat_wins_alone_mcr():
    # procedure.multiple_winners (nearest_seat_after_discarder): seats 1 and 3 both answer win on the dealer's 5s;
    # seat 1 is nearer the discarder (one seat downstream, seat 3 three): seat 1 wins alone, as in the one-by-one
    # log [discard 5s, win 1]; the two logs give the same result.
    h = log("mcr", DOUBLE_WAIT_MCR)
    at_once = ended(h, [discard(0, "5s"), claims((1, "win"), (2, "pass"), (3, "win"))])
    assert [w["seat"] for w in at_once["winners"]] == [1]
    assert at_once == ended(h, [discard(0, "5s"), win(1, "5s")])


def test_claims_at_once_two_wins_all_paid_both_win_classic():
    # shanghai-classic (一炮多响, all_paid): both winners of the dealer's 9s are made, as the one-by-one log
    # [win 1, win 3] (payments worked in test_multiple_winners_classic_two_winners_each_paid_by_the_discarder:
    # [-8, 4, 0, 4]).
    h = log("shanghai-classic", TWO_KNOCKED, draws="3p2s4p4s")
    result = ended(h, TWO_KNOCKED_PLAY + [claims((3, "win"), (1, "win"))])
    assert [w["seat"] for w in result["winners"]] == [1, 3] and result["payments"] == [-8, 4, 0, 4]


def test_claims_at_once_a_win_outranks_a_pung_and_a_pung_a_pass_mcr():
    # procedure.claim_priority [win, pung_kong, chow]: on the dealer's 5p, seat 2 (holding 5p5p) answers pung and
    # seat 3 (ROB_MCR's closed wait on 5p: Mixed straight 123m 456p 789s, 8 points) answers win: seat 3 wins on
    # the discard. With seat 3 passing, seat 2's pung is made and seat 2 discards next.
    h = log("mcr", ROB_MCR)
    (w,) = ended(h, [discard(0, "5p"), claims((1, "pass"), (2, "pung"), (3, "win"))])["winners"]
    assert (w["seat"], w["win_by"], w["discarder"]) == (3, "discard", 0)
    unfinished(h, [discard(0, "5p"), claims((2, "pung"), (3, "pass")), discard(2, "1z")])
    # every seat passing leaves the discard to the next draw
    unfinished(h, [discard(0, "5p"), claims((1, "pass"), (2, "pass"), (3, "pass")), draw(1)])


def test_claims_at_once_an_answer_its_seat_could_not_make_alone_is_illegal_mcr():
    # each answer is checked as if made alone: seat 1 holds no 5p and cannot pung (procedure.claims); seat 3 may
    # not chow the dealer's 5p, only seat 1 may (procedure.claims: "a chow is claimed only from the previous
    # player"); a seat answering twice, or the discarder answering, is not an answer (procedure.claims).
    h = log("mcr", ROB_MCR)
    illegal(h, [discard(0, "5p"), claims((1, "pung"), (2, "pass"))], "procedure.claims")
    illegal(h, [discard(0, "5p"), claims((3, "chow", "4p5p6p"))], "procedure.claims")
    illegal(h, [discard(0, "5p"), claims((2, "pass"), (2, "pung"))], "procedure.claims")
    illegal(h, [discard(0, "5p"), claims((0, "pass"), (2, "pung"))], "procedure.claims")
    # answers before any discard is open are out of turn
    illegal(h, [claims((1, "pass"))], "procedure.turn")


# ---------------------------------------------------------------------------------------------- robbing a kong

# mcr: seat 2 pungs the dealer's 5p, later draws the fourth 5p and adds it to the pung; seat 3 waits on 5p.
#   seat 0 (dealer): 5p 1m1m 2m2m 3m3m 4m4m 6m6m 8s8s8s
#   seat 1:          1s1s1s 2s2s2s 3s3s3s 4s4s4s 6z
#   seat 2:          5p5p 1z 2z2z2z 3z3z3z 4z4z4z 6z
#   seat 3:          1m2m3m 4p6p 7p8p9p 7s8s9s 9s9s   (closed wait on 5p)
# draws: 9m (seat 3), 8m (seat 0), 7m (seat 1), 5p (seat 2); replacement: 7z
#   0: discard 5p; 2: pung; 2: discard 1z; draw 3 (9m); 3: discard 9m; draw 0 (8m); 0: discard 8m;
#   draw 1 (7m); 1: discard 7m; draw 2 (5p); 2: add_kong 5p
ROB_MCR = {0: "5p1m1m2m2m3m3m4m4m6m6m8s8s8s", 1: "1s1s1s2s2s2s3s3s3s4s4s4s6z",
           2: "5p5p1z2z2z2z3z3z3z4z4z4z6z", 3: "1m2m3m4p6p7p8p9p7s8s9s9s9s"}
ROB_MCR_PLAY = [discard(0, "5p"), pung(2), discard(2, "1z"), draw(3, "9m"), discard(3, "9m"), draw(0, "8m"),
                discard(0, "8m"), draw(1, "7m"), discard(1, "7m"), draw(2, "5p"), add_kong(2, "5p")]


def test_robbing_an_added_kong_is_legal_mcr():
    # procedure.robbing_only_added_kongs: 3: win on the 5p seat 2 adds to its pung (抢杠).
    h = log("mcr", ROB_MCR, draws="9m8m7m5p", replacements="7z")
    result = ended(h, ROB_MCR_PLAY + [win(3, "5p")])
    (w,) = result["winners"]
    assert (w["seat"], w["tile"], w["win_by"], w["discarder"]) == (3, "5p", "robbing_kong", 2)
    assert "robbing_the_kong" in {f["id"] for f in w["fans"]}
    # nobody robs: the konger draws its replacement from the back and plays on
    unfinished(h, ROB_MCR_PLAY + [draw(2, "7z", back=True), discard(2, "7z")])
    # procedure.replacement_draw: that replacement comes from the back, not the front
    illegal(h, ROB_MCR_PLAY + [draw(2)], "procedure.replacement_draw")


def test_robbing_a_concealed_kong_is_illegal_mcr():
    # procedure.robbing_only_added_kongs: the dealer holds 5p5p5p5p and declares a concealed kong; seat 3 (waiting
    # on 5p, as in ROB_MCR) may not rob it.
    #   seat 0 (dealer): 5p5p5p5p 1m1m 2m2m 3m3m 4m4m 6m6m
    hands = {**ROB_MCR, 0: "5p5p5p5p1m1m2m2m3m3m4m4m6m6m", 2: "1z1z2z2z2z3z3z3z4z4z4z6z7z"}
    illegal(log("mcr", hands, replacements="7z"), [concealed_kong(0, "5p"), win(3, "5p")],
            "procedure.robbing_only_added_kongs")


def test_robbing_a_kong_claimed_from_a_discard_is_illegal_mcr():
    # procedure.robbing_only_added_kongs: seat 2 holds 5p5p5p and konges the dealer's 5p; seat 3 may not rob it.
    hands = {**ROB_MCR, 2: "5p5p5p2z2z2z3z3z3z4z4z4z6z"}
    illegal(log("mcr", hands, replacements="7z"), [discard(0, "5p"), kong(2), win(3, "5p")],
            "procedure.robbing_only_added_kongs")


# mcr: seat 2 holds three 5p and pungs the dealer's 5p (the fourth); seat 3 waits on 5p (closed wait, as ROB_MCR).
#   seat 2: 5p5p5p 2z2z2z 3z3z3z 4z4z4z 6z
CLAIM_TURN_KONG = {**ROB_MCR, 2: "5p5p5p2z2z2z3z3z3z4z4z4z6z"}


def test_added_kong_after_claim_allowed_lets_the_claimer_extend_its_pung_and_it_may_be_robbed_mcr():
    # option added_kong_after_claim = allowed (the default; decision mcr-added-kong-after-claim): 2 pungs 5p and,
    # before discarding, adds its own fourth 5p to the pung; 3 robs that kong (procedure.robbing_only_added_kongs).
    h = log("mcr", CLAIM_TURN_KONG, replacements="7z")
    result = ended(h, [discard(0, "5p"), pung(2), add_kong(2, "5p"), win(3, "5p")])
    (w,) = result["winners"]
    assert (w["seat"], w["win_by"], w["discarder"]) == (3, "robbing_kong", 2)


def test_added_kong_after_claim_after_own_draw_refuses_it_until_the_claimers_draw_mcr():
    # option added_kong_after_claim = after_own_draw: the added kong in the claim turn is refused, citing the option;
    # the claimer discards first (6z), and in its next turn, after drawing (1m), the added kong is legal and open to
    # robbing as before.
    options = {"added_kong_after_claim": "after_own_draw"}
    h = log("mcr", CLAIM_TURN_KONG, draws="9m8m7m1m", replacements="7z", options=options)
    illegal(h, [discard(0, "5p"), pung(2), add_kong(2, "5p")], "option.added_kong_after_claim")
    later = [discard(0, "5p"), pung(2), discard(2, "6z"), draw(3, "9m"), discard(3, "9m"), draw(0, "8m"),
             discard(0, "8m"), draw(1, "7m"), discard(1, "7m"), draw(2, "1m"), add_kong(2, "5p")]
    (w,) = ended(h, later + [win(3, "5p")])["winners"]
    assert (w["seat"], w["win_by"], w["discarder"]) == (3, "robbing_kong", 2)


# shanghai-knocking: the dealer knocks and discards 6m, leaving 123p 567p 222s 99s 45m (waiting on 3m or 6m);
# seat 1 konges that 6m; the dealer robs the kong (robbing_kong: any kong exposing a tile).
#   seat 0 (dealer): 1p2p3p 5p6p7p 2s2s2s 9s9s 4m5m 6m     seat 2: 1m1m1m 2m2m2m 7m7m7m 8m8m8m 2z
#   seat 1:          6m6m6m 1s1s1s 3s3s3s 4s4s4s 1z        seat 3: 4p4p4p 8p8p8p 9p9p9p 7s7s7s 3z
# (No other seat could have won the 6m: a knocked seat that let a winning discard go to the kong would have
# forfeited the hand, procedure.knock.)
ROB_KNOCKING = {0: "1p2p3p5p6p7p2s2s2s9s9s4m5m6m", 1: "6m6m6m1s1s1s3s3s3s4s4s4s1z",
                2: "1m1m1m2m2m2m7m7m7m8m8m8m2z", 3: "4p4p4p8p8p8p9p9p9p7s7s7s3z"}


def test_robbing_a_kong_claimed_from_a_discard_is_legal_knocking():
    # procedure.robbing_kong: 0: knock; 0: discard 6m; 1: kong; 0: win 6m (抢杠, paid by the konger).
    h = log("shanghai-knocking", ROB_KNOCKING, replacements="4z")
    result = ended(h, [knock(0), discard(0, "6m"), kong(1), win(0, "6m")])
    (w,) = result["winners"]
    assert (w["seat"], w["win_by"], w["discarder"]) == (0, "robbing_kong", 1)
    assert result["payments"][2] == result["payments"][3] == 0  # the konger alone pays (robbing_kong_triple_on)
    assert result["payments"][1] == -result["payments"][0] < 0


def test_robbing_a_concealed_kong_is_illegal_knocking():
    # procedure.robbing_kong: a concealed kong exposes no tile. The dealer knocks and discards 1z (waiting on 3m/6m);
    # seat 1 draws the fourth 6m and declares a concealed kong; the dealer may not rob it.
    hands = {**ROB_KNOCKING, 0: "1p2p3p5p6p7p2s2s2s9s9s4m5m1z", 1: "6m6m6m1s1s1s3s3s3s4s4s4s2z",
             2: "1m1m1m2m2m2m7m7m7m8m8m8m4z"}
    h = log("shanghai-knocking", hands, draws="6m", replacements="3z")
    play = [knock(0), discard(0, "1z"), draw(1, "6m"), concealed_kong(1, "6m")]
    unfinished(h, play + [draw(1, "3z", back=True), discard(1, "3z")])
    illegal(h, play + [win(0, "6m")], "procedure.robbing_kong")


# ---------------------------------------------------------------------------------------------- dealer rotation

def test_dealer_rotation_mcr_passes_the_deal_after_a_win():
    # procedure.dealer_rotation (rotates_each_hand): seat 2 (not the dealer) wins on the dealer's 5s; the deal
    # still passes to seat 1. DOUBLE_WAIT_MCR with seats 1 and 2 swapped: seat 2 holds the pure straight.
    hands = {**DOUBLE_WAIT_MCR, 1: DOUBLE_WAIT_MCR[2], 2: DOUBLE_WAIT_MCR[1]}
    result = ended(log("mcr", hands), [discard(0, "5s"), win(2, "5s")])
    assert [w["seat"] for w in result["winners"]] == [2]
    assert result["next"]["dealer"] == 1


@pytest.mark.parametrize("dealer", [0, 3])
def test_dealer_rotation_mcr_passes_the_deal_after_a_drawn_hand(dealer):
    # procedure.dealer_rotation (draws_count): a drawn hand passes the deal too: 0 -> 1, 3 -> 0.
    hands = {(dealer + k) % 4: QUIET[k] for k in range(4)}
    h = log("mcr", hands, dealer=dealer)
    events, _ = play_out(h, "5p")
    result = ended(h, events)
    assert result["ended"] == "draw" and result["next"]["dealer"] == (dealer + 1) % 4


# Seat 2 knocks and wins on seat 3's 9s (Shanghai rulesets):
#   seat 0 (dealer): 1p 1m1m1m 2s2s2s 3s3s3s 4s4s 5s 6s      seat 2: 1z1z1z 2m2m2m 5m5m5m 8p8p 9s9s
#   seat 1:          6p6p6p 7p7p7p 8m8m8m 3z3z3z 4z          seat 3: 2z2z2z 3m3m3m 6m6m6m 7s7s7s 9s
# draws: 2p (seat 1), 3p (seat 2), 4s (seat 3)
#   0: discard 1p; draw 1 (2p); 1: discard 2p; draw 2 (3p); 2: knock; 2: discard 3p; draw 3 (4s); 3: discard 9s;
#   2: win 9s
SEAT2_WINS = {0: "1p1m1m1m2s2s2s3s3s3s4s4s5s6s", 1: "6p6p6p7p7p7p8m8m8m3z3z3z4z",
              2: "1z1z1z2m2m2m5m5m5m8p8p9s9s", 3: "2z2z2z3m3m3m6m6m6m7s7s7s9s"}
SEAT2_WINS_PLAY = [discard(0, "1p"), draw(1, "2p"), discard(1, "2p"), draw(2, "3p"), knock(2), discard(2, "3p"),
                   draw(3, "4s"), discard(3, "9s"), win(2, "9s")]


def test_dealer_rotation_knocking_the_winner_deals_next():
    # procedure.dealer (winner_deals): seat 2 wins -> seat 2 deals next.
    # Value (spec patterns): going_out 1 + wind_pung (1z) 1 = 2 花; doubles men_qing and peng_peng_hu: 2 x 2^2 = 8.
    # Settlement: discarder pays 1 share (8), the others 0 (discard_others_pay 0).
    result = ended(log("shanghai-knocking", SEAT2_WINS, draws="2p3p4s"), SEAT2_WINS_PLAY)
    (w,) = result["winners"]
    assert (w["seat"], w["discarder"], w["total"]) == (2, 3, 8)
    assert result["payments"] == [0, 0, 8, -8]
    assert result["next"]["dealer"] == 2


@pytest.mark.parametrize("dealer", [0, 1])
def test_dealer_rotation_knocking_a_drawn_hand_keeps_the_dealer(dealer):
    # procedure.dealer (on_draw: dealer_stays)
    hands = {(dealer + k) % 4: QUIET[k] for k in range(4)}
    h = log("shanghai-knocking", hands, dealer=dealer)
    events, _ = play_out(h, "5p")
    result = ended(h, events)
    assert result["ended"] == "draw" and result["next"]["dealer"] == dealer


def test_dealer_rotation_classic_the_winner_deals_next_and_huangfan_falls():
    # procedure.dealer (winner_deals) and huangfan_count (on_win -1): counters {"huangfan": 2}, seat 2 wins.
    # Value (spec patterns, default options): wind_pung 1z: 1 花; men_qing x2; 荒番 2 (huangfan_stacking per_count)
    # x2 x2: 1 x 2 x 4 = 8 (the cap, 1 勒 = 10, is doubled by 荒番 too: not reached). One share = 底分 2 + 8 = 10,
    # paid by the discarder (seat 3) alone.
    h = log("shanghai-classic", SEAT2_WINS, draws="2p3p4s", counters={"huangfan": 2})
    result = ended(h, SEAT2_WINS_PLAY)
    (w,) = result["winners"]
    assert (w["seat"], w["discarder"], w["total"]) == (2, 3, 8)
    assert result["payments"] == [0, 0, 10, -10]
    assert result["next"] == {"dealer": 2, "counters": {"huangfan": 1}}


@pytest.mark.parametrize("dealer", [0, 1])
def test_dealer_rotation_classic_a_drawn_hand_keeps_the_dealer_and_adds_a_huangfan(dealer):
    # procedure.dealer (on_draw: dealer_stays) and huangfan_count (on_draw +1): huangfan 2 -> 3.
    hands = {(dealer + k) % 4: QUIET[k] for k in range(4)}
    h = log("shanghai-classic", hands, dealer=dealer, counters={"huangfan": 2})
    events, _ = play_out(h, "5p")
    result = ended(h, events)
    assert result["ended"] == "draw" and result["payments"] == [0, 0, 0, 0]
    assert result["next"] == {"dealer": dealer, "counters": {"huangfan": 3}}


def test_knock_is_not_an_event_of_mcr():
    # mcr has no procedure.knock: the event is bad input there.
    r = replay_events(log("mcr", QUIET), [knock(0)])
    assert (r.verdict, r.rule) == ("bad input", "input.event")


# ---------------------------------------------------------------------------------------------- settlement

# mcr: seat 3 wins on seat 1's 5s.
#   seat 0 (dealer): 1s1s1s 2s2s2s 3s3s3s 4s4s4s 6p 7p     seat 2: the lowest tiles left (arrange_wall's filler)
#   seat 1:          2m3m4m 6s6s6s 7s7s7s 8s8s8s 5s        seat 3: 1m2m3m4m5m6m7m8m9m 2p3p4p 5s
# draws: 1z (seat 1)
#   0: discard 7p; draw 1 (1z); 1: discard 5s; 3: win 5s
SETTLE_MCR = {0: "1s1s1s2s2s2s3s3s3s4s4s4s6p7p", 1: "2m3m4m6s6s6s7s7s7s8s8s8s5s", 3: "1m2m3m4m5m6m7m8m9m2p3p4p5s"}


def test_settlement_mcr_discard_win():
    # Seat 3's hand: 123m 456m 789m 234p 5s5s, concealed, won on a discard, single wait on 5s.
    # Fans (spec/mcr.yaml): pure_straight 16, concealed_hand 2, all_chows 2 (it implies no_honors, not counted),
    # single_wait 1 (5s is the only wait) = 21; no flowers.
    # Settlement (base_plus_points, base 8): the discarder (seat 1) pays 8 + 21 = 29, seats 0 and 2 pay 8 each;
    # seat 3 gets 29 + 8 + 8 = 45.
    h = log("mcr", SETTLE_MCR, draws="1z")
    result = ended(h, [discard(0, "7p"), draw(1, "1z"), discard(1, "5s"), win(3, "5s")])
    (w,) = result["winners"]
    assert (w["seat"], w["tile"], w["win_by"], w["discarder"]) == (3, "5s", "discard", 1)
    assert w["total"] == 21
    assert {f["id"]: f["points"] * f["count"] for f in w["fans"]} == \
        {"pure_straight": 16, "concealed_hand": 2, "all_chows": 2, "single_wait": 1}
    assert result["payments"] == [-8, -29, -8, 45]


def test_settlement_mcr_self_drawn_win():
    # The same hand self-drawn: seat 3 draws 5s itself (draws: 1z seat 1, 6p seat 2, 5s seat 3).
    # Fans: pure_straight 16, fully_concealed_hand 4 (self_drawn not counted again), all_chows 2,
    # single_wait 1 = 23. Each opponent pays 8 + 23 = 31; seat 3 gets 93.
    hands = {**SETTLE_MCR, 1: "2m3m4m6s6s6s7s7s7s8s8s8s9s"}
    h = log("mcr", hands, draws="1z6p5s")
    result = ended(h, [discard(0, "7p"), draw(1, "1z"), discard(1, "1z"), draw(2, "6p"), discard(2, "6p"),
                       draw(3, "5s"), win(3, "5s")])
    (w,) = result["winners"]
    assert (w["seat"], w["win_by"], w["total"]) == (3, "self_draw", 23)
    assert {f["id"]: f["points"] * f["count"] for f in w["fans"]} == \
        {"pure_straight": 16, "fully_concealed_hand": 4, "all_chows": 2, "single_wait": 1}
    assert result["payments"] == [-31, -31, -31, 93]


def test_settlement_mcr_a_hand_under_eight_points_may_not_win():
    # win.minimum_points (mcr: 8 points before flowers). Seat 1 holds 2m3m4m 6p7p8p 3s4s5s 7s8s9s 5s and takes the
    # dealer's 5s: 234m 678p 345s 789s 5s5s, concealed: all_chows 2 + concealed_hand 2 (+ at most a wait point):
    # under 8, so the win is refused.
    hands = {0: "1s1s1s2s2s2s3s3s3s4s4s4s6p5s", 1: "2m3m4m6p7p8p3s4s5s7s8s9s5s"}
    r = replay_events(log("mcr", hands), [discard(0, "5s"), win(1, "5s")])
    assert (r.verdict, r.rule, r.line) == ("illegal", "win.minimum_points", 3)


def test_multiple_win_dealer_reading_seat_after_nearest_winner():
    # option multiple_win_dealer (点炮者最近的一个胡牌者下家为下盘庄家): the same double win as above, read as the
    # 下家 of the nearest winner: seat 1 is the nearest winner to the discarder (seat 0), so seat 2 deals next;
    # the payments do not change ([-8, 4, 0, 4], worked out above).
    h = log("shanghai-classic", TWO_KNOCKED, draws="3p2s4p4s",
            options={"multiple_win_dealer": "seat_after_nearest_winner"})
    result = ended(h, TWO_KNOCKED_PLAY + [win(1, "9s"), win(3, "9s")])
    assert result["payments"] == [-8, 4, 0, 4]
    assert result["next"]["dealer"] == 2


def test_claim_ranks_come_from_the_spec_priority():
    # procedure.claims / claim_priority: mcr "Win has priority over pung/kong, which have priority over chow";
    # classic's page names only 碰 over 吃 ("碰"比"吃"优先) and knocking's none: each spec ranks every claim
    # (win, pung_kong, chow; decisions classic-claim-priority and knocking-win-over-pung), and the table refuses
    # a priority that leaves a claim unranked rather than filling it in.
    import copy

    from checker.engine import load_ruleset
    from checker.spec.bind import bind
    from checker.spec.procedure import ProcedureError, claim_ranks

    assert claim_ranks(("win", "pung_kong", "chow")) == {"win": 3, "pung": 2, "kong": 2, "chow": 1}
    for rid in ("mcr", "shanghai-classic", "shanghai-knocking"):
        assert bind(load_ruleset(rid), {}).procedure.claim_ranks == {"win": 3, "pung": 2, "kong": 2, "chow": 1}
    rs = load_ruleset("shanghai-classic")
    procedure = copy.deepcopy(dict(rs.procedure))
    procedure["claims"] = {**procedure["claims"], "priority": ["pung", "chow"]}
    with pytest.raises(ProcedureError, match=r"does not rank win, kong"):
        bind(dataclasses.replace(rs, procedure=procedure), {}).procedure


def test_the_eight_flower_win_the_table_flags_is_read_from_the_spec_shape():
    # classic's shape eight_flowers (predicate declared_flowers, flag eight_flowers_win, 8 flowers, 八花齐): the
    # table flags a player holding that many flowers; the other rulesets have no such shape
    from checker.engine import load_ruleset
    from checker.spec.bind import bind

    assert bind(load_ruleset("shanghai-classic"), {}).procedure.declared_flowers == (("eight_flowers_win", 8),)
    assert bind(load_ruleset("mcr"), {}).procedure.declared_flowers == ()
    assert bind(load_ruleset("shanghai-knocking"), {}).procedure.declared_flowers == ()


# mcr: seat 1 (the dealer's next) holds 4p 6p and may chow the dealer's 5p; seat 2 holds 5p5p (ROB_MCR's seat 2).
#   seat 1: 4p6p 1s1s1s 2s2s2s 3s3s3s 6z7z
LATE_PUNG = {**ROB_MCR, 1: "4p6p1s1s1s2s2s2s3s3s3s6z7z"}


def test_claim_order_priority_refuses_a_pung_written_after_a_chow_mcr():
    # header claim_order priority (the default): claims are written in the order the priority resolves them, so
    # seat 2's pung after seat 1's chow of the same 5p is refused (procedure.claim_priority: pung over chow)
    illegal(log("mcr", LATE_PUNG), [discard(0, "5p"), chow(1, "4p5p6p"), pung(2)], "procedure.claim_priority")
    illegal(log("mcr", LATE_PUNG), [discard(0, "5p"), pung(2), win(3, "5p")], "procedure.claim_priority")


def test_claim_order_declared_lets_a_later_outranking_claim_take_the_tile_mcr():
    # header claim_order declared: claims are written as declared. Seat 2's pung, declared after seat 1's chow
    # and before seat 1 discards, outranks it: the chow is undone (seat 1 keeps 4p 6p) and seat 2 discards next;
    # seat 1 discarding now is out of turn. Seat 3's win (ROB_MCR's closed wait, Mixed straight: 8 points)
    # declared after seat 2's pung takes the 5p: it wins on the dealer's discard.
    h = log("mcr", LATE_PUNG, claim_order="declared")
    unfinished(h, [discard(0, "5p"), chow(1, "4p5p6p"), pung(2), discard(2, "1z")])
    illegal(h, [discard(0, "5p"), chow(1, "4p5p6p"), pung(2), discard(1, "1s")], "procedure.turn")
    (w,) = ended(h, [discard(0, "5p"), pung(2), win(3, "5p")])["winners"]
    assert (w["seat"], w["win_by"], w["discarder"]) == (3, "discard", 0)
    # a claim that does not outrank the one made is refused as before: a chow after a pung
    illegal(h, [discard(0, "5p"), pung(2), chow(1, "4p5p6p")], "procedure.claim_priority")


def test_claims_answers_tiles_are_put_in_canonical_form_like_any_event_tiles():
    # the wire form (checker.corpus.canonical) writes every tile field canonically, a claims event's answers too
    from checker.corpus.canonical import canonical_case, noncanonical_fields

    case = {"kind": "procedure", "input": {"wall": "1m", "events": [claims((1, "chow", "345m"))]}}
    assert noncanonical_fields(case) == ["/input/events/0/answers/0/tiles"]
    assert canonical_case(case)["input"]["events"][0]["answers"][0]["tiles"] == "3m4m5m"


# ---------------------------------------------------------------------------------------------- wall_model quarters

# option wall_model = quarters (MCR; decision mcr-wall-model): seat s is dealt, draws and replaces from tiles
# 36 s .. 36 s + 35 of the wall, in order. A wall of four quarters made by hand:
#   seat 0: 1m x4 .. 9m x4          seat 1: 1p x4 .. 9p x4
#   seat 2: 1s x4 .. 9s x4          seat 3: 1f..8f, then 1z x4 .. 7z x4
QUARTERS = ["".join(f"{r}{suit}" * 4 for r in range(1, 10)) for suit in "mps"] + \
    ["".join(f"{k}f" for k in range(1, 9)) + "".join(f"{r}z" * 4 for r in range(1, 8))]


def _quarter(seat):
    return [QUARTERS[seat][i:i + 2] for i in range(0, len(QUARTERS[seat]), 2)]


def test_wall_model_quarters_deals_draws_and_replaces_each_seat_from_its_own_quarter_mcr():
    # The deal: the dealer (seat 0) takes the first 14 of its quarter (1m x4 2m x4 3m x4 4m 4m), the others the first
    # 13 of theirs; seat 3's are its eight flowers and five honours, so at the deal it exposes the eight flowers,
    # each replaced by the next tile of its own quarter (2z 2z 2z 3z 3z 3z 3z 4z: quarter tiles 13..20). Then the
    # dealer discards 4m and seat 1 draws quarter tile 13 of its own, 4p; the single wall's next tile (wall tile 53:
    # seat 1's quarter tile 17, 5p) is refused.
    header = {"game": "mjcheck-table", "version": 1, "ruleset": "mcr", "wall": "".join(QUARTERS), "dealer": 0,
              "options": {"wall_model": "quarters"}}
    q3 = _quarter(3)
    flowers = [e for k in range(8) for e in (flower(3, q3[k]), draw(3, q3[13 + k], back=True))]
    assert [q3[13 + k] for k in range(8)] == ["2z", "2z", "2z", "3z", "3z", "3z", "3z", "4z"]
    opening = flowers + [discard(0, "4m")]
    unfinished(header, opening + [draw(1, "4p")])
    illegal(header, opening + [draw(1, "5p")], "procedure.turn")
    # a concealed kong's replacement comes from the konger's own quarter: the dealer's 1m kong draws its quarter
    # tile 14 (4m), not the single wall's back tile
    unfinished(header, flowers + [concealed_kong(0, "1m"), draw(0, "4m", back=True), discard(0, "4m")])
    # the header may give the wall as the four quarters themselves: the same table
    assert replay_events({**header, "wall": QUARTERS}, opening + [draw(1, "5p")]).rule == "procedure.turn"
    unfinished({**header, "wall": QUARTERS}, opening + [draw(1, "4p")])
    # four strings that are not four quarters (37 and 35 tiles) are bad input naming the sizes, not another deal
    uneven = [QUARTERS[0] + QUARTERS[1][:2], QUARTERS[1][2:], QUARTERS[2], QUARTERS[3]]
    bad = replay_events({**header, "wall": uneven}, opening)
    assert bad.verdict == "bad input" and "37, 35, 36, 36" in bad.message, bad.message


def _throw_what_is_drawn(q, nxt, rounds, last_seats):
    """Each seat in turn 1, 2, 3, 0 draws its quarter's next tile (`q`, `nxt`: the quarters and each seat's next
    place, moved on) and throws it, for `rounds` rounds, then `last_seats` once more: the events and the draws."""
    events, draws = [], 0
    for seats in [(1, 2, 3, 0)] * rounds + [last_seats]:
        for seat in seats:
            tile = q[seat][nxt[seat]]
            nxt[seat] += 1
            events += [draw(seat, tile), discard(seat, tile)]
            draws += 1
    return events, draws


def test_wall_model_quarters_the_hand_is_drawn_when_the_seat_to_draw_has_no_tile_mcr():
    # Tiles left to draw after the deal: seat 0 36 - 14 = 22, seats 1 and 2 36 - 13 = 23 each, seat 3 36 - 13 - 8
    # (its flowers' replacements) = 15. Every seat throws what it draws, in turn 1, 2, 3, 0: after 15 rounds seat 3
    # has none; in round 16 seats 1 and 2 draw and throw, and seat 3, to draw next, has no tile: the hand is drawn
    # there (62 turn draws in all), and a draw by seat 3 is refused.
    header = {"game": "mjcheck-table", "version": 1, "ruleset": "mcr", "wall": "".join(QUARTERS), "dealer": 0,
              "options": {"wall_model": "quarters"}}
    q = [_quarter(s) for s in range(4)]
    events = [e for k in range(8) for e in (flower(3, q[3][k]), draw(3, q[3][13 + k], back=True))]
    events.append(discard(0, "4m"))
    nxt = {0: 14, 1: 13, 2: 13, 3: 21}
    thrown, draws = _throw_what_is_drawn(q, nxt, 15, (1, 2))
    events += thrown
    assert draws == 62 and nxt[3] == 36
    result = ended(header, events + [draw_game()])
    assert result["ended"] == "draw"
    illegal(header, events + [draw(3)], "procedure.wall_end")
    # under the single wall (the default) the same log is not a drawn hand: seat 1's first draw is another tile
    single = {**header, "options": {}}
    assert replay_events(single, events + [draw_game()]).verdict == "illegal"


# ------------------------------------------------------------------------------------- flower_tiles_in_wall false

# option flower_tiles_in_wall = false (MCR; decision mcr-flower-tiles-in-wall): the wall is the 136 suit and honour
# tiles, no flower in it; under wall_model quarters each seat's quarter is 34 tiles. A wall made by hand:
#   seat 0: 1m x4 .. 8m x4, 9m 9m       seat 1: 9m 9m, 1p x4 .. 8p x4
#   seat 2: 9p x4, 1s x4 .. 7s x4, 8s 8s seat 3: 8s 8s, 9s x4, 1z x4 .. 7z x4
NO_FLOWERS = "".join(f"{r}{suit}" * 4 for suit in "mpsz" for r in range(1, 10 if suit != "z" else 8))
NO_FLOWER_QUARTERS = [NO_FLOWERS[68 * s:68 * (s + 1)] for s in range(4)]


def test_flower_tiles_in_wall_false_plays_the_136_tiles_in_quarters_of_34_mcr():
    # Tiles left to draw after the deal: seat 0 34 - 14 = 20, seats 1-3 34 - 13 = 21 each; no seat exposes a
    # flower (there is none). Every seat throws what it draws, in turn 1, 2, 3, 0: after 20 rounds seat 0 has none;
    # in round 21 seats 1, 2 and 3 draw and throw, and seat 0, to draw next, has no tile: the hand is drawn there
    # (83 turn draws in all), and a draw by seat 0 is refused.
    header = {"game": "mjcheck-table", "version": 1, "ruleset": "mcr", "wall": NO_FLOWER_QUARTERS, "dealer": 0,
              "options": {"wall_model": "quarters", "flower_tiles_in_wall": False}}
    assert [len(q) // 2 for q in NO_FLOWER_QUARTERS] == [34] * 4
    q = [[NO_FLOWER_QUARTERS[s][i:i + 2] for i in range(0, 68, 2)] for s in range(4)]
    # the dealer's 14 are 1m x4 2m x4 3m x4 4m 4m: it discards a 4m
    events = [discard(0, "4m")]
    nxt = {0: 14, 1: 13, 2: 13, 3: 13}
    thrown, draws = _throw_what_is_drawn(q, nxt, 20, (1, 2, 3))
    events += thrown
    assert draws == 83 and nxt[0] == 34
    assert ended(header, events + [draw_game()])["ended"] == "draw"
    illegal(header, events + [draw(0)], "procedure.wall_end")
    # the same wall under the default reading (flowers in the wall) is not the game's tiles: bad input
    bad = replay_events({**header, "options": {"wall_model": "quarters"}}, events)
    assert bad.verdict == "bad input" and "144 tiles" in bad.message, bad.message
