"""Each claim of the settlement model made in a process of its own (checker.hunt.apart, 40 item 1)."""
from __future__ import annotations

import json
import math
import subprocess
import sys

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt import proofs
from checker.hunt.apart import PROCESS_FAILED, made_apart

RULESET = "shanghai-knocking"

_ALONE = """
import json, sys
from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt import proofs
from checker.hunt.examine import hand_pool
from checker.hunt.examples import known_hands
ruleset = load_ruleset(sys.argv[1])
task = [t for group in proofs.plan(CaseRunner(), ruleset) for t in group][int(sys.argv[2])]
claim = proofs.prove(CaseRunner(), ruleset, task, 1, float("inf"), hand_pool(ruleset, known_hands(ruleset)))
print(json.dumps(claim.as_dict(), sort_keys=True, ensure_ascii=False))
"""


def _tasks() -> list[proofs.Task]:
    return [t for group in proofs.plan(CaseRunner(), load_ruleset(RULESET)) for t in group]


def test_a_claim_made_apart_answers_as_it_does_alone_in_a_fresh_interpreter():
    """The first, a middle and the last claim of the knocking plan, made after one another by the pool, each give
    the very answer (result, witness, what the engine searched) they give made alone by a new Python process;
    the pool's processes start from the same state as a fresh interpreter, whatever ran before."""
    tasks = _tasks()
    picked = [0, len(tasks) // 2, len(tasks) - 1]
    apart = made_apart(RULESET, [[tasks[i]] for i in picked], 1, math.inf)
    for i, claim in zip(picked, apart):
        alone = subprocess.run([sys.executable, "-c", _ALONE, RULESET, str(i)], capture_output=True, text=True,
                               timeout=600, check=True)
        # all but the share of the solver's bound used, a count Z3 does not keep the same from run to run
        told, made = json.loads(alone.stdout), json.loads(json.dumps(claim.as_dict(), sort_keys=True,
                                                                      ensure_ascii=False))
        assert 0 <= told.pop("bound_used") <= 1 and 0 <= made.pop("bound_used") <= 1
        assert told == made


def test_a_claim_whose_process_fails_is_not_run_and_the_others_are_made():
    """A task the prover cannot make (an interaction with no pair) fails in its process: that claim is listed as
    not run with the error; the zero-sum claim beside it is made (the knocking payments sum to zero: proved)."""
    zero_sum = _tasks()[0]
    broken = proofs.Task("interaction.x&y", "x and y do not interact", (), "interaction")
    made = made_apart(RULESET, [[zero_sum], [broken]], 1, math.inf)
    assert [(c.key, c.result) for c in made] == [("zero-sum", "proved"), ("interaction.x&y", "not-run")]
    assert made[1].why.startswith(f"{PROCESS_FAILED}: AssertionError")


def test_claims_past_the_deadline_are_not_run_in_their_processes_and_say_so():
    made = made_apart(RULESET, [_tasks()[:2]], 1, -math.inf)
    assert [c.result for c in made] == ["not-run"]  # the two grouped: the same result, the same reason
    assert made[0].why == "the budget ran out before it"


def test_a_decided_claim_records_the_share_of_its_bound_it_used():
    """The knocking payments sum to zero: proved, by a search that used some of its resource bound and not more
    than all of it (the share is Z3's count over the bound, which differs a little between runs)."""
    claim = proofs.prove(CaseRunner(), load_ruleset(RULESET), _tasks()[0])
    assert claim.result == "proved"
    assert 0 < claim.bound_used <= 1
