"""One model of the engine (checker.diagnose.confirm `Confirming._against_confirmed`): a departure named for a class
is put to the engine against a departure the probes confirmed for another class that explains the same cases alike.

The engine and the re-scoring are stood in for here: each trial's status is written by hand, so that each way the
answer can go is shown without building an engine that answers each way. What the code decides from those answers
is what is tested: the departure borne out named in place of the contradicted one; a contradicted one with nothing
borne out moved to `contradicted`, its cases counted unexplained; one no probe tells apart named beside it.
"""
from __future__ import annotations

from types import SimpleNamespace

from checker.diagnose.confirm import Confirming
from checker.diagnose.explanation import Cause, Explanation
from checker.diagnose.probes import CONFIRMED, CONTRADICTED, UNTESTED, Trial
from checker.mutate.mutation import Mutation

NAMED = Mutation("flag-checks-dropped:kong_replacement", "flag checks dropped", "r",
                 "the kong_replacement flag's checks are dropped")
OTHER = Mutation("flag-ignored:kong_replacement", "flag ignored", "r", "the kong_replacement flag is ignored")


class Stood(Confirming):
    """Confirming with the engine's answers given by `trials`: (hypothesis id, ids beside it) -> status. Every
    departure explains every case of the class and keeps every passing case (5 checked)."""

    def __init__(self, trials):
        self.trials = trials
        self.mutations = {NAMED.id: NAMED, OTHER.id: OTHER}
        self.asked = []

    def ruleset_of(self, ruleset_id):
        return SimpleNamespace(id=ruleset_id, patterns=())

    def _members(self, cls):
        return list(cls.members)

    def _explains(self, r, m):
        return True

    def _passing_kept(self, ruleset_id, m):
        return 5

    def rules_read(self, members, m):
        return {}

    def _trial(self, experiments, ruleset, cases, m, beside):
        key = (m.id, tuple(b.id for b in beside))
        self.asked.append(key)
        status = self.trials[key]
        return Trial(status, why="" if status != UNTESTED else "no case the tool built tells them apart",
                     inseparable=(OTHER.id,) if status == UNTESTED else ())


def a_class(size=3):
    return SimpleNamespace(ruleset="r", members=[SimpleNamespace(case={"id": f"c{i}"}) for i in range(size)])


def named_cause(size=3):
    e = Explanation("spec edit", NAMED.id, NAMED.words, (), size, size, 5, evidence=CONFIRMED)
    return Cause((e,), 0)


def test_a_named_departure_contradicted_against_a_confirmed_one_with_nothing_borne_out_is_moved_to_contradicted():
    """Against the other class's confirmed departure, the named one is contradicted, and the other, put to the
    engine against it, is not borne out either (the engine answers the separating hands as neither predicts): the
    named departure is no longer named; it is listed as contradicted and its 3 cases are counted unexplained."""
    stood = Stood({(NAMED.id, (OTHER.id,)): CONTRADICTED, (OTHER.id, (NAMED.id,)): CONTRADICTED})
    after = stood._against_confirmed(a_class(), named_cause(), experiments=None, departures=[OTHER])
    assert after.explanations == ()
    assert [e.id for e in after.contradicted] == [NAMED.id] and after.contradicted[0].evidence == CONTRADICTED
    assert after.unexplained == 3
    assert stood.asked == [(NAMED.id, (OTHER.id,)), (OTHER.id, (NAMED.id,))]


def test_the_confirmed_departure_borne_out_against_the_named_one_is_named_in_its_place():
    """The named one contradicted, the other borne out: the other is named, for the same 3 cases, confirmed; nothing
    is contradicted and nothing left unexplained."""
    stood = Stood({(NAMED.id, (OTHER.id,)): CONTRADICTED, (OTHER.id, (NAMED.id,)): CONFIRMED})
    after = stood._against_confirmed(a_class(), named_cause(), experiments=None, departures=[OTHER])
    assert [(e.id, e.explains, e.evidence) for e in after.explanations] == [(OTHER.id, 3, CONFIRMED)]
    assert after.contradicted == () and after.unexplained == 0


def test_a_confirmed_departure_no_probe_tells_from_the_named_one_is_named_beside_it():
    """No case the tool built tells them apart: the named one stays, the other beside it, saying so."""
    stood = Stood({(NAMED.id, (OTHER.id,)): UNTESTED})
    after = stood._against_confirmed(a_class(), named_cause(), experiments=None, departures=[OTHER])
    (e,) = after.explanations
    assert e.id == NAMED.id and [i for i, _ in e.or_equally] == [OTHER.id]
    assert "no case the tool built tells them apart" in e.or_equally[0][1]
    assert after.contradicted == () and after.unexplained == 0


def test_a_named_departure_the_probes_hold_against_the_confirmed_one_stays_alone():
    """The named one confirmed against the other: it stays, nothing beside it, and the other is not asked."""
    stood = Stood({(NAMED.id, (OTHER.id,)): CONFIRMED})
    cause = named_cause()
    after = stood._against_confirmed(a_class(), cause, experiments=None, departures=[OTHER])
    assert after == cause and stood.asked == [(NAMED.id, (OTHER.id,))]


def test_a_departure_its_own_probes_left_untested_is_confirmed_by_another_class_s_probes_of_the_same_departure():
    """Class A's departure is confirmed by its probes; class B names the same departure, which its own probes left
    untested: B says it confirmed, by A's probes, naming A. A class whose departure was borne out only beside the
    run's other departures (other words) lends nothing; a departure set aside as untested (no passing case checked)
    is named once so confirmed, and its cases are no longer counted unexplained."""
    from dataclasses import replace

    from checker.diagnose.confirm import _confirmed_elsewhere
    from checker.diagnose.probes import Probe

    probe = Probe({"id": "probe-1"}, {"total": 20}, None, {"total": 10}, {"total": 20}, holds=True)
    a = SimpleNamespace(ruleset="r", title=lambda: "class A")
    b = SimpleNamespace(ruleset="r", title=lambda: "class B")
    confirmed = Explanation("spec edit", NAMED.id, NAMED.words, (), 5, 5, 3, evidence=CONFIRMED, probes=(probe,))
    untested = replace(confirmed, explains=1, of=1, evidence=UNTESTED, probes=(), why_untested="no case built")
    after = _confirmed_elsewhere(b, Cause((untested,), 0), [a, b], [Cause((confirmed,), 0), Cause((untested,), 0)])
    (e,) = after.explanations
    assert (e.evidence, e.confirmed_for, e.probes) == (CONFIRMED, "class A", (probe,))
    assert 'asked for the class "class A"' in e.said()

    jointly = replace(confirmed, words=NAMED.words + " (its probes predicted with the run's other departures: …)")
    kept = _confirmed_elsewhere(b, Cause((untested,), 0), [a, b], [Cause((jointly,), 0), Cause((untested,), 0)])
    assert kept.explanations[0].evidence == UNTESTED

    set_aside = Cause((), 1, untested=(replace(untested, checked=0),))
    named = _confirmed_elsewhere(b, set_aside, [a, b], [Cause((confirmed,), 0), set_aside])
    assert [x.id for x in named.explanations] == [NAMED.id] and named.untested == () and named.unexplained == 0


def test_a_departure_confirmed_only_where_it_pays_as_the_rules_do_says_it_bears_out_a_listing():
    """Hand-written probes: a spec edit putting 大吊车 at 10 points where the rules lift the hand to 10 lists the fan
    otherwise (10 where the rules list it at 0 beside the lift) and pays alike, total 10 and payments the same:
    confirmed on such probes alone, it says the probes bear out how the engine lists its fans, not what it pays.
    One probe that moves the money (total 20 against 10) and it claims a departure of scoring. Hands of play: a
    verdict moved (illegal where the rules leave the log unfinished) is a departure, though neither pays."""
    from dataclasses import replace

    from checker.diagnose.explanation import PAYS_ALIKE
    from checker.diagnose.probes import Probe, pays_alike

    def scored(points, total):
        return {"valid": True, "fans": [{"id": "da_diao_che", "points": points, "count": 1}], "total": total,
                "payments": [3 * total, -total, -total, -total]}

    listing = Probe({"id": "probe-1"}, scored(10, 10), None, scored(0, 10), scored(10, 10), holds=True)
    money = Probe({"id": "probe-2"}, scored(10, 20), None, scored(0, 10), scored(10, 20), holds=True)
    e = Explanation("spec edit", "points:da_diao_che=10", "da_diao_che is worth 10", (), 4, 4, 9,
                    evidence=CONFIRMED, probes=(listing,))
    assert e.pays_alike and PAYS_ALIKE in e.said() and e.as_json()["pays_alike"] is True
    moved = replace(e, probes=(listing, money))
    assert not moved.pays_alike and PAYS_ALIKE not in moved.said() and "pays_alike" not in moved.as_json()
    illegal = {"verdict": "illegal", "rule": "procedure.knock_locks_hand", "event": 8}
    assert not pays_alike(illegal, {"verdict": "unfinished", "rule": "procedure.turn", "event": 8})


# ---------------------------------------------------------------------- every probe of the run (`_against_the_run`)

RIVAL = Mutation("option:rival=1", "reading", "r", "the rival reading")
BESIDE = Mutation("option:beside=1", "reading", "r", "a departure another class confirmed")


class Probed:
    """The engine's answers to the run's probes, written by hand: `predicted` holds the (probe id, hypothesis id)
    pairs whose prediction the answer bears out (None: the rules), `moved` the (probe id, hypothesis id) pairs on
    which the hypothesis answers otherwise than the rules."""

    def __init__(self, probes, predicted, moved):
        from checker.diagnose.probes import Probe

        self.probes = [Probe({"id": p, "ruleset": "r", "input": {"n": p}, "expect": {}}, {}, None, {"rules": p},
                             {"answer": p}, None) for p in probes]
        self.predicted, self.moved = set(predicted), set(moved)

    def asked(self, ruleset, ids):
        return list(self.probes)

    def predicts(self, ruleset, probe, m):
        return (probe.case["id"], None if m is None else m.id) in self.predicted

    def contradicts(self, ruleset, probe, m):
        from dataclasses import replace

        key = (probe.case["id"], m.id)
        return replace(probe, predicted={"said": m.id}, holds=False) \
            if key in self.moved and key not in self.predicted else None

    def accounting_for(self, ruleset, probe, m, candidates):
        return iter(())


def _against(stood, probed, cause, confirmed=(), witnessed=()):
    from checker.diagnose.confirm import RunEvidence

    stood._model = list(confirmed)
    run = RunEvidence({"r": list(confirmed)}, {m.id: m for m in confirmed}, set(witnessed),
                      {"r": probed.asked(None, {})}, {"r": []})
    return stood._against_the_run(a_class(), cause, probed, run)


def _stood():
    stood = Stood({})
    stood.ruleset_of = lambda ruleset_id: SimpleNamespace(id=ruleset_id, patterns=(), options={})
    stood._explained = lambda members, m: list(members)
    stood._moves_probe = lambda probe, m, o: True  # (every departure moves every probe: none is passed over)
    stood.mutations.update({RIVAL.id: RIVAL, BESIDE.id: BESIDE})
    return stood


def test_a_named_departure_a_probe_of_another_class_contradicts_is_no_longer_named():
    """A probe asked for another class: the engine answered as the rules do, where the named departure answers
    otherwise (it moves the hand) and predicts the answer neither alone nor with the run's other departures. The
    departure is moved to `contradicted`, that probe with it, and its 3 cases are counted unexplained."""
    probed = Probed(["p1"], predicted=[("p1", None)], moved=[("p1", NAMED.id)])
    after = _against(_stood(), probed, named_cause())
    assert after.explanations == () and after.unexplained == 3
    (e,) = after.contradicted
    assert e.id == NAMED.id and e.evidence == CONTRADICTED and e.probes[-1].case["id"] == "p1"


def test_an_answer_nothing_the_run_holds_predicts_says_nothing_against_a_named_departure():
    """The engine answered a probe as neither the rules, nor any departure the probes bore out, nor any hypothesis
    the probe was asked against predicts: it departs there in a way no class showed. The named departure, which
    moves that hand, stays named (no evidence either way)."""
    probed = Probed(["p1"], predicted=[], moved=[("p1", NAMED.id)])
    cause = named_cause()
    assert _against(_stood(), probed, cause) == cause
    # the same answer, predicted by a hypothesis the probe was asked against (its key witnessed): contradicted
    from checker.diagnose.probes import Prober

    after = _against(_stood(), probed, cause, witnessed={Prober.key(probed.probes[0].case)})
    assert [e.id for e in after.contradicted] == [NAMED.id]


def test_a_probe_the_named_departure_predicts_beside_a_confirmed_one_does_not_contradict_it():
    """The answer is what another class's confirmed departure predicts, and the named one beside it predicts it
    too (the engine departs there in both ways): nothing is contradicted."""
    both = f"{NAMED.id} + {BESIDE.id}"
    probed = Probed(["p1"], predicted=[("p1", BESIDE.id), ("p1", both)], moved=[("p1", NAMED.id)])
    cause = named_cause()
    assert _against(_stood(), probed, cause, confirmed=[BESIDE]) == cause


def test_a_rival_a_probe_of_the_run_contradicts_is_no_longer_said_to_fit_as_well():
    """The named departure is borne out by the run's probes; a rival listed beside it ("no case the tool built
    tells them apart") is contradicted by a probe another class asked: the rival is dropped, the named one stays."""
    from dataclasses import replace

    probed = Probed(["p1"], predicted=[("p1", None), ("p1", NAMED.id)], moved=[("p1", RIVAL.id)])
    e = replace(named_cause().explanations[0], or_equally=((RIVAL.id, "the rival reading (no case ...)"),))
    after = _against(_stood(), probed, Cause((e,), 0))
    (kept,) = after.explanations
    assert kept.id == NAMED.id and kept.or_equally == () and after.contradicted == ()


def test_the_first_hands_a_departure_is_screened_on_are_taken_from_each_kind_of_money_difference():
    """A money class's first hands (one of which a candidate must explain before it is scored on the rest) are taken
    in turn from each kind of difference: how the hand was won and which payers the engine has pay more or less.
    Four self-drawn hands where the engine has the three others pay more come first in the class; the discard hand
    where the engine has the discarder pay less is still among the first two."""
    from checker.diagnose.one_class import _spread

    def hand(win_by, expected, actual, i):
        return SimpleNamespace(case={"id": i, "input": {"win_by": win_by}}, expected={"payments": expected},
                               actual={"payments": actual})

    drawn = [hand("self_draw", [30, -10, -10, -10], [36, -12, -12, -12], f"s{i}") for i in range(4)]
    robbed = hand("discard", [60, -60, 0, 0], [50, -50, 0, 0], "d")
    assert [r.case["id"] for r in _spread([*drawn, robbed], 2)] == ["s0", "d"]
    assert [r.case["id"] for r in _spread([*drawn, robbed], 5)] == ["s0", "d", "s1", "s2", "s3"]


def test_a_combination_whose_parts_were_not_all_put_to_the_engine_says_which():
    """The --probes budget ran out while a joint departure's parts were being put to the engine apart from one
    another: it is confirmed by the probes asked, and says which of its parts no probe tested apart, and why; the
    report says it too."""
    from checker.conform.report import _evidence
    from checker.diagnose.explanation import PARTS_UNASKED

    trial = Trial(CONFIRMED, why="the run's 300 probes were spent on larger classes (--probes raises it)",
                  parts_unasked=(OTHER.id,))
    e = Explanation("pair", f"{NAMED.id} + {OTHER.id}", "both", (), 3, 3, 5).tried_by(trial, lambda i: i)
    assert e.parts_unasked == (OTHER.id,) and e.as_json()["parts_unasked"] == [OTHER.id]
    assert f"{PARTS_UNASKED} {OTHER.id} (the run's 300 probes were spent" in e.said()
    assert f"{PARTS_UNASKED} {OTHER.id} (the run's 300 probes" in _evidence(e.as_json())


# ----------------------------------------------------------------------- a departure beside the run's others

def test_a_departure_beside_the_run_s_others_is_borne_out_only_where_each_part_moves_what_the_hand_pays():
    """`_own_part_borne`: A + B tried beside O (the run's other departures). Probe p: the engine answered as A + B
    + O predict (20, its 门清 listed at 2) and O alone does not predict it; without A (B + O) the hand pays 22, so A
    is borne out there; without B (A + O) it pays 20 as well, only listed otherwise: B is not borne out by p, and
    the departure is not. A probe q on which B + ... pays 40 without B bears B out too."""
    from checker.diagnose.confirm import _own_part_borne
    from checker.diagnose.probes import Probe
    from checker.mutate.mutation import together

    a, b, o = (Mutation(f"option:{x}=1", "reading", "r", x) for x in "abo")
    without_a, without_b = together([o, b]).id, together([o, a]).id

    def probe(n):
        return Probe({"id": n, "ruleset": "r", "input": {"n": n}}, {"total": 20}, None, {}, {"total": 20}, True)

    pays = {("p", without_a): 22, ("p", without_b): 20, ("q", without_a): 22, ("q", without_b): 40}
    experiments = SimpleNamespace(
        predicts=lambda ruleset, p, m: False,  # (the engine's answers: predicted by nothing short of A + B + O)
        rescorer=SimpleNamespace(result=lambda case, m: {"total": pays[(case["id"], m.id)]}))
    only_p = Trial(CONFIRMED, (probe("p"),))
    assert not _own_part_borne(experiments, None, only_p, [a, b], [o])
    assert _own_part_borne(experiments, None, Trial(CONFIRMED, (probe("p"), probe("q"))), [a, b], [o])
    assert _own_part_borne(experiments, None, only_p, [a], [o])  # one part: borne out where O alone does not
    held_by_o = SimpleNamespace(predicts=lambda ruleset, p, m: m.id == "option:o=1", rescorer=experiments.rescorer)
    assert not _own_part_borne(held_by_o, None, only_p, [a], [o])  # the probe tests O, not A


def test_a_scoring_departure_beside_the_run_s_others_is_not_confirmed_by_a_probe_only_they_explain():
    """`_with_model` on a class of scored hands: A, contradicted alone by probe c, tried beside O (the run's other
    departure, which moves c). The joint trial is CONFIRMED by probe p, but p is answered as O alone predicts: p
    tests O, not A, so A is not named beside O (None); with a probe O alone does not predict, it is (O needed: A
    without it does not predict c)."""
    from checker.diagnose.probes import Probe
    from checker.mutate.mutation import together

    a, o = (Mutation(f"option:{x}=1", "reading", "r", x) for x in "ao")
    joint_id = together([a, o]).id

    def probe(n, holds):
        return Probe({"id": n, "ruleset": "r", "input": {"n": n}}, {"total": 20}, None, {}, {"total": 20}, holds)

    contradicting = probe("c", False)
    alone = Trial(CONTRADICTED, (contradicting,))
    held = {"p": {"option:o=1", joint_id}, "c": {joint_id}, "q": {joint_id}}

    def confirming(trial_probes):
        experiments = SimpleNamespace(
            predicts=lambda ruleset, p, m: m.id in held[p.case["id"]],
            rescorer=SimpleNamespace(result=lambda case, m: {"total": 20}))
        me = SimpleNamespace(
            _model=[o], components=lambda mid: [], _moves_probe=lambda p, m, x: True,
            _explains_all=lambda members, m: True,
            _trial=lambda *args, **kw: Trial(CONFIRMED, tuple(trial_probes)))
        return Confirming._with_model(me, experiments, None, [{"id": "k", "kind": "score"}], [], a, [o], alone)

    assert confirming([probe("p", True)]) is None
    found = confirming([probe("p", True), probe("q", True)])
    assert found is not None and [x.id for x in found[1]] == ["option:o=1"]


def test_a_contradicting_probe_whose_answers_read_alike_in_short_says_where_they_differ():
    """A probe of a hand of play where the prediction and the engine's answer have the same winners, totals and
    payments, but a winner's fans differ (seat 3: wind_pung ×4 and hun_peng predicted, hunpeng and menqing 2
    answered): the words name that winner's fans on both sides, never two answers that look the same."""
    from checker.diagnose.explanation import probe_words
    from checker.diagnose.probes import Probe

    def result(fans3):
        return {"verdict": "legal", "ended": "win", "payments": [-40, 20, 0, 20],
                "winners": [{"seat": 1, "win_by": "discard", "total": 20, "fans": [{"id": "x", "points": 1, "count": 1}]},
                            {"seat": 3, "win_by": "discard", "total": 20, "fans": fans3}]}

    predicted = result([{"id": "wind_pung", "points": 1, "count": 4}, {"id": "hun_peng", "points": 1, "count": 1}])
    answered = result([{"id": "hunpeng", "points": 1, "count": 1}, {"id": "menqing", "points": 2, "count": 1}])
    words = probe_words([Probe({"id": "p-1"}, predicted, None, {}, answered, False)])
    assert words == ("p-1: predicted legal, ended by win (seat 1 by discard for 20, seat 3 by discard for 20), "
                     "payments [-40, 20, 0, 20], the engine answered legal, ended by win (seat 1 by discard for 20, "
                     "seat 3 by discard for 20), payments [-40, 20, 0, 20] (seat 3's fans: predicted wind_pung 1×4, "
                     "hun_peng 1, the engine's hunpeng 1, menqing 2)")
    # the next dealer alone differing is said so; answers that differ in their short words add nothing
    moved = {**predicted, "next_dealer": 2}
    assert probe_words([Probe({"id": "p-2"}, predicted, None, {}, moved, False)]).endswith(
        "(next_dealer: predicted null, the engine's 2)")
    refused = {"verdict": "illegal", "event": 4, "rule": "procedure.turn"}
    assert probe_words([Probe({"id": "p-3"}, predicted, None, {}, refused, False)]).endswith(
        "the engine answered illegal at event 4 (procedure.turn)")


def test_the_fewest_of_the_run_s_departures_that_predict_a_probe_are_kept():
    """`_model_predicting`: A's probe c is predicted by A beside the run's departures O1, O2, O3 only where O1 is
    among them; each is dropped in turn (the last first) where A still predicts c without it: O1 is kept, alone.
    Where nothing beside A predicts c: None."""
    from checker.diagnose.probes import Probe

    a, o1, o2, o3 = (Mutation(f"option:{x}=1", "reading", "r", x) for x in ("a", "o1", "o2", "o3"))
    probe = Probe({"id": "c", "ruleset": "r", "input": {}}, {"total": 20}, None, {}, {"total": 22}, False)
    me = SimpleNamespace(_moves_probe=lambda p, m, x: True)
    with_o1 = SimpleNamespace(predicts=lambda ruleset, p, m: "option:o1=1" in m.id.split(" + "))
    assert Confirming._model_predicting(me, with_o1, None, probe, a, [o1, o2, o3]) == [o1]
    never = SimpleNamespace(predicts=lambda ruleset, p, m: False)
    assert Confirming._model_predicting(me, never, None, probe, a, [o1, o2, o3]) is None


def test_a_departure_whose_contradicting_probes_the_run_s_other_departures_answer_is_untested_not_contradicted():
    """`_accounted_by_model`: A, contradicted alone by probe c (the engine refused the hand where A lets it win), is
    not borne out beside the run's departures either. Where A beside O predicts c (O refuses that hand: the
    engine's refusal is O's, not evidence against A), the trial is UNTESTED, c held neither way, both saying that O
    answered it; where nothing the run holds predicts c, A stays contradicted (None)."""
    from checker.diagnose.probes import Probe

    a, o = (Mutation(f"option:{x}=1", "reading", "r", f"{x} read otherwise") for x in "ao")
    c = Probe({"id": "c", "ruleset": "r", "input": {}}, {"verdict": "legal"}, None, {}, {"verdict": "illegal"}, False)
    p = Probe({"id": "p", "ruleset": "r", "input": {}}, {"verdict": "legal"}, None, {}, {"verdict": "legal"}, True)
    trial = Trial(CONTRADICTED, (p, c))
    me = SimpleNamespace(components=lambda mid: [a], _model_predicting=lambda e, r, probe, m, model: [o])
    found = Confirming._accounted_by_model(me, None, None, a, trial, [o])
    assert found is not None and found.status == UNTESTED and "o read otherwise" in found.why
    assert [x.holds for x in found.probes] == [True, None] and "o read otherwise" in found.probes[1].elsewhere
    unpredicted = SimpleNamespace(components=lambda mid: [a], _model_predicting=lambda e, r, probe, m, model: None)
    assert Confirming._accounted_by_model(unpredicted, None, None, a, trial, [o]) is None
