"""Recorded matches of other programs, turned into game logs (checker.table's format) and back.

Each format is a module with `read(data) -> Imported` (a match log parsed from its JSON) and `write(header,
events, result) -> dict` (a game log as that format records a match); FORMATS names them for
`mjcheck game import --from NAME` and `mjcheck game export --to NAME`. A format that cannot say something a log
says, or a match the table cannot play, is refused with MatchLogError naming what and where.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class MatchLogError(ValueError):
    """A match log that is not of its format, or a match the table's models cannot play (bad input)."""


@dataclass
class Imported:
    """A match as a game log: its header and events, and what the recording program said the hand came to (its
    payments by seat, and its own words for anything else: fans, a penalty), to set beside the rules' answer."""

    header: dict[str, Any]
    events: list[dict[str, Any]]
    recorded_payments: list[int] | None = None
    recorded: dict[str, Any] = field(default_factory=dict)
    ended_by_penalty: str | None = None  # the program's verdict on a response it refused (its own code and seat)


def formats() -> dict[str, Any]:
    """The known formats by name (their modules)."""
    from checker.matchlog import botzone

    return {"botzone": botzone}
