"""The run the unseen-engine tests share: an engine nobody here wrote (reports/unseen-*/), through the engine
protocol on a ruleset's shipped corpus and 2,000 seeded random hands, diagnosed; and the causes it names."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from checker.cli import app
from checker.corpus.random_cases import Mix, random_cases

ROOT = Path(__file__).resolve().parent.parent


def engine_of(folder: str, script: str) -> str:
    return f'cmd:"{sys.executable} {ROOT / "reports" / folder / script}"'


def unseen_run(folder: Path, ruleset_id: str, engine: str, kind: str = "score", count: int = 2000,
               effort: int = 1) -> dict[str, Any]:
    """The summary of `mjcheck conform` of `engine` on the shipped corpus of `ruleset_id` (its hands of play for
    `kind` procedure) and `count` random cases of the kind (seed 5, no option set), which must fail (the engine
    departs); diagnosed at `effort`."""
    name = f"{ruleset_id}-procedure" if kind == "procedure" else ruleset_id
    shipped = (ROOT / "corpus" / f"{name}.jsonl").read_text(encoding="utf-8")
    randoms = "".join(json.dumps(c) + "\n" for c in random_cases(ruleset_id, count, 5, kind=kind,
                                                                 mix=Mix(options=0.0)))
    corpus = folder / "cases.jsonl"
    corpus.write_text(shipped + randoms, encoding="utf-8")
    result = CliRunner().invoke(app, ["conform", "--corpus", str(corpus), "--engine", engine,
                                      "--out", str(folder / "run"), "--effort", str(effort)])
    assert result.exit_code == 1, result.output  # the engine departs: failures, each class diagnosed
    return json.loads((folder / "run" / "summary.json").read_text(encoding="utf-8"))


UNDECIDED = "as neither predicts"  # the words of a rival whose probes the engine answered as neither predicts


def named_causes(run: dict[str, Any]) -> set[str]:
    """Every departure a run names: each part of a combination, and every rival named beside a cause but those the
    run says it could not tell apart because the engine answered their probes as neither predicts (a true "I
    could not tell", no claim)."""
    named: set[str] = set()
    for e in (e for c in run["classes"] for e in c["cause"].get("explained_by") or []):  # (a class not searched:
        # none)
        named.update(e["id"].split(" + "))
        named.update(part for r in e.get("or_equally") or [] if UNDECIDED not in r["words"]
                     for part in r["id"].split(" + "))
    return named

