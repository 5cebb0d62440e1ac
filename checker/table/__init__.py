"""The table procedure: a hand of play as a state machine driven by a ruleset's `procedure:` section, game logs,
their validation, and hands simulated by bots. Hands are scored through checker.engine only."""
from checker.table.events import Event, LogError, Violation, parse_event
from checker.table.log import Replay, new_table, replay, replay_events
from checker.spec.procedure import TableRules
from checker.table.settle import hand_result
from checker.table.state import Table, step

__all__ = ["Event", "LogError", "Violation", "parse_event", "Replay", "new_table", "replay", "replay_events",
           "TableRules", "hand_result", "Table", "step"]
