"""`mjcheck`: the command line.

Exit status: 0 success; 1 a result the user asked about is negative (the hand may not win, a case does not
match its expectation); 2 bad input (a tile, meld, flag, option, file or spec the tool cannot accept).
"""
from __future__ import annotations

import typer

from checker.commands.common import fail
from checker.commands.conform import conform, diff_runs, report, reproduce_cases
from checker.commands.corpus import corpus_app
from checker.commands.score import score
from checker.commands.spec import rulesets, spec_app
from checker.hunt.commands import hunt_command
from checker.matchlog.commands import export_command, import_command
from checker.spec import SpecError, ruleset_files
from checker.sweep.commands import sweep_command
from checker.table.commands import game_app

app = typer.Typer(
    help="mjcheck: mahjong rules as executable specifications.\n\n"
         "Score hands under a ruleset (score), play and check hands of play (game), hunt the specs for "
         "ambiguities and collisions (hunt), check every hand of a space against another engine on Dask (sweep), check spec files (spec), generate test corpora (corpus) and hold "
         "engines to them (conform, report).",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)
app.command("rulesets")(rulesets)
app.add_typer(spec_app, name="spec")
app.add_typer(corpus_app, name="corpus")
app.command("score")(score)
game_app.command("import")(import_command)
game_app.command("export")(export_command)
app.add_typer(game_app, name="game")
app.command("hunt")(hunt_command)
app.command("sweep")(sweep_command)
app.command("conform")(conform)
app.command("report")(report)
app.command("diff")(diff_runs)
app.command("reproduce")(reproduce_cases)


@app.callback()
def _rulesets_of_ones_own() -> None:
    """Before any command: the folders MJCHECK_SPEC_PATH names (rulesets of one's own, by id) can be read."""
    try:
        ruleset_files()
    except SpecError as exc:
        fail(str(exc))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
