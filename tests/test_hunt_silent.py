"""Silent readings found in the spec's own comments (checker.hunt.silent), beside the authors' decisions list."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from checker.hunt.decisions import decision_findings
from checker.hunt.silent import comment_findings, reading_comments
from checker.spec import load_ruleset

SPEC = """\
id: variant
options:
  # a comment that reads nothing
  fig_value:
    values: [10, 5]
procedure:
  # 补花 at the deal: the page does not say when; read as the deal's end.
  flower_exposure: {at_deal: true}
  dealer: {winner_deals: true}  # Reading: the winner deals next
  knock:
    # silent on a lock: read as none
    locks_hand: false
decisions:
  # Points the document leaves open, read as listed below
  - id: knock-lock
    by: ["procedure.knock"]
"""


def _ruleset(tmp_path: Path, by: tuple[str, ...] = ("procedure.knock",)) -> SimpleNamespace:
    path = tmp_path / "variant.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return SimpleNamespace(id="variant", path=str(path), decisions=[SimpleNamespace(by=by)])


def test_each_reading_comment_is_placed_at_the_key_it_describes(tmp_path):
    found = reading_comments(Path(_ruleset(tmp_path).path))
    assert [(c.place, c.line) for c in found] == [
        ("procedure.flower_exposure", 7),  # a comment line describes the key below it
        ("procedure.dealer", 9),           # a comment after a value, its own line's key
        ("procedure.knock", 11),           # within an entry: the entry's place
        ("decisions.knock-lock", 14),
    ]


def test_a_comment_where_a_listed_decision_names_the_place_is_not_found_again(tmp_path):
    keys = [f.key for f in comment_findings(_ruleset(tmp_path))]
    assert keys == ["decided.comment.procedure.flower_exposure", "decided.comment.procedure.dealer"]
    keys = [f.key for f in comment_findings(_ruleset(tmp_path, by=()))]
    assert "decided.comment.procedure.knock" in keys and "decided.comment.decisions" not in keys


def test_the_shipped_specs_readings_in_comments_are_found_and_said_to_be_found():
    knocking = load_ruleset("shanghai-knocking")
    found = {f.key: f for f in comment_findings(knocking)}
    swap = found["decided.comment.procedure.swap_calling"]
    line = int(swap.note.split("(line ")[1].split(")")[0])
    text = Path(knocking.path).read_text(encoding="utf-8").splitlines()[line - 1]
    assert "# Reading:" in text and "Found by the hunter in a comment of shanghai-knocking.yaml" in swap.note
    assert all(f.note.startswith("From the spec authors' decisions list") for f in decision_findings(knocking))
