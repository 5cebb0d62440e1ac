"""Payments: who pays the winner how much, from the settlement section of the spec.

`Payments.pay` returns four score changes in seat order relative to the winner: 0 the winner, 1 the next
player (downstream), 2 across, 3 the previous player (upstream). They sum to zero.
"""
from __future__ import annotations

from typing import Any, Mapping

from checker.engine.hand import WIN_BY, Hand
from checker.spec.bind import ContractTerms, LiabilityTerms, SettlementTerms


def _seat_terms(settlement: SettlementTerms, win_by: str, discarder: int | None) -> tuple[tuple[int, int], ...]:
    """base_plus_points: for seats 1-3, how many times each pays the base and the hand's points."""
    rule = _payers(settlement, win_by)
    out = []
    for seat in (1, 2, 3):
        if "each_opponent" in rule:
            terms = rule["each_opponent"]
        elif seat == discarder:
            terms = rule["discarder"]
        else:
            terms = rule["others"]
        n_base = len([t for t in terms if t == "base"])
        out.append((n_base, len(terms) - n_base))
    return tuple(out)


def _payers(settlement: SettlementTerms, win_by: str) -> Mapping[str, Any]:
    """Who pays for a win of this kind (checker.spec.bind: a robbed kong pays as a discard unless the spec says
    otherwise; the schema requires self_draw and discard, so a loaded spec always names them)."""
    rule = settlement.payers.get(win_by)
    if rule is None:
        raise ValueError(f"the settlement names no payers for a {win_by.replace('_', ' ')} win")
    return rule


def _role_shares(rule: Mapping[str, Any]) -> tuple[int, int, int]:
    """shares: (each opponent's, the discarder's, the others') shares; -1 for each opponent's when the rule
    names the discarder and the others instead. A role the rule leaves out pays 0."""
    if "each_opponent" in rule:
        return int(rule["each_opponent"]), 0, 0
    return -1, int(rule.get("discarder", 0)), int(rule.get("others", 0))


def liability_holds(liability: LiabilityTerms, hand: Hand) -> bool:
    """Whether a hand already known to count one of the liability's patterns is liable (包): a discard win with
    enough claimed (exposed) sets, without the flag that exempts it (settlement.liability.exempt_flag)."""
    if hand.win_by != "discard":
        return False
    if liability.exempt_flag and liability.exempt_flag in hand.flags:
        return False
    claimed = 0
    for m in hand.melds:
        if not m.concealed:
            claimed += 1
    return claimed >= liability.claimed_sets


class Payments:
    """A settlement bound to option values (checker.spec.bind), paying many hands: base_plus_points reads who
    pays what once per way of winning and discarder."""

    def __init__(self, settlement: SettlementTerms, loss_limit: int | None = None,
                 payment_limit: tuple[int, str] | None = None):
        if settlement.method not in ("base_plus_points", "shares"):
            raise ValueError(f"unknown settlement method {settlement.method!r}")
        self.settlement = settlement
        self.shares = settlement.method == "shares"
        self.base: int = settlement.base
        self.base_counter: str = settlement.base_counter
        # shares: the terms of one share under the chosen options, and the most any payer loses in the hand
        # on the hand's value (None: no such limit; the scorer reads it from the steps: single-hand limit)
        self.per_share: tuple[str, ...] = settlement.per_share
        self.n_base = len([t for t in self.per_share if t == "base"])
        self.n_value = len(self.per_share) - self.n_base
        # a share of a hand settled directly (清一色 1勒 …) carries its base terms (false: the 勒 alone)
        self.direct_base: bool = settlement.direct_base
        self.loss_limit = loss_limit
        # (the most, "share" or "payer"): a single-hand limit that bounds each share, or each payer's whole payment,
        # 底分 included (the outer_limit step's `bounds: payment`); None: none
        self.payment_limit = payment_limit
        self._terms: dict[tuple[str, int | None], tuple[tuple[int, int], ...]] = {}
        self._roles: dict[str, tuple[int, int, int]] = {}
        self.contract: ContractTerms | None = None
        self.liability: LiabilityTerms | None = None
        if self.shares:
            self._roles = {win_by: _role_shares(_payers(settlement, win_by)) for win_by in WIN_BY}
            self.contract = settlement.contract
            self.liability = settlement.liability

    def pay(self, hand: Hand, points: int, liable: bool = False, direct: bool = False) -> tuple[int, ...]:
        """The four score changes for `hand` won with `points`; `liable`: the hand counts one of the
        liability's patterns (the scorer knows its fans), so the liability applies if the hand meets it;
        `direct`: the hand settled directly (the scoring's direct step)."""
        if self.shares:
            return self.share_payments(hand, points, liable, direct)
        base = self.base
        (b1, p1), (b2, p2), (b3, p3) = self.seat_terms(hand.win_by, hand.discarder)
        paid1, paid2, paid3 = b1 * base + p1 * points, b2 * base + p2 * points, b3 * base + p3 * points
        return (paid1 + paid2 + paid3, -paid1, -paid2, -paid3)

    def seat_terms(self, win_by: str, discarder: int | None) -> tuple[tuple[int, int], ...]:
        """base_plus_points: for seats 1-3, how many times each pays the base and the hand's points, for a win
        of this kind with this discarder."""
        key = (win_by, discarder)
        terms = self._terms.get(key)
        if terms is None:
            terms = self._terms[key] = _seat_terms(self.settlement, win_by, discarder)
        return terms

    def roles(self, win_by: str) -> tuple[int, int, int]:
        """shares: (each opponent's, the discarder's, the others') shares for a win of this kind; -1 for each
        opponent's when the rule names the discarder and the others instead."""
        return self._roles[win_by]

    def share_payments(self, hand: Hand, value: int, liable: bool = False, direct: bool = False) -> tuple[int, ...]:
        """Each payer pays a number of shares; one share is the sum of the `per_share` terms (base: 底分, or the
        hand's `base_counter` when given, none on a `direct` settlement unless `direct_base`; value: the hand's
        value). A liable hand (包) is paid by the discarder
        for all; a contract (承包) between the winner and another seat, named by the contract's partner counter,
        then changes who pays how many shares. With a `loss_limit`, the value terms of all a payer's shares
        together are at most that much; with a `payment_limit`, each share or each payer's whole payment, 底分
        included."""
        base = self.base
        if direct and not self.direct_base:
            base = 0
        elif self.base_counter:
            base = hand.counter(self.base_counter, base)
        share = self.n_base * base + self.n_value * value
        liability = self.liability
        if liable and liability is not None and liability_holds(liability, hand):
            shares = _role_paid(hand, (-1, liability.discarder, liability.others))
        else:
            liability = None
            shares = _role_paid(hand, self._roles[hand.win_by])
        contract = self.contract
        if contract is not None:
            partner = contract_partner(contract, hand)
            if partner:
                with_contract = liability.with_contract if liability is not None else "contract"
                if with_contract == "liability":  # 包 prices it: the discarder pays what a self-draw would get
                    assert hand.discarder is not None  # (a liable hand is a discard win)
                    shares = [0, 0, 0, 0]
                    shares[hand.discarder] = contract_self_draw(contract, hand)
                elif with_contract == "both":  # 包's shares, and the contract's shares of the discard beside them
                    paid = _role_paid(hand, self._roles[hand.win_by])
                    contract_shares(contract, hand, partner, paid)
                    shares = [a + b for a, b in zip(shares, paid)]
                else:  # the contract prices it as any discard win
                    contract_shares(contract, hand, partner, shares)
        loss_limit = self.loss_limit
        if self.payment_limit is not None:  # the limit takes the 底分 in: each share, or a payer's whole payment
            top, per = self.payment_limit
            paid = [-n * min(share, top) for n in shares] if per == "share" else \
                [-min(n * share, top) for n in shares]
        elif loss_limit is None:
            paid = [-n * share for n in shares]
        else:  # the limit bounds the value terms a payer pays over all its shares; base terms stay outside it
            n_value = self.n_value
            paid = [-(n * (share - n_value * value) + min(n * n_value * value, loss_limit)) for n in shares]
        paid[0] = -sum(paid[1:])
        return tuple(paid)


def _role_paid(hand: Hand, roles: tuple[int, int, int]) -> list[int]:
    """The shares each seat pays (seat 0, the winner, none) under (each opponent's, the discarder's, the others')
    shares (`Payments.roles`; each opponent's -1: the discarder and the others)."""
    each, by_discarder, by_others = roles
    shares = [0, 0, 0, 0]
    for seat in (1, 2, 3):
        if each >= 0:
            shares[seat] = each
        elif seat == hand.discarder:
            shares[seat] = by_discarder
        else:
            shares[seat] = by_others
    return shares


def contract_self_draw(contract: ContractTerms, hand: Hand) -> int:
    """The shares a self-drawn win under the contract collects: the partner's (times the mutual factor) and the
    other two's."""
    return contract.self_draw * mutual_factor(contract, hand) + 2 * contract.self_draw_others


def mutual_factor(contract: ContractTerms, hand: Hand) -> int:
    """How many times the contract's part counts: its mutual factor where the relation runs both ways (flag
    contract_mutual's place, `mutual_flag`), else once."""
    return contract.mutual_factor if contract.mutual_flag in hand.flags else 1


def claimed_from(hand: Hand, calls: int) -> int:
    """The seat the winner's melds show `calls` or more claims from (a chow, pung or kong taken from its
    discards; 0: none, or no number given)."""
    if calls <= 0:
        return 0
    shown = [0, 0, 0, 0]
    for meld in hand.melds:
        if meld.source:
            shown[meld.source] += 1
    return next((seat for seat in (1, 2, 3) if shown[seat] >= calls), 0)


def contract_partner(contract: ContractTerms, hand: Hand) -> int:
    """承包's partner: the seat the partner counter names, else the seat the winner's melds show `calls` claims
    from (如果吃碰杠一家…超过3次（包括3次），则承包: the claims make the contract whether or not it is named)."""
    return hand.counter(contract.partner_counter) or claimed_from(hand, contract.calls)


def contract_shares(contract: ContractTerms, hand: Hand, partner: int, shares: list[int]) -> None:
    """承包: the winner and seat `partner` made three or more calls between them. The contract's part is
    counted twice when the relation runs both ways (flag contract_mutual)."""
    factor = mutual_factor(contract, hand)
    if hand.win_by == "self_draw":
        others = contract.self_draw_others
        for seat in (1, 2, 3):
            shares[seat] = others
        shares[partner] = contract.self_draw * factor
    elif hand.win_by == "robbing_kong":  # the konger already pays its shares; the partner adds the contract's
        added = contract.robbing_kong_konger if partner == hand.discarder else contract.robbing_kong
        shares[partner] += added * factor
    elif hand.discarder == partner:
        shares[partner] = contract.discard * factor
    elif hand.discarder is None:
        raise ValueError("a discard win needs a discarder")
    elif contract.double_win_flag and contract.double_win_flag in hand.flags:
        # 一炮两响: the partner won on the same discard; the discarder alone pays this winner (1 share ready,
        # 2 not), and the partner, a winner too, pays nothing
        ready = contract.ready_flag in hand.flags
        shares[hand.discarder] = contract.double_win_ready if ready else contract.double_win_not_ready
        shares[partner] = 0
    elif contract.ready_flag in hand.flags:
        shares[hand.discarder] = contract.third_party_ready
        shares[partner] = contract.third_party_ready * factor
    else:
        shares[hand.discarder] = contract.third_party_not_ready
