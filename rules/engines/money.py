"""Money at the engine boundary: decimal amounts in, integer cents inside (STYLE.md rule 3).

Engines keep every amount as ``int`` cents. Config builders and the services turn the edge's
``Decimal``/string amounts into cents here, once; nothing else converts.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from rules.engines.errors import ConfigError, InvalidAmount
from rules.engines.messages import Amount, Message, gettext_noop

CENTS_PER_UNIT = 100
#: An amount with more than two decimals is refused, never rounded (no rounding happens here).
MAX_DECIMALS = 2
#: What an amount typed as text may look like: ASCII digits, an optional sign and decimal point. No
#: exponent, no ``_``, no other scripts' digits (``Decimal`` alone would read "1_000", "5e1", "１２").
#: "NaN"/"Infinity" are refused by this too.
PLAIN_DECIMAL = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?", re.ASCII)
#: The largest amount accepted anywhere (10 million EUR), so ``1e400`` is refused, not overflowed.
MAX_AMOUNT_CENTS = 1_000_000_000


def _refused(field: str, reason: Message) -> InvalidAmount:
    """The refusal of an amount: ``"<field>: <reason>"``, the reason a message of its own so that a config
    refusal (:func:`config_cents`) can carry it without the field name, translated."""
    return InvalidAmount(gettext_noop("%(field)s: %(reason)s", field=field, reason=reason), extra={"field": field})


def to_cents(value: object, *, field: str = "amount", allow_negative: bool = False, text_only: bool = False) -> int:
    """Convert a decimal amount in EUR (``"12.50"``, ``Decimal("12.5")``, ``12``) to integer cents.

    Floats are refused (they cannot carry money exactly); text must be a plain ASCII decimal
    (:data:`PLAIN_DECIMAL`) and nothing else: a space or a line break around it is refused too (``" 10.00"``,
    ``"10.00\n"``), an amount is exact (a page's typed text goes through ``casino.money.parse_money_input``,
    which reads what a person writes). Raises :class:`InvalidAmount` naming ``field`` for: non-numbers, exponents,
    ``NaN``/``Infinity``, more than two decimals (``1.005``), negative
    amounts unless ``allow_negative``, and amounts above ``MAX_AMOUNT_CENTS``. With ``text_only`` (the API's
    edge, where amounts travel as decimal strings) a number is refused too: a client sending ``1000`` meaning
    cents would otherwise post 1000.00 EUR.
    """
    if isinstance(value, bool) or isinstance(value, float) or (text_only and isinstance(value, int)):
        raise _refused(field, gettext_noop("%(value)s is not an amount; send a decimal string such as \"10.00\"", value=repr(value)))
    if isinstance(value, str) and not PLAIN_DECIMAL.fullmatch(value):
        raise _refused(field, gettext_noop("%(value)s is not an amount; send a decimal string such as \"10.00\"", value=repr(value)))
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise _refused(field, gettext_noop("%(value)s is not a number", value=repr(value))) from None
    if not amount.is_finite():
        raise _refused(field, gettext_noop("%(value)s is not a finite amount", value=repr(value)))
    if amount.adjusted() > 12:
        raise _refused(field, gettext_noop("%(value)s is too large", value=repr(value)))
    if amount != amount.quantize(Decimal(1).scaleb(-MAX_DECIMALS), rounding="ROUND_DOWN"):
        raise _refused(field, gettext_noop("%(value)s has more than two decimals", value=repr(value)))
    cents = int(amount * CENTS_PER_UNIT)
    if cents < 0 and not allow_negative:
        raise _refused(field, gettext_noop("%(value)s must not be negative", value=repr(value)))
    if abs(cents) > MAX_AMOUNT_CENTS:
        raise _refused(field, gettext_noop("%(value)s is too large", value=repr(value)))
    return cents


def config_cents(value: object, field: str) -> int:
    """An amount of a game's configuration (EUR text, ``Decimal`` or ``int``) in integer cents: the one
    config money helper of every game (issue 14). Converts as :func:`to_cents` and raises its refusal as
    :class:`~rules.engines.errors.ConfigError` of ``field``, whose reason leaves out the field name (the
    error carries it): ``ConfigError("ante", "'1.005' has more than two decimals")``."""
    try:
        return to_cents(value, field=field)
    except InvalidAmount as exc:
        reason = exc.message.params.get("reason") if isinstance(exc.message, Message) else None
        raise ConfigError(field, reason if isinstance(reason, str) else exc.message.split(": ", 1)[-1]) from None


def from_cents(cents: int) -> Decimal:
    """Return integer cents as a ``Decimal`` in EUR with exactly two decimals (``1050 -> 10.50``)."""
    return (Decimal(int(cents)) / CENTS_PER_UNIT).quantize(Decimal("0.01"))


def to_eur(value: object, *, field: str = "amount") -> Decimal:
    """An exact EUR amount (str/Decimal/int, sign allowed) as a ``Decimal`` with two places.

    No rounding happens: more than two decimals raise :class:`InvalidAmount` (as :func:`to_cents`).
    """
    return from_cents(to_cents(value, field=field, allow_negative=True))


def format_cents(cents: int) -> Amount:
    """Format cents for a croupier's message: ``500 -> "5.00"``, ``-125 -> "-1.25"``.

    The result is an :class:`~rules.engines.messages.Amount`: a ``str`` that keeps the cents, so a message
    rendered in another language formats it in that language's way (``5,00``)."""
    return Amount(cents)
