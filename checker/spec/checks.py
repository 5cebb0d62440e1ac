"""What a spec must hold beyond its schema: references to options, patterns, predicates, flags and counters;
typed parameters; exclusion cycles and order."""
from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import jsonschema

from checker import params
from checker import tiles as T
from checker.inputs import excerpt
from checker.spec.build import defined_rules
from checker.spec.files import schema
from checker.spec.model import WITH_CONTRACT, value_key

def _schema_reason(err: jsonschema.ValidationError) -> str:
    fixed = _fixed_field(err)
    if fixed is not None:  # a field whose only value is the one the engine plays (the schema's x-fixed)
        only = f"takes only {_shown(fixed['const'])}" if "const" in fixed else "takes no other value"
        return f"{only}, not {_shown(err.instance)}: {fixed['x-fixed']}"
    if err.validator == "oneOf" and err.context:
        best = jsonschema.exceptions.best_match(err.context)
        return best.message
    return err.message


def _fixed_field(err: jsonschema.ValidationError) -> Mapping[str, Any] | None:
    """The schema of the field a schema error is about when that field is fixed (`x-fixed`: the engine plays one
    value of it and the schema admits no other), else None. Found along the error's path through the schema."""
    root = schema("ruleset")
    node: Any = root
    found = None
    for part in err.absolute_schema_path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return found
        if part == "$ref" and isinstance(node, str) and node.startswith("#/"):
            target: Any = root
            for step in node[2:].split("/"):
                target = target[step]
            node = target
        if isinstance(node, Mapping) and "x-fixed" in node:
            found = node
    return found


# the settlement contract's terms and the table_context facts that play the same role
CONTRACT_ROLES = (("partner_counter", "contract_partner"), ("mutual_flag", "contract_mutual"),
                  ("ready_flag", "discarder_ready"), ("double_win_flag", "contract_partner_also_won"))


def _check_references(data: dict, predicates: Mapping[str, Any] | None, issue, warn) -> None:
    options: dict = data.get("options", {})
    pattern_ids = [p["id"] for p in data["patterns"]]
    known_patterns = set(pattern_ids)

    for oid, opt in options.items():
        base = f"/options/{oid}"
        if opt["default"] not in opt["values"]:
            issue(f"{base}/default", f"default {opt['default']!r} is not one of the values {opt['values']}")
        missing = [value_key(v) for v in opt["values"] if value_key(v) not in opt["readings"]]
        if missing:
            issue(f"{base}/readings", f"no reading given for value(s) {', '.join(missing)}")
        for j, v in enumerate((opt.get("imported") or {}).get("values", [])):
            if v not in opt["values"] or (v == opt["default"] and type(v) is type(opt["default"])):
                issue(f"{base}/imported/values/{j}", f"{v!r} is not one of the values other than the default "
                      f"{opt['default']!r}: only another reading can be brought in from elsewhere")
        if "literal" in opt and (opt["literal"] not in opt["values"] or (
                opt["literal"] == opt["default"] and type(opt["literal"]) is type(opt["default"]))):
            issue(f"{base}/literal", f"{opt['literal']!r} is not one of the values other than the default "
                  f"{opt['default']!r}: `literal` names the literal reading where the default reads otherwise")

    def check_option_ref(value: Any, pointer: str, noun: str = "value") -> None:
        """An option named in place of a value: known, `is` one of its values, a `map` giving a `noun` for each
        of its values and for no other (each mapped value checked in turn: it may name another option)."""
        if isinstance(value, dict) and "option" in value:
            if value["option"] not in options:
                issue(pointer, f"unknown option {value['option']!r}")
            elif "is" in value and value["is"] not in options[value["option"]]["values"]:
                issue(pointer, f"option {value['option']!r} has no value {value['is']!r}")
            elif isinstance(value.get("map"), dict):
                keys = [value_key(v) for v in options[value["option"]]["values"]]
                missing = [k for k in keys if k not in value["map"]]
                if missing:
                    issue(f"{pointer}/map", f"no {noun} for option value(s) {', '.join(missing)}")
                extra = [excerpt(k) for k in value["map"] if k not in keys]
                if extra:
                    issue(f"{pointer}/map", f"option {value['option']!r} has no value(s) {', '.join(extra)}")
            for key, mapped in (value.get("map") or {}).items():
                check_option_ref(mapped, f"{pointer}/map/{key}", noun)

    sections = {"flags": set(data.get("flags") or {}), "counters": set(data.get("counters") or {}),
                "patterns": known_patterns}

    def check_params(entry: dict, accepted: Any, what: str, pointer: str, where: str = "") -> None:
        """The parameters given to one predicate, shape, step or check (`what`, e.g. "predicate 'wait'"):
        each known, each value (or each value its option can take) of its declared type, the required given."""
        given = entry.get("params") or {}
        for pname, pvalue in given.items():
            if pname not in accepted:
                expected = ", ".join(sorted(accepted)) or "no parameters"
                issue(f"{pointer}/params/{pname}", f"{what} takes no parameter {pname!r} (it takes: {expected})")
            elif isinstance(accepted, Mapping):
                reason = _param_problem(pvalue, accepted[pname], options, sections)
                if reason:
                    issue(f"{pointer}/params/{pname}", f"parameter {pname!r} of {what} {reason}{where}")
        missing = sorted(getattr(accepted, "required", frozenset()) - set(given))
        if missing:
            issue(f"{pointer}/params" if "params" in entry else pointer,
                  f"{what} needs parameter(s) {', '.join(missing)}{where}")

    def check_predicate(when: dict, pointer: str, where: str = "", noun: str = "predicate") -> None:
        for pname, pvalue in (when.get("params") or {}).items():
            check_option_ref(pvalue, f"{pointer}/params/{pname}")
        if predicates is None:
            return
        name = when["predicate"]
        if name not in predicates:
            issue(f"{pointer}/predicate", f"unknown predicate {name!r}")
            return
        check_params(when, predicates[name], f"{noun} {name!r}", pointer, where)

    seen: set[str] = set()
    for i, pat in enumerate(data["patterns"]):
        base = f"/patterns/{i}"
        if pat["id"] in seen:
            issue(f"{base}/id", f"duplicate pattern id {pat['id']!r}")
        seen.add(pat["id"])
        check_option_ref(pat["points"], f"{base}/points")
        if "active_if" in pat:
            check_option_ref(pat["active_if"], f"{base}/active_if")
        if isinstance(pat.get("allows_win"), dict):
            check_option_ref(pat["allows_win"], f"{base}/allows_win")
            chosen = options.get(pat["allows_win"]["option"], {}).get("values", [])
            if any(not isinstance(v, bool) for v in chosen):
                issue(f"{base}/allows_win", f"option {pat['allows_win']['option']!r} must take true or false")
        check_predicate(pat["when"], f"{base}/when", f" (in pattern {pat['id']!r})")
        for key in ("excludes", "implies", "implies_within"):
            for j, ref in enumerate(pat.get(key, [])):
                if ref not in known_patterns:
                    issue(f"{base}/{key}/{j}", f"{key} names unknown pattern {ref!r}")
                elif ref == pat["id"]:
                    issue(f"{base}/{key}/{j}", f"pattern {ref!r} {key} itself")
        for j, cond in enumerate(pat.get("excludes_if", [])):
            check_option_ref(cond["if"], f"{base}/excludes_if/{j}/if")
            for k, ref in enumerate(cond["excludes"]):
                if ref not in known_patterns:
                    issue(f"{base}/excludes_if/{j}/excludes/{k}", f"excludes_if names unknown pattern {ref!r}")

    win = data["win"]
    for j, req in enumerate(win.get("requires_flags", [])):
        for k, ref in enumerate(req.get("exempt", [])):
            if ref not in known_patterns:
                issue(f"/win/requires_flags/{j}/exempt/{k}", f"unknown pattern {ref!r}")
    for j, ref in enumerate(win.get("minimum_excludes", [])):
        if ref not in known_patterns:
            issue(f"/win/minimum_excludes/{j}", f"unknown pattern {ref!r}")
    for j, shape in enumerate(win["shapes"]):
        check_predicate(shape, f"/win/shapes/{j}", noun="shape")

    principles = data.get("principles", {})
    for key, value in principles.items():
        if isinstance(value, dict) and isinstance(value.get("applies"), dict):
            check_option_ref(value["applies"], f"/principles/{key}/applies")
    chicken = principles.get("chicken_hand", {}).get("pattern")
    if chicken is not None and chicken not in known_patterns:
        issue("/principles/chicken_hand/pattern", f"unknown pattern {chicken!r}")

    for j, st in enumerate((data.get("scoring") or {}).get("steps", [])):
        for pname, pvalue in (st.get("params") or {}).items():
            check_option_ref(pvalue, f"/scoring/steps/{j}/params/{pname}")
        if predicates is not None and "step:" + st["step"] not in predicates:
            issue(f"/scoring/steps/{j}/step", f"unknown scoring step {st['step']!r}")
        elif predicates is not None:
            check_params(st, predicates["step:" + st["step"]], f"scoring step {st['step']!r}", f"/scoring/steps/{j}")
    for j, hc in enumerate(data.get("hand_checks", [])):
        if predicates is None:
            continue
        accepted = predicates.get("check:" + hc["check"])
        if accepted is None:
            issue(f"/hand_checks/{j}/check", f"unknown hand check {hc['check']!r}")
            continue
        for pname, pvalue in (hc.get("params") or {}).items():
            check_option_ref(pvalue, f"/hand_checks/{j}/params/{pname}")
        check_params(hc, accepted, f"hand check {hc['check']!r}", f"/hand_checks/{j}", f" (in hand check {hc['id']!r})")
    def walk_procedure(value: Any, pointer: str) -> None:
        """Options named in the procedure: known, and marked as read by the table (never by the scorer)."""
        if isinstance(value, dict) and "option" in value:
            check_option_ref(value, pointer)
            if value["option"] in options and options[value["option"]].get("read_by") != "table":
                issue(pointer, f"option {value['option']!r} is read by the table procedure: mark it read_by: table")
        elif isinstance(value, dict):
            for key, inner in value.items():
                walk_procedure(inner, f"{pointer}/{key}")

    for key, entry in (data.get("procedure") or {}).items():
        walk_procedure(entry, f"/procedure/{key}")
    method = data["settlement"]["method"]
    for kind in ("self_draw", "discard", "robbing_kong"):
        for role, amount in (data["settlement"].get(kind) or {}).items():
            check_option_ref(amount, f"/settlement/{kind}/{role}", "amount")
            misfits = [_shown(a) for a in _amounts(amount, options) if not _fits_method(a, method)]
            if misfits:
                issue(f"/settlement/{kind}/{role}", f"under method {method} an amount is "
                      + ("a list of base and points terms" if method == "base_plus_points" else "a whole number of shares")
                      + f", not {', '.join(misfits[:3])}")
    for name, counter in data.get("counters", {}).items():
        if counter["min"] > counter["max"]:
            issue(f"/counters/{name}", f"counter {name!r} has min {counter['min']} above max {counter['max']}")
    _check_cycles(data["patterns"], warn)
    _check_exclusion_order(data, warn)
    declared_counters, declared_flags = set(data.get("counters", {})), set(data.get("flags", {}))
    settle = data["settlement"]
    if settle.get("base_counter") and settle["base_counter"] not in declared_counters:
        issue("/settlement/base_counter", f"counter {settle['base_counter']!r} is not declared in `counters`")
    if isinstance(settle.get("per_share"), dict):
        check_option_ref(settle["per_share"], "/settlement/per_share", "terms")
    check_option_ref(settle.get("direct_base"), "/settlement/direct_base", "truth value")
    for key, value in (settle.get("contract") or {}).items():
        check_option_ref(value, f"/settlement/contract/{key}", "amount")
    contract = settle.get("contract") or {}
    for key, declared, what in (("partner_counter", declared_counters, "counters"),
                                ("mutual_flag", declared_flags, "flags"), ("ready_flag", declared_flags, "flags")):
        name = contract.get(key)
        if contract and name not in declared:
            issue(f"/settlement/contract/{key}", f"{key} {name!r} is not declared in `{what}`")
    if "double_win_flag" in contract:
        if contract["double_win_flag"] not in declared_flags:
            issue("/settlement/contract/double_win_flag",
                  f"double_win_flag {contract['double_win_flag']!r} is not declared in `flags`")
        missing = [k for k in ("double_win_ready", "double_win_not_ready") if k not in contract]
        if missing:
            issue("/settlement/contract", f"double_win_flag needs {' and '.join(missing)}")
    liability = settle.get("liability") or {}
    for key in ("applies", "exempt_applies", "discarder", "others"):
        if key in liability:
            check_option_ref(liability[key], f"/settlement/liability/{key}", "amount" if key in ("discarder", "others")
                             else "value")
    for key in ("applies", "exempt_applies"):
        not_bool = [_shown(a) for a in _amounts(liability.get(key, True), options) if not isinstance(a, bool)]
        if not_bool:
            issue(f"/settlement/liability/{key}", f"{key} is true or false, not {', '.join(not_bool[:3])}")
    if "exempt_flag" in liability and liability["exempt_flag"] not in declared_flags:
        issue("/settlement/liability/exempt_flag", f"exempt_flag {liability['exempt_flag']!r} is not declared in `flags`")
    for key in ("exempt_applies", "exempt_doubles"):
        if key in liability and "exempt_flag" not in liability:
            issue(f"/settlement/liability/{key}", f"{key} needs exempt_flag: the flag that exempts a hand")
    for key in ("discarder", "others"):
        misfits = [_shown(a) for a in _amounts(liability.get(key, 0), options) if not _fits_method(a, "shares")]
        if misfits:
            issue(f"/settlement/liability/{key}", f"an amount is a whole number of shares, not {', '.join(misfits[:3])}")
    if "with_contract" in liability:
        check_option_ref(liability["with_contract"], "/settlement/liability/with_contract", "value")
        unknown = [_shown(a) for a in _amounts(liability["with_contract"], options) if a not in WITH_CONTRACT]
        if unknown:
            issue("/settlement/liability/with_contract",
                  f"with_contract is one of {', '.join(WITH_CONTRACT)}, not {', '.join(unknown[:3])}")
        if not settle.get("contract"):
            issue("/settlement/liability/with_contract", "with_contract needs a contract (settlement.contract)")
    if liability and method != "shares":
        issue("/settlement/liability", f"a liability pays in shares: settlement method {method} has none")
    for j, pid in enumerate(liability.get("patterns", [])):
        if pid not in known_patterns:
            issue(f"/settlement/liability/patterns/{j}", f"unknown pattern {pid!r}")
    for j, example in enumerate(data.get("examples", [])):  # each example hand's flags and counters: the spec's own
        for k, flag in enumerate(example.get("flags", [])):
            if flag not in declared_flags:
                issue(f"/examples/{j}/flags/{k}", f"flag {flag!r} is not declared in `flags`")
        for name in example.get("counters", {}):
            if name not in declared_counters:
                issue(f"/examples/{j}/counters/{name}", f"counter {name!r} is not declared in `counters`")
    context = data.get("table_context") or {}
    for fact, name in context.items():
        declared, section = (declared_counters, "counters") if fact == "contract_partner" else (declared_flags, "flags")
        if name not in declared:
            issue(f"/table_context/{fact}", f"{name!r} is not declared in `{section}`")
    # one name per role: the contract's terms and the table's facts that play the same role must name one thing
    for key, fact in CONTRACT_ROLES:  # (a name declared nowhere is refused above, once)
        declared = declared_counters if key == "partner_counter" else declared_flags
        if key in contract and fact in context and contract[key] != context[fact] and contract[key] in declared:
            issue(f"/settlement/contract/{key}", f"{key} is {contract[key]!r}, but table_context names the same "
                  f"role ({fact}) {context[fact]!r}: a role has one name")
    for j, req in enumerate(win.get("requires_flags", [])):
        if declared_flags and req["flag"] not in declared_flags:
            issue(f"/win/requires_flags/{j}/flag", f"flag {req['flag']!r} is not declared in `flags`")
    for j, refusal in enumerate(win.get("refused_when", [])):
        if declared_flags and "without_flag" in refusal and refusal["without_flag"] not in declared_flags:
            issue(f"/win/refused_when/{j}/without_flag", f"flag {refusal['without_flag']!r} is not declared in `flags`")
        if not {"win_by", "flowers", "without_flag", "shape"} & set(refusal):
            issue(f"/win/refused_when/{j}", "a refusal needs a condition (win_by, flowers, without_flag or shape): "
                                            "with none it would refuse every win")
        shapes = [s.get("id") for s in win.get("shapes", []) if isinstance(s, dict)]
        if "shape" in refusal and refusal["shape"] not in shapes:
            issue(f"/win/refused_when/{j}/shape", f"shape {refusal['shape']!r} is not one of win.shapes "
                                                  f"({', '.join(map(str, shapes))})")
    if isinstance(win.get("requires_allowing_pattern"), dict):
        check_option_ref(win["requires_allowing_pattern"], "/win/requires_allowing_pattern")

    defined = defined_rules(data)
    seen_examples: set[str] = set()
    for i, example in enumerate(data.get("procedure_examples", [])):  # hands of play: the spec's own options, rules
        if example["id"] in seen_examples:
            issue(f"/procedure_examples/{i}/id", f"duplicate procedure example id {example['id']!r}")
        seen_examples.add(example["id"])
        for oid, value in (example.get("options") or {}).items():
            if oid not in options:
                issue(f"/procedure_examples/{i}/options/{oid}", f"option {oid!r} is not declared in `options`")
            elif value not in options[oid]["values"]:
                issue(f"/procedure_examples/{i}/options/{oid}", f"{_shown(value)} is not a value of option {oid!r} "
                                                                 f"({', '.join(map(_shown, options[oid]['values']))})")
        for j, rule in enumerate(example["covers"]):
            if rule not in defined:
                issue(f"/procedure_examples/{i}/covers/{j}", f"rule {rule!r} is not defined by this spec")
        _check_hand_of_play(example, f"/procedure_examples/{i}", issue)
    seen_decisions: set[str] = set()
    for i, dec in enumerate(data.get("decisions", [])):
        if dec["id"] in seen_decisions:
            issue(f"/decisions/{i}/id", f"duplicate decision id {dec['id']!r}")
        seen_decisions.add(dec["id"])
        for j, what in enumerate(dec["by"]):
            if not what.startswith("checker/") and what not in defined:
                issue(f"/decisions/{i}/by/{j}", f"decision names rule {what!r}, which this spec does not define "
                                                f"(name a rule id, or an engine file as checker/...)")
    seen_statements: set[str] = set()
    for i, st in enumerate(data["statements"]):
        if st["id"] in seen_statements:
            issue(f"/statements/{i}/id", f"duplicate statement id {st['id']!r}")
        seen_statements.add(st["id"])
        for j, rule in enumerate(st.get("rules", [])):
            if rule in defined:
                continue
            close = difflib.get_close_matches(rule, list(defined), n=1)
            issue(f"/statements/{i}/rules/{j}", f"statement names rule {rule!r}, which this spec does not define"
                  + (f" (did you mean {close[0]!r}?)" if close else "")
                  + "; rule ids name a pattern (fan.), option, shape, scoring step, hand check, counter, "
                    "principle, settlement path, procedure entry, or a rule the engine enforces")


# The ways a win is paid that a spec's `settlement` may price, each the rule `settlement.<way>`: self-draw, a
# discard, a robbed kong, a contract (承包)


def _check_cycles(patterns: list, warn) -> None:
    """Warn of a cycle of `excludes` / `implies` / `implies_within` (a fan that, through others, withholds
    itself). Which fan of a cycle counts would depend on the order the scorer looks at them, so a cycle
    changes a score wherever its fans can be found together in one reading; whether they can is a question
    for the hunter's exhaustive search, not for the loader (MCR's Pure shifted pungs and Pure triple chow
    exclude each other and never meet in one reading). Reported once per cycle, at its first pattern."""
    index = {p["id"]: i for i, p in enumerate(patterns)}
    edges = {p["id"]: [r for key in ("excludes", "implies", "implies_within") for r in p.get(key, [])
                       if r in index and r != p["id"]] for p in patterns}
    done: set[str] = set()
    for root in edges:  # iterative depth-first search: a hostile spec may chain thousands of patterns
        if root in done:
            continue
        path, on_path, stack = [], set(), [(root, iter(edges[root]))]
        path.append(root)
        on_path.add(root)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                cycle = path[path.index(child):] + [child]
                first = min(cycle[:-1], key=index.__getitem__)
                warn(f"/patterns/{index[first]}", "excludes/implies cycle: " + " → ".join(cycle)
                     + " (each withholds the next: if they can be found in one reading, which counts depends "
                       "on the order they are looked at)")
            elif child not in done:
                stack.append((child, iter(edges[child])))
                path.append(child)
                on_path.add(child)


WITHHOLDING = ("excludes", "implies", "implies_within")


def _check_exclusion_order(data: Mapping[str, Any], warn) -> None:
    """Warn of a link (`excludes`, `implies`, `implies_within`, `excludes_if`) that can never apply: the scorer
    looks at patterns in one order (checker.engine.scoring: by value, then the spec's order, under fan_sum; the
    spec's order under any other method) and a counted pattern withholds only those it has not looked at yet, so
    a link to a pattern looked at first withholds nothing. Searched over every reading of the options that decide
    it (the two patterns' points and `active_if`, the `excludes_if` condition). A link inside a cycle of links is
    left to the cycle's own warning."""
    patterns = data["patterns"]
    options = data.get("options", {})
    index = {p["id"]: i for i, p in enumerate(patterns)}
    fan_sum = (data.get("scoring") or {}).get("method", "fan_sum") == "fan_sum"
    edges = {p["id"]: {r for key in WITHHOLDING for r in p.get(key, []) if r in index} for p in patterns}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = {start}, [start]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    def readable(holder: Mapping[str, Any], target: Mapping[str, Any], condition: Any) -> bool:
        """Whether some reading of the options has both patterns active, the condition holding and the holder
        looked at before the target."""
        named = []
        for p in (holder, target):
            for ref in (p.get("points"), p.get("active_if")):
                if isinstance(ref, dict) and ref.get("option") in options and ref["option"] not in named:
                    named.append(ref["option"])
        if isinstance(condition, dict) and condition.get("option") in options and condition["option"] not in named:
            named.append(condition["option"])
        readings: list[dict[str, Any]] = [{}]
        for oid in named:
            readings = [{**r, oid: v} for r in readings for v in options[oid]["values"]]
        for reading in readings:
            if not all(_holds_in(cond, reading) for cond in (holder.get("active_if"), target.get("active_if"),
                                                             condition)):
                continue
            if not fan_sum:
                return index[holder["id"]] < index[target["id"]]
            points: list[Any] = [reading.get(p["points"]["option"]) if isinstance(p["points"], dict) else p["points"]
                                 for p in (holder, target)]
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in points):
                return True  # a points option that is not a number is reported elsewhere; say nothing here
            if (-points[0], index[holder["id"]]) < (-points[1], index[target["id"]]):
                return True
        return False

    order = ("the scorer looks at patterns by value, then in the spec's order" if fan_sum
             else "the scorer looks at patterns in the spec's order")
    for i, p in enumerate(patterns):
        links = [(f"/patterns/{i}/{key}/{j}", key, ref, None)
                 for key in WITHHOLDING for j, ref in enumerate(p.get(key, []))]
        links += [(f"/patterns/{i}/excludes_if/{j}/excludes/{k}", "excludes_if", ref, cond.get("if"))
                  for j, cond in enumerate(p.get("excludes_if", [])) for k, ref in enumerate(cond.get("excludes", []))]
        for pointer, key, ref, condition in links:
            if ref not in index or ref == p["id"] or reaches(ref, p["id"]):
                continue
            if not readable(p, patterns[index[ref]], condition):
                warn(pointer, f"pattern {p['id']!r} {key} {ref!r}, which can never apply: {order}, and under "
                              f"no reading of the options is {p['id']!r} active and looked at before {ref!r} (a "
                              f"counted pattern withholds only those looked at after it)")


def _holds_in(condition: Any, reading: Mapping[str, Any]) -> bool:
    """Whether a condition ({option, is}, or none) holds under a reading of the options it names."""
    return not isinstance(condition, dict) or reading.get(condition.get("option", "")) == condition.get("is")


def _amounts(amount: Any, options: Mapping[str, Any]) -> list[Any]:
    """Every amount a settlement entry can come to, over the values of the options it names."""
    if isinstance(amount, dict) and "option" in amount:
        if isinstance(amount.get("map"), dict):
            return [a for mapped in amount["map"].values() for a in _amounts(mapped, options)]
        return list(options[amount["option"]]["values"]) if amount["option"] in options else []
    return [amount]


def _fits_method(amount: Any, method: str) -> bool:
    """Whether a settlement amount is of the kind its method pays: terms (base_plus_points) or shares."""
    if method == "base_plus_points":
        return isinstance(amount, list)
    return isinstance(amount, int) and not isinstance(amount, bool) and amount >= 0


def _param_problem(value: Any, declared: Mapping[str, Any], options: Mapping[str, Any],
                   sections: Mapping[str, set]) -> str:
    """Why a parameter's value does not fit its declared type (checker.params), or "" if it fits. A value
    taken from an option fits when every value the option can take (or every value its `map` gives, itself
    perhaps taken from another option) fits."""
    if isinstance(value, dict) and "option" in value:
        opt = options.get(value["option"])
        if opt is None:
            return ""  # reported as an unknown option
        if "map" in value:
            bad = [f"{value_key(k)} to {_shown(v)}" for k, v in value["map"].items()
                   if _param_problem(v, declared, options, sections)]
            given = "maps " + ", ".join(bad[:3])
        else:
            bad = [_shown(v) for v in opt["values"] if _value_problem(v, declared, sections)]
            given = "can be " + " or ".join(bad[:3])
        return f"must be {params.describe(declared)}, but option {value['option']!r} {given}" if bad else ""
    return _value_problem(value, declared, sections)


def _value_problem(value: Any, declared: Mapping[str, Any], sections: Mapping[str, set]) -> str:
    if not params.fits(value, declared):
        return f"must be {params.describe(declared)}, not {_shown(value)}"
    section = declared.get(params.NAMES)
    if section and sections.get(section) and value not in sections[section]:
        what = "pattern" if section == "patterns" else section.rstrip("s")
        return f"names {what} {_shown(value)}, which the ruleset does not declare in `{section}`"
    return ""


def _shown(value: Any) -> str:
    """A value as a message quotes it: as YAML writes true, false and null; anything long cut short."""
    if isinstance(value, bool) or value is None:
        return "null" if value is None else value_key(value)
    return excerpt(value)


# an event of a hand of play written short: "0 discard 1z", "0 pung", "0 chow 1m2m3m", "2 draw 9s back", "draw_game"
_SHORT_EVENT = re.compile(r"draw_game|[0-3] [a-z_]+( [^ ]+)?( back)?")


def _check_hand_of_play(example: Mapping[str, Any], base: str, issue) -> None:
    """A written-out hand of play (procedure_examples) that the wall can deal: each hand, the draws and the back
    in tile notation, the dealer (seat 0) dealt 14 and the others 13, no tile more than its copies (four, a flower
    one); each event in the short form. What the events do is the table's to judge (the case's verdict)."""
    used: Counter[int] = Counter()
    for key, tiles_of in [*((f"hands/{s}", h) for s, h in enumerate(example["hands"])),
                          ("draws", example.get("draws", "")), ("back", example.get("back", ""))]:
        try:
            tiles = T.parse_tiles(tiles_of)
        except T.TileError as exc:
            issue(f"{base}/{key}", str(exc))
            continue
        used.update(tiles)
        if key.startswith("hands/") and len(tiles) != (14 if key == "hands/0" else 13):
            issue(f"{base}/{key}", f"seat {key[6:]} is dealt {14 if key == 'hands/0' else 13} tiles, not {len(tiles)} "
                                   f"(seat 0 deals)")
    for tile, n in sorted(used.items()):
        most = 1 if T.is_flower(tile) else 4
        if n > most:
            issue(f"{base}/hands", f"{T.tile_name(tile)} is written {n} times among the hands, draws and back; "
                                   f"the set holds {most}")
    for j, text in enumerate(example["events"]):
        if not _SHORT_EVENT.fullmatch(text):
            issue(f"{base}/events/{j}", f"{excerpt(text)} is not an event written short (\"0 discard 1z\", "
                                        f"\"0 pung\", \"0 chow 1m2m3m\", \"2 draw 9s back\", \"draw_game\")")
