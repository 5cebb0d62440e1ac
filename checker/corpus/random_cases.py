"""Plain random corpora (`mjcheck corpus random`): N seeded cases of one ruleset with the reference's answers, for
an engine author who wants "2,000 random hands and what the rules say of each" rather than a corpus aimed at
coverage (`checker.corpus.generate`).

Score cases: a random winning hand (`checker.random_hands.winning_hand` under one of the candidate themes, in
turn, or the one asked for), given the context its ruleset knows (every way of winning, the discarder, winds,
flags, counters, flowers: `checker.mutate.candidates.context_for`); in a stated share of cases one option read
otherwise (one of its other readings, the rest at their defaults); in another stated share one thing of the
input broken (`checker.corpus.invalid`: a tile too few, a fifth copy, a flag without its context, a counter out
of range …), so the expectation is a refusal. Procedure cases: hands played by the bots on seeded walls
(`checker.corpus.procedure.played_case`), and in the invalid share one single change to such a hand that the
rules refuse (`checker.table.mutate`), cut right after it.

Every expectation is the reference engine's answer, computed as `mjcheck score --batch` computes it. Each case
draws from a generator seeded by (ruleset, seed, its index), so a case is the same whatever the count and the
same seed always gives the same file.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from checker.case import CaseRunner
from checker.corpus.invalid import mutations
from checker.mutate.candidates import DRAGONS, THEMES, context_for, themed_pick
from checker.random_hands import winning_hand
from checker.spec import Ruleset, load_ruleset, options_text

KINDS = ("score", "procedure")
INVALID_SHARE = 0.1  # cases with one thing of the input broken (score) or one illegal event (procedure)
OPTIONS_SHARE = 0.25  # score cases with one option read otherwise
CHANGES_TRIED = 400  # changed logs replayed to find an illegal event in one played hand
THEME_NAMES = tuple(t.name for t in THEMES)


class RandomCorpusError(ValueError):
    """A request for a random corpus that cannot be met (an unknown theme, a share out of range)."""


@dataclass(frozen=True)
class Mix:
    """What a random corpus holds besides plain winning hands: the share of invalid cases, of score cases with one
    option read otherwise, and the one theme every hand is drawn under (None: the themes in turn)."""

    invalid: float = INVALID_SHARE
    options: float = OPTIONS_SHARE
    theme: str | None = None

    def __post_init__(self) -> None:
        for name, share in (("invalid", self.invalid), ("options", self.options)):
            if not 0.0 <= share <= 1.0:
                raise RandomCorpusError(f"the {name} share {share} is not between 0 and 1")
        if self.theme is not None and self.theme not in THEME_NAMES:
            raise RandomCorpusError(f"unknown theme {self.theme!r}; the themes: {', '.join(THEME_NAMES)}")

    def words(self) -> str:
        theme = f"every hand under the theme {self.theme}" if self.theme else "the hand themes in turn"
        return (f"{self.invalid:.0%} invalid (one thing of the input broken, or one illegal event), "
                f"{self.options:.0%} of score cases with one option read otherwise, {theme}")


def random_cases(ruleset_id: str, count: int, seed: int, kind: str = "score", mix: Mix = Mix(),
                 progress: Callable[[int, int], None] | None = None,
                 options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """`count` random cases of `kind` with the reference's expectations, in order (see the module); every case
    read under `options` when given (e.g. `wall_model=quarters` for a game judge with a wall part per seat)."""
    if kind not in KINDS:
        raise RandomCorpusError(f"unknown kind {kind!r}: {' or '.join(KINDS)}")
    ruleset = load_ruleset(ruleset_id)
    base = read_options(ruleset, options or {})
    runner = CaseRunner()
    make = _score_case if kind == "score" else _procedure_case
    report = progress or (lambda done, total: None)
    for i in range(count):
        report(i, count)
        yield make(runner, ruleset, seed, i, mix, base)
    report(count, count)


def read_options(ruleset: Ruleset, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options every case is read under, each value as the ruleset takes it (`"false"` -> false);
    RandomCorpusError naming an option the ruleset lacks or a value it does not offer."""
    try:
        resolved = ruleset.resolve_options(options)
    except ValueError as exc:
        raise RandomCorpusError(str(exc)) from None
    return {key: resolved[key] for key in options}


def _rng(ruleset: Ruleset, seed: int, i: int, kind: str) -> random.Random:
    return random.Random(f"{ruleset.id}:{kind}:{seed}:{i}")


def _score_case(runner: CaseRunner, ruleset: Ruleset, seed: int, i: int, mix: Mix,
                base: Mapping[str, Any]) -> dict[str, Any]:
    rng = _rng(ruleset, seed, i, "score")
    theme = next(t for t in THEMES if t.name == mix.theme) if mix.theme else THEMES[i % len(THEMES)]
    avoid = frozenset(DRAGONS) if ruleset.dragons_as_flowers else frozenset()
    while True:  # dragons set aside as flowers are never part of a hand
        hand = winning_hand(themed_pick(rng, theme, avoid), ruleset.table_context)
        if not any(t in avoid for t in hand.all_tiles):
            break
    data = context_for(ruleset, hand, rng)
    options: dict[str, Any] = dict(base)
    readable = {oid: o for oid, o in ruleset.scoring_options().items() if o.other_values() and oid not in base}
    if readable and rng.random() < mix.options:
        oid = rng.choice(sorted(readable))
        options[oid] = rng.choice(list(readable[oid].other_values()))
    origin = f"random, seed {seed}: a {theme.name} hand"
    case = {"id": f"{ruleset.id}-random-{seed}-{i}", "ruleset": ruleset.id, "options": options, "kind": "score",
            "input": data}
    expect = runner.run(case)
    if rng.random() < mix.invalid:  # one change the rules refuse, the first in a shuffled order (some are allowed)
        changes = list(mutations(data, ruleset))
        rng.shuffle(changes)
        for what, changed in changes:
            refused = runner.run({**case, "input": changed})
            if refused.get("valid") is False:
                case, expect = {**case, "input": changed}, refused
                origin += f", broken: {what}"
                break
    if options:
        origin += f", read with {options_text(options)}"
    return {**case, "expect": {k: v for k, v in expect.items() if k != "message"}, "origin": origin}  # (a case
    # expects a refusal by its rule; the reference's words for it are no field of a case)


def _procedure_case(runner: CaseRunner, ruleset: Ruleset, seed: int, i: int, mix: Mix,
                    base: Mapping[str, Any]) -> dict[str, Any]:
    from checker.corpus.procedure import played_case, procedure_rules
    from checker.table.mutate import witnesses

    rng = _rng(ruleset, seed, i, "procedure")
    played = played_case(ruleset.id, rng.randrange(1 << 40), rng.randrange(1 << 16), base)
    case: dict[str, Any] = {"id": f"{ruleset.id}-random-play-{seed}-{i}", "ruleset": ruleset.id, "kind": "procedure",
                            **({"options": dict(base)} if base else {})}
    read = f", read with {options_text(base)}" if base else ""
    if rng.random() < mix.invalid:
        found = witnesses(played.header, played.events, procedure_rules(ruleset.id), CHANGES_TRIED)
        if found:
            rule = rng.choice(sorted(found))
            w = found[rule]
            return {**case, "input": {**played.deal, "events": w["events"]},
                    "expect": {"verdict": "illegal", "rule": rule, "event": w["event"]},
                    "origin": f"random, seed {seed}: a hand played by bots ({played.seats}){read}, then "
                              f"{w['change']}"}
    return {**case, "input": {**played.deal, "events": played.events}, "expect": played.expect,
            "origin": f"random, seed {seed}: a hand played by bots ({played.seats}){read}"}


NAME_PREFIX = "random:"
NAME_FORM = "random:RULESET:COUNT:SEED[:procedure]"


def parse_name(value: str) -> tuple[str, int, int, str]:
    """(ruleset, count, seed, kind) of a random corpus's name, `random:mcr:2000:7` or
    `random:mcr:50:7:procedure`; RandomCorpusError naming the form for anything else."""
    parts = value[len(NAME_PREFIX):].split(":")
    kind = parts.pop() if len(parts) == 4 else "score"
    if len(parts) != 3 or kind not in KINDS or not parts[1].isdigit() or not parts[2].lstrip("-").isdigit():
        raise RandomCorpusError(f"{value!r} is not a random corpus's name: {NAME_FORM} (e.g. random:mcr:2000:7)")
    count = int(parts[1])
    if count > 10_000_000:
        raise RandomCorpusError(f"{value!r}: at most 10,000,000 cases")
    return parts[0], count, int(parts[2]), kind


def _digest(ruleset_id: str) -> str:
    """What a random corpus's answers rest on: the reference's code and the ruleset's file."""
    import hashlib
    from pathlib import Path

    from checker.spec import ruleset_files

    digest = hashlib.sha256()
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(ruleset_files()[ruleset_id].read_bytes())
    return digest.hexdigest()[:16]


def random_corpus_file(value: str) -> str:
    """The file holding the random corpus a name gives (see `parse_name`), made on first use in the cache folder
    (MJCHECK_CACHE, else ~/.cache/mjcheck) under a name that also holds what its answers rest on, so a changed
    reference or ruleset makes it again. A cached file is used only when it is a regular file (not a link) whose
    SHA-256 is the one written beside it when it was made (FILE.sha256): anything else is made again.
    RandomCorpusError for a bad name or an unknown ruleset."""
    import os
    from pathlib import Path

    from checker.files import file_sha256 as digest_of
    from checker.inputs import json_text
    from checker.spec import available_rulesets

    ruleset_id, count, seed, kind = parse_name(value)
    if ruleset_id not in available_rulesets():
        raise RandomCorpusError(f"{value!r}: unknown ruleset {ruleset_id!r}; known: {', '.join(available_rulesets())}")
    folder = Path(os.environ.get("MJCHECK_CACHE") or Path.home() / ".cache" / "mjcheck") / "random"
    path = folder / f"{ruleset_id}-{kind}-{count}-{seed}-{_digest(ruleset_id)}.jsonl"
    sealed = path.with_name(path.name + ".sha256")

    try:
        if path.is_file() and not path.is_symlink() and sealed.is_file() and not sealed.is_symlink() \
                and sealed.read_text(encoding="ascii").strip() == digest_of(path):
            return str(path)
    except (OSError, UnicodeDecodeError):
        pass  # not the tool's own, or not whole: made again below
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        with open(partial, "w", encoding="utf-8") as stream:
            for case in random_cases(ruleset_id, count, seed, kind):
                stream.write(json_text(case) + "\n")
        seal = sealed.with_name(f"{sealed.name}.{os.getpid()}.partial")
        seal.write_text(digest_of(partial) + "\n", encoding="ascii")
        for made, final in ((partial, path), (seal, sealed)):
            if final.is_symlink():
                final.unlink()
            os.replace(made, final)
    except OSError as exc:
        raise RandomCorpusError(f"{value!r}: cannot write the random corpus in {folder}: {exc.strerror or exc}")
    return str(path)
