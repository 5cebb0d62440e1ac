"""mjcheck's reference engine behind the JSON-lines protocol, for `mjcheck conform --engine 'cmd:"…"'`.

    mjcheck conform --corpus corpus/mcr.jsonl --engine 'cmd:"python examples/reference_engine.py"' --out out/

The same engine `--engine reference` runs in process (checker.case.CaseRunner), here in a subprocess: it
measures the protocol's cost (benchmarks/conform.py) and is a second worked example of the protocol. It
does not check the case schema again: conform sends only cases that passed it. A case it cannot run
(unknown ruleset or option, a kind it does not score, a case it cannot read) is answered {"error": …}.
"""
import json
import sys

from checker.case import CaseError, CaseRunner
from checker.spec import available_rulesets


def main() -> None:
    runner = CaseRunner()
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            reply = {"name": "mjcheck reference engine (subprocess)", "version": "0.1",
                     "rulesets": sorted(available_rulesets()), "kinds": ["score"]}
        elif message["cmd"] == "run":
            try:
                reply = {"result": runner.run(message["case"])}
            except CaseError as exc:
                reply = {"error": f"{exc} [{exc.rule}]"}
            except (KeyError, TypeError, AttributeError, ValueError) as exc:
                reply = {"error": f"cannot read this case: {type(exc).__name__}: {exc}"}
            if "id" in message:
                reply["id"] = message["id"]
        else:
            return
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
