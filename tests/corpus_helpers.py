"""Corpus helpers shared by the strength tests: shipped cases by id, and a corpus file written from cases."""
from __future__ import annotations

import json
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def cases_in(corpus: str, *ids: str) -> list[dict]:
    """The cases of corpus/CORPUS.jsonl with these ids, in the order given."""
    by_id = {}
    for line in (CORPUS / f"{corpus}.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        by_id[case["id"]] = case
    return [by_id[i] for i in ids]


def write_corpus(path: Path, cases: list[dict]) -> Path:
    path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return path
