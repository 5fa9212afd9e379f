"""Posting a hand's money to the ledger: one balanced entry per closed hand, one per voided hand.

The ledger convention (shared with reconciliation; amounts EUR = cents / 100 via
:func:`rules.engines.money.from_cents`, zero amounts not posted; sign: > 0 into the account):

==========================  ==============================  ============================  ================
what (engine Settlement)    debit / credit                  role                          seat / pot_index
==========================  ==============================  ============================  ================
contribution per seat       players -c, pot +c              ``contribution``              seat
award per pot per seat      pot -a, players +a              ``award``                     seat, pot index
returned uncalled bet       pot -r, players +r              ``returned``                  seat
tax (stud Taxe, 41 tax)     pot -t, tax +t                  ``tax``                       -
Capsa house fee per seat    players -f, fee +f              ``fee``                       seat
Forty-one 41 bonus          house:bonus_expense -b,         ``bonus``                     seat
                            players +b
==========================  ==============================  ============================  ================

Capsa: the engine's Settlement already gives what each seat pays (``contributions``) and receives
(``awards``) from the pairwise transfers, so the pot clears within the entry. Every table's pot account
therefore nets to zero per hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from accounting.models import Account, JournalEntry
from accounting.services.ledger import (
    LedgerLine,
    account_for_house,
    accounts_for_table,
    accounts_with_chain_head,
    journal_entry_post,
)
from casino.errors import ApplicationError
from casino.i18n import gettext_noop
from rules.engines.base import Settlement
from rules.engines.money import from_cents


def _player_ref(hand, seat: int) -> str:
    info = (hand.seats or {}).get(str(seat)) or {}
    return info.get("player_ref") or ""


def _pair(lines: list[LedgerLine], *, out_of, into, cents: int, role: str, seat: int | None = None,
          player_ref: str = "", pot_index: int | None = None) -> None:
    """Append the two legs moving ``cents`` out of ``out_of`` into ``into`` (nothing for 0)."""
    if cents == 0:
        return
    if cents < 0:
        raise ApplicationError(gettext_noop("negative %(role)s of %(cents)s cents for seat %(seat)s: the engine result is not postable", role=role, cents=cents, seat=seat),
                               code="invalid_settlement")
    amount = from_cents(cents)
    for account, signed in ((out_of, -amount), (into, amount)):
        lines.append(LedgerLine(account=account, amount=signed, role=role, seat=seat, player_ref=player_ref,
                                pot_index=pot_index))


def settlement_lines(*, hand, settlement: Settlement, chain_lock: bool = False,
                     accounts: Mapping[str, Account] | None = None) -> list[LedgerLine]:
    """The legs of a closed hand's entry, per the convention in the module docstring.

    Awards are posted per pot from ``settlement.pot_awards`` when the engine gives them (their per-seat
    sums must equal ``awards``), else per seat without a pot index (Capsa). Raises
    :class:`ApplicationError` (``invalid_settlement``) if the Settlement does not balance or its per-pot
    awards disagree with its awards; never posts a partial entry. ``chain_lock``: the accounts' query takes the
    ledger's chain lock too (:func:`accounting.services.ledger.accounts_for_table`), for a posting that follows
    in this transaction. ``accounts``: the table's accounts read already (:func:`settlement_purposes`' purposes), no
    query then.
    """
    try:
        settlement.check_balanced()
    except AssertionError as exc:
        raise ApplicationError(gettext_noop("hand %(hand)s: %(exc)s", hand=hand, exc=exc), code="invalid_settlement") from None
    if accounts is None:
        accounts = accounts_for_table(hand.table, settlement_purposes(settlement), chain_lock=chain_lock)  # one query
    players, pot = accounts["players"], accounts["pot"]
    lines: list[LedgerLine] = []
    for seat, cents in sorted(settlement.contributions.items()):
        _pair(lines, out_of=players, into=pot, cents=cents, role="contribution", seat=seat,
              player_ref=_player_ref(hand, seat))
    per_pot = [(int(i), int(s), int(c)) for i, s, c in settlement.pot_awards]
    if per_pot:
        totals: dict[int, int] = defaultdict(int)
        for _, seat, cents in per_pot:
            totals[seat] += cents
        wanted = {s: c for s, c in settlement.awards.items() if c}
        if {s: c for s, c in totals.items() if c} != wanted:
            raise ApplicationError(gettext_noop("hand %(hand)s: the per-pot awards %(dict)s do not add up to the awards %(wanted)s", hand=hand, dict=dict(totals), wanted=wanted),
                                   code="invalid_settlement")
        for pot_index, seat, cents in sorted(per_pot):
            _pair(lines, out_of=pot, into=players, cents=cents, role="award", seat=seat,
                  player_ref=_player_ref(hand, seat), pot_index=pot_index)
    else:
        for seat, cents in sorted(settlement.awards.items()):
            _pair(lines, out_of=pot, into=players, cents=cents, role="award", seat=seat,
                  player_ref=_player_ref(hand, seat))
    for seat, cents in sorted(settlement.returned.items()):
        _pair(lines, out_of=pot, into=players, cents=cents, role="returned", seat=seat,
              player_ref=_player_ref(hand, seat))
    if settlement.tax:
        _pair(lines, out_of=pot, into=accounts["tax"], cents=settlement.tax, role="tax")
    if any(settlement.fees.values()):
        fee = accounts["fee"]
        for seat, cents in sorted(settlement.fees.items()):
            _pair(lines, out_of=players, into=fee, cents=cents, role="fee", seat=seat,
                  player_ref=_player_ref(hand, seat))
    if any(settlement.bonus.values()):
        expense = account_for_house("bonus_expense")
        for seat, cents in sorted(settlement.bonus.items()):
            _pair(lines, out_of=expense, into=players, cents=cents, role="bonus", seat=seat,
                  player_ref=_player_ref(hand, seat))
    return lines


def settlement_purposes(settlement: Settlement) -> list[str]:
    """The table account purposes the legs of ``settlement`` use (:func:`settlement_lines`)."""
    return ["players", "pot"] + (["tax"] if settlement.tax else []) + (["fee"] if any(settlement.fees.values()) else [])


def settlement_moves_money(settlement: Settlement) -> bool:
    """True when ``settlement`` moves any money (a non-zero contribution, award, per-pot award, returned
    bet, tax, fee or bonus), i.e. when :func:`settlement_lines` has legs and a closed hand gets an entry.
    A hand in which nothing changes hands (e.g. a Capsa deal where every pair scores level) moves none."""
    per_seat = (settlement.contributions, settlement.awards, settlement.returned, settlement.fees, settlement.bonus)
    return bool(settlement.tax or any(any(m.values()) for m in per_seat)
                or any(cents for _pot, _seat, cents in settlement.pot_awards))


def hand_settlement_post(*, hand, settlement: Settlement, actor=None, writes=None) -> JournalEntry | None:
    """Post the one ``hand_settlement`` entry of a closed hand (key ``hand:{id}:settlement``); return it.

    Call inside the transaction that closes the hand. Idempotent: posting again returns the stored
    entry. A hand in which no money moved (every amount zero) posts nothing and returns ``None``.
    The ledger's chain lock is taken, and on PostgreSQL the chain's head read, with the accounts' read (one query,
    :func:`accounting.services.ledger.accounts_with_chain_head`); ``writes`` (:class:`casino.rows.Writes`) takes the
    entry's and the legs' INSERTs, sent by the caller with its other writes (issue 19).
    """
    key = f"hand:{hand.pk}:settlement"
    if not settlement_moves_money(settlement):
        return None
    accounts, head = accounts_with_chain_head(hand.table, settlement_purposes(settlement), idempotency_key=key,
                                              gaming_day=hand.gaming_day)
    lines = settlement_lines(hand=hand, settlement=settlement, accounts=accounts)
    if not lines:
        return None
    memo = f"{hand.table} hand #{hand.number} ({hand.game})"
    return journal_entry_post(
        lines=lines, idempotency_key=key, memo=memo,
        kind=JournalEntry.Kind.HAND_SETTLEMENT, hand=hand, table=hand.table, gaming_day=hand.gaming_day, actor=actor,
        chain_locked=True, writes=writes, chain_head=head,
    )


def hand_void_post(*, hand, contributions: Mapping[int, int], reason: str, actor=None) -> JournalEntry | None:
    """Post the ``hand_void`` entry of a voided hand (key ``hand:{id}:void``): the house rules give every
    contribution back and take no tax (stud R12.4, Forty-one misdeal, Capsa A.5 misdeal), so per seat
    ``players -c / pot +c`` (role ``contribution``) and ``pot -c / players +c`` (role ``refund``).

    ``contributions`` maps seat to cents put in so far. Returns ``None`` when nothing was put in.
    """
    table = hand.table
    accounts = accounts_for_table(table, ["players", "pot"])
    players, pot = accounts["players"], accounts["pot"]
    lines: list[LedgerLine] = []
    for seat, cents in sorted((int(s), int(c)) for s, c in contributions.items()):
        _pair(lines, out_of=players, into=pot, cents=cents, role="contribution", seat=seat,
              player_ref=_player_ref(hand, seat))
    for seat, cents in sorted((int(s), int(c)) for s, c in contributions.items()):
        _pair(lines, out_of=pot, into=players, cents=cents, role="refund", seat=seat,
              player_ref=_player_ref(hand, seat))
    if not lines:
        return None
    return journal_entry_post(
        lines=lines, idempotency_key=f"hand:{hand.pk}:void", memo=f"{table} hand #{hand.number} void: {reason}"[:255],
        kind=JournalEntry.Kind.HAND_VOID, hand=hand, table=table, gaming_day=hand.gaming_day, actor=actor,
        reason=reason,
    )
