"""An engine behind the JSON-lines protocol that misbehaves in one way, named by its argument, on the cases
`is_bad` picks (about a third, the same ones however often it is restarted; the others get their case's
`expect` back, so a run that hides the misbehaviour would pass).
tests/test_integrity.py runs the whole suite of them: whatever an engine writes, every case of the corpus must
end in exactly one outcome, the counts must add up, and the run must not pass.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

def send(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def answer(number, result) -> bytes:
    return json.dumps({"id": number, "result": result}).encode() + b"\n"


def nested(depth: int) -> dict:
    value: object = 0
    for _ in range(depth):
        value = [value]
    return {"valid": True, "total": value}


def is_bad(case_id: str) -> bool:
    return sum(map(ord, case_id)) % 3 == 0


def main(MODE: str) -> None:
    held = []  # out_of_order: an answer kept back to be sent after the next one
    for raw in sys.stdin.buffer:
        message = json.loads(raw)
        if message["cmd"] == "start":
            if MODE == "start_deep":
                send(b"[" * 1000 + b"]" * 1000 + b"\n")
                continue
            send(json.dumps({"name": f"adversarial {MODE}", "version": "1", "rulesets": ["mcr"],
                             "kinds": ["score"]}).encode() + b"\n")
            continue
        if message["cmd"] == "stop":
            break
        number, expect = message["id"], message["case"]["expect"]
        bad = is_bad(message["case"]["id"])
        if not bad:
            if MODE == "out_of_order":  # without ids, each answer after the next: every answer lands on another case
                held.append(json.dumps({"result": expect}).encode() + b"\n")
                if len(held) == 2:
                    send(held[1] + held[0])
                    held.clear()
                continue
            send(answer(number, expect))
            continue
        if MODE == "deep":
            send(answer(number, nested(29)))  # the answer line nests 31 levels: within the limit
        elif MODE == "deeper":
            send(answer(number, nested(1000)))
        elif MODE == "huge":
            send(answer(number, {"valid": True, "total": 1, "note": "x" * (2 * 1024 * 1024)}))
        elif MODE == "many_values":
            send(answer(number, {"valid": True, "fans": [0] * 200_000}))
        elif MODE == "duplicate":
            send(answer(number, expect) + answer(number, {"valid": False, "error": "second thoughts"}))
        elif MODE == "out_of_order":
            held.append(json.dumps({"result": expect}).encode() + b"\n")
            if len(held) == 2:
                send(held[1] + held[0])
                held.clear()
        elif MODE == "wrong_id":
            send(answer(number + 1000, expect))
        elif MODE == "non_utf8":
            send(b'{"id": %d, "result": {"valid": true, "total": "\xff\xfe"}}\n' % number)
        elif MODE == "surrogate":
            send(b'{"id": %d, "result": {"valid": true, "total": 8, "fans": [{"id": "\\ud800", "points": 8, '
                 b'"count": 1}]}}\n' % number)
        elif MODE == "nan":
            send(b'{"id": %d, "result": {"valid": true, "total": NaN}}\n' % number)
        elif MODE == "partial_line":
            send(b'{"id": %d, "result": {"valid": tr' % number)
            os._exit(0)
        elif MODE == "silent":
            continue
        elif MODE == "forking":  # a child holds the output open, then the engine falls silent
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            time.sleep(60)
        elif MODE == "crashing_behind_a_child":  # a child holds the output open, then the engine crashes
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            sys.exit(5)
        elif MODE == "exiting":
            sys.exit(3)
        elif MODE == "signal_killed":
            os.kill(os.getpid(), signal.SIGKILL)
        elif MODE == "slow":
            time.sleep(1.5)
            send(answer(number, expect))
        elif MODE == "not_an_object":
            send(answer(number, [1, 2, 3]))
        elif MODE == "null_result":
            send(answer(number, None))


if __name__ == "__main__":
    main(sys.argv[1])
