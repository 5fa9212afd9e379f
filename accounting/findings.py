"""What a reconciliation finding says, by code, in the reader's language (issue 18).

Reconciliation (:mod:`accounting.services.reconciliation`, :mod:`accounting.services.tamper`) writes each
difference as a :class:`~accounting.models.Discrepancy` with a stable text code (``what_code``, a key of
:data:`FINDING_TEXTS`) and its parameters (``what_params``: hand and entry numbers, seats, pot numbers,
account codes, dates, and the two sides ``expected`` / ``found``: amounts as integer cents, words as
catalogue messages, digests and codes as plain text), stored with
:func:`rules.engines.messages.message_data`. The English text is also stored in ``what`` / ``expected`` /
``found`` (exports, audits, the four-eyes amount read them as before); every page, the admin and the API
show :func:`discrepancy_what` & co., rendered again in the reader's language (``40,00`` in German).

A row without a code (written before this module) shows its stored text, its amounts (``"80.00"``) in the
reader's number format.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from casino.i18n import Amount, Message, message_text
from rules.engines.messages import gettext_noop, message_data, message_from_data, pgettext


def _template(message: Message) -> str:
    """The template of a marked message (its parameters given only for the catalogue's check)."""
    return message.template


#: Every finding's text by code: the English template (the catalogue's msgid) with ``%(name)s`` parameters.
FINDING_TEXTS: dict[str, str] = {
    "foreign_account": _template(gettext_noop("hand #%(hand)s posts to %(account)s of another table", hand=0,
                                              account=0)),
    "unexpected_role": _template(gettext_noop("hand #%(hand)s: a players leg with role '%(role)s'", hand=0, role=0)),
    "seat_leg": _template(gettext_noop("hand #%(hand)s seat %(seat)s: %(role)s on the players account", hand=0,
                                       seat=0, role=0)),
    "leg_without_seat": _template(gettext_noop("hand #%(hand)s: a %(role)s leg without a seat", hand=0, role=0)),
    "hand_entry_unbalanced": _template(gettext_noop(
        "entry %(entry)s of hand #%(hand)s does not balance (legs must sum to zero)", entry=0, hand=0)),
    "pot_award": _template(gettext_noop("hand #%(hand)s: awarded from pot %(pot)s", hand=0, pot=0)),
    "tax": _template(gettext_noop("hand #%(hand)s: Taxe/tax posted to the tax account", hand=0)),
    "fee": _template(gettext_noop("hand #%(hand)s: house fee posted to the fee account", hand=0)),
    "bonus": _template(gettext_noop("hand #%(hand)s: 41 bonus charged to house:bonus_expense", hand=0)),
    "pot_not_cleared": _template(gettext_noop("hand #%(hand)s: the table's pot account nets to zero", hand=0)),
    "void_net": _template(gettext_noop("void hand #%(hand)s: %(account)s must net to zero", hand=0, account=0)),
    "replay_failed": _template(gettext_noop("hand #%(hand)s: the stored events do not replay", hand=0)),
    "missing_entry": _template(gettext_noop("closed hand #%(hand)s has no settlement entry", hand=0)),
    "entry_unbalanced": _template(gettext_noop("journal entry %(entry)s does not balance", entry=0)),
    "pot_not_zero": _template(gettext_noop("%(account)s does not net to zero for gaming day %(day)s", account=0,
                                           day=0)),
    "hand_not_closed": _template(gettext_noop("hand #%(hand)s (id %(id)s) of gaming day %(day)s is still open",
                                              hand=0, id=0, day=0)),
    "event_sequence": _template(gettext_noop("hand #%(hand)s: its events are not numbered 1..%(count)s", hand=0,
                                             count=0)),
    "event_digest": _template(gettext_noop(
        "hand #%(hand)s event %(seq)s: its digest does not match its content and the events before it", hand=0,
        seq=0)),
    "hand_digest": _template(gettext_noop(
        "hand #%(hand)s: the digest of its header and events does not match the stored one", hand=0)),
    "entry_digest": _template(gettext_noop(
        "journal entry %(entry)s (%(key)s): its digest does not match its legs and fields or the entry before it",
        entry=0, key=0)),
    "demo_planted": _template(gettext_noop(
        "demo: a cash envelope of %(amount)s was booked to the wrong table's drop (planted for the walkthrough)",
        amount=0)),
}

#: The role of a leg on a players account, as the finding names it (English: the ledger's role code).
ROLE_WORDS = {"contribution": pgettext("ledger leg role", "contribution"), "award": pgettext("ledger leg role", "award"),
              "returned": pgettext("ledger leg role", "returned"), "fee": pgettext("ledger leg role", "fee"),
              "bonus": pgettext("ledger leg role", "bonus")}
#: The house accounts a void hand must net to zero on (English: the account's last part).
ACCOUNT_WORDS = {"tax": pgettext("ledger account", "tax"), "fee": pgettext("ledger account", "fee"),
                 "bonus_expense": pgettext("ledger account", "bonus_expense"), "pot": pgettext("ledger account", "pot")}
#: Words of the expected / found sides.
NONE = pgettext("finding side", "none")
NO_SUCH_LEG = gettext_noop("no such leg")
A_COMPLETE_HAND = gettext_noop("a complete hand")
CLOSED_OR_VOID = gettext_noop("closed or void")
OPEN = pgettext("hand status", "open")

#: The kinds of finding (``Discrepancy.kind``) in words; a kind not listed shows as stored.
KIND_WORDS: dict[str, str] = {
    "foreign_account": gettext_noop("leg on another table's account"),
    "unexpected_leg": gettext_noop("unexpected leg"),
    "contribution": gettext_noop("contribution"), "award": gettext_noop("award"),
    "returned": gettext_noop("returned bet"), "fee": gettext_noop("fee"), "bonus": gettext_noop("41 bonus"),
    "unbalanced_entry": gettext_noop("entry does not balance"), "pot": gettext_noop("pot award"),
    "tax": gettext_noop("Taxe/tax"), "pot_not_cleared": gettext_noop("pot not cleared"),
    "void_tax": gettext_noop("void hand: Taxe/tax"), "void_fee": gettext_noop("void hand: fee"),
    "void_bonus_expense": gettext_noop("void hand: 41 bonus"), "void_pot": gettext_noop("void hand: pot"),
    "replay_failed": gettext_noop("replay failed"), "missing_entry": gettext_noop("settlement entry missing"),
    "pot_not_zero": gettext_noop("pot account not at zero"), "hand_not_closed": gettext_noop("hand not closed"),
    "event_sequence": gettext_noop("event numbers"), "event_digest": gettext_noop("event digest"),
    "hand_digest": gettext_noop("hand digest"), "entry_digest": gettext_noop("entry digest"),
    "demo_planted": gettext_noop("demo"),
}


@dataclass(frozen=True)
class Finding:
    """One difference: ``kind`` (award, tax, missing_entry...) and ``subject`` (what it is about, part of the
    row's unique check key), the text's ``code`` in :data:`FINDING_TEXTS` and its ``params``, and both
    sides: ``expected`` / ``found`` as an :class:`Amount` (cents), a word (:class:`Message`) or plain text."""

    kind: str
    subject: str
    code: str
    params: Mapping[str, Any]
    expected: Any = ""
    found: Any = ""

    @property
    def what(self) -> Message:
        """The finding's text (``str``: the English, as stored in ``Discrepancy.what``)."""
        return finding_message(self.code, self.params)

    def stored_params(self) -> dict[str, Any]:
        """``what_params`` of the row: the text's parameters and the two sides, as stored data."""
        return {**{key: message_data(value) for key, value in self.params.items()},
                "expected": message_data(self.expected), "found": message_data(self.found)}


def finding_message(code: str, params: Mapping[str, Any]) -> Message:
    """The text of finding ``code`` with ``params`` (a :class:`Message`; ``str`` is the English).
    Raises ``KeyError`` for an unknown code or a missing parameter."""
    return Message(FINDING_TEXTS[code], dict(params))


#: A stored machine amount: optional sign, digits, a point and two decimals (``"80.00"``, ``"-5.00"``).
_MACHINE_AMOUNT = re.compile(r"-?[0-9]+\.[0-9]{2}")


def _stored_side(text: str) -> str:
    """A stored ``expected`` / ``found`` text of a row without a code: an amount in the reader's format."""
    if _MACHINE_AMOUNT.fullmatch(text or ""):
        sign = -1 if text.startswith("-") else 1
        units, cents = text.lstrip("-").split(".")
        return message_text(Amount(sign * (int(units) * 100 + int(cents))))
    return text


def _params(discrepancy: Any) -> dict[str, Any] | None:
    code = getattr(discrepancy, "what_code", "") or ""
    params = getattr(discrepancy, "what_params", None)
    if code not in FINDING_TEXTS or not isinstance(params, dict):
        return None
    return {key: message_from_data(value, date=dt.date.fromisoformat) for key, value in params.items()}


def discrepancy_what(discrepancy: Any) -> str:
    """A discrepancy's ``what`` in the active language (its stored text when it has no known code)."""
    params = _params(discrepancy)
    if params is None:
        return discrepancy.what
    try:
        return message_text(finding_message(discrepancy.what_code, params))
    except (KeyError, ValueError, TypeError):
        return discrepancy.what


def _side(discrepancy: Any, name: str) -> str:
    params = _params(discrepancy)
    if params is None or name not in params:
        return _stored_side(getattr(discrepancy, name))
    value = params[name]
    return message_text(value) if isinstance(value, str) else str(value)


def discrepancy_expected(discrepancy: Any) -> str:
    """A discrepancy's expected side in the active language (amounts ``40,00`` in German)."""
    return _side(discrepancy, "expected")


def discrepancy_found(discrepancy: Any) -> str:
    """A discrepancy's found side in the active language (amounts ``40,00`` in German)."""
    return _side(discrepancy, "found")


def discrepancy_kind(kind: str) -> str:
    """A finding's ``kind`` code in words of the active language; an unknown kind as stored."""
    from django.utils.translation import gettext

    word = KIND_WORDS.get(kind)
    return gettext(word) if word else kind
