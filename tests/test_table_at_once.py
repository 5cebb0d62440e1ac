"""Claims answered at once (checker.table.mutate.claims_at_once): a claim of a discard in a legal hand of play
written as a `claims` event beside another seat's claim of the same tile, the probes that tell a claim priority
read otherwise (checker.diagnose.probes.claimed_at_once)."""
from __future__ import annotations

from checker.diagnose.probes import played_hands
from checker.engine import load_ruleset
from checker.table.log import GAME, VERSION, replay_events
from checker.table.mutate import at_once

RULESET = "shanghai-knocking"


def _header(data):
    return {"game": GAME, "version": VERSION, "ruleset": RULESET, "wall": data["wall"], "dealer": data["dealer"]}


def test_a_pung_answered_at_once_with_a_chow_plays_as_the_pung_alone():
    """Knocking ranks a pung above a chow (win > pung/kong > chow): where a seat's pung of a discard is answered
    together with the next seat's chow of it, the table makes the pung, and the hand plays out as it did with the
    pung written alone: the same verdict and result."""
    compared = 0
    for data in played_hands(load_ruleset(RULESET), 40):
        header = _header(data)
        original = replay_events(header, data["events"]).as_dict()
        for events in at_once(header, list(data["events"]), 20):
            at = next(i for i, e in enumerate(events) if e.get("event") == "claims")
            made, other = events[at]["answers"]
            assert made == {k: v for k, v in {"seat": data["events"][at]["seat"], "claim": data["events"][at]["event"],
                                              "tiles": data["events"][at].get("tiles")}.items() if v is not None}
            assert other["seat"] not in (made["seat"], events[at - 1]["seat"])  # another seat, not the discarder
            if made["claim"] == "pung" and other["claim"] == "chow":
                again = replay_events(header, events).as_dict()
                assert (again["verdict"], again.get("result")) == (original["verdict"], original.get("result"))
                compared += 1
    assert compared > 0
