"""A template engine for `mjcheck conform`, speaking the JSON-lines protocol of DESIGN.md.

    mjcheck conform --corpus corpus/mcr-examples.jsonl --engine 'cmd:"python examples/engine.py"' --out out/

It reads one JSON object per line on stdin and writes one per line on stdout. It does not score: every
hand is answered "valid, 0 points", so the report lists what a real engine must get right. Replace
`score` with your engine (in any language: only the lines in and out matter).
"""
import json
import sys


def score(case):
    """Your engine goes here: a case in, a result in the case format's `expect` shape out."""
    return {"valid": True, "total": 0, "fans": [], "payments": [0, 0, 0, 0]}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":  # say who you are and what you run
            reply = {"name": "example engine", "version": "0.1",
                     "rulesets": ["mcr", "shanghai-knocking", "shanghai-classic"], "kinds": ["score"]}
        elif message["cmd"] == "run":  # echo the id when there is one: answers may then come in any order
            try:
                reply = {"result": score(message["case"])}
            except Exception as exc:  # one case the engine cannot run; it goes on with the next
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            if "id" in message:
                reply["id"] = message["id"]
        else:  # stop
            return
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
