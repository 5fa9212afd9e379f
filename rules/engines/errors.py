"""The one error family of the engines (DESIGN.md "rules/", STYLE.md rule 10).

Every illegal input raises a :class:`RuleViolation` subclass whose ``str()`` is a message a croupier
can act on ("seat 4 cannot check: the bring-in of 5.00 must be called"). Engines raise before they
change anything, so a caught error always leaves the hand as it was.

The message is a :class:`~rules.engines.messages.Message` built by ``gettext_noop(template, **params)``:
its ``str`` is the English text, and it keeps the English ``template`` (the catalogue's msgid) and the
``params`` (seat, action, amounts in cents, rule number, ...), so the edge renders it in the reader's
language (``casino/i18n.py``). The stable machine ``code`` stays the same in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.messages import Message, gettext_noop


class RuleViolation(Exception):
    """Base of every engine error.

    Attributes:
        message: croupier-readable English text, also ``str(error)``; a :class:`Message` (template and
            params) when raised with ``gettext_noop(...)``, which every engine raise site does.
        code: stable machine code (snake_case), e.g. ``"out_of_turn"``; the API puts it in ``code``.
        seat: the seat concerned, if any.
        rule: the spec rule implemented, e.g. ``"R6.3"``, if any.
        extra: JSON-able details for the API's ``extra``.
    """

    code = "rule_violation"

    def __init__(
        self,
        message: str,
        *,
        seat: int | None = None,
        rule: str | None = None,
        code: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.seat = seat
        self.rule = rule
        if code is not None:
            self.code = code
        self.extra = dict(extra or {})

    @property
    def template(self) -> str:
        """The English ``%(name)s`` template of the message (its msgid in the catalogue)."""
        return self.message.template if isinstance(self.message, Message) else self.message.replace("%", "%%")

    @property
    def params(self) -> Mapping[str, Any]:
        """The message's parameters by placeholder name (empty for a plain-text message)."""
        return self.message.params if isinstance(self.message, Message) else {}

    def as_dict(self) -> dict[str, Any]:
        """Return ``{"message", "code", "extra"}`` as the API renders errors (STYLE.md rule 10)."""
        extra = dict(self.extra)
        if self.seat is not None:
            extra.setdefault("seat", self.seat)
        if self.rule is not None:
            extra.setdefault("rule", self.rule)
        return {"message": self.message, "code": self.code, "extra": extra}


class InvalidCard(RuleViolation):
    """A token that is not a card, or a card that is not in the game's deck."""

    code = "invalid_card"


class DuplicateCard(RuleViolation):
    """The same card twice (in one hand, across hands, or already dealt)."""

    code = "duplicate_card"


class WrongCardCount(RuleViolation):
    """A hand or row with the wrong number of cards."""

    code = "wrong_card_count"


class ConfigError(RuleViolation):
    """A game config (limit profile) the engine cannot deal with; ``extra["field"]`` names the key."""

    code = "invalid_config"

    def __init__(self, field: str, reason: str, **kwargs: Any) -> None:
        extra = dict(kwargs.pop("extra", None) or {})
        extra["field"] = field
        super().__init__(gettext_noop("%(field)s: %(reason)s", field=field, reason=reason), extra=extra, **kwargs)
        self.field = field


class OutOfTurn(RuleViolation):
    """A seat acted when it was not its turn."""

    code = "out_of_turn"


class IllegalAction(RuleViolation):
    """An action the rules do not allow now (check facing a bet, a fourth raise, ...)."""

    code = "illegal_action"


class InvalidAmount(RuleViolation):
    """An amount that is malformed or off the limit (not a whole chip unit, over the cap, ...)."""

    code = "invalid_amount"


class HandComplete(RuleViolation):
    """An event after the hand (or deal) has ended."""

    code = "hand_complete"


class UnknownEvent(RuleViolation):
    """An event whose type the engine does not know or whose fields are malformed."""

    code = "unknown_event"
