"""The edge of the translations: engine and service messages in the reader's language (issue 18).

The engines and services write English ``gettext_noop(template, **params)`` messages
(:mod:`rules.engines.messages`); the API's error handler and the pages render them here through the
project's catalogue (``locale/``) in the active language, amounts in that language's number format
(``40,00`` in German, ``40.00`` in English). The active language comes from :mod:`casino.language`.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext

from rules.engines.messages import Amount, Message, gettext_noop, render

__all__ = ["Amount", "Message", "gettext_noop", "format_amount", "message_text"]


def format_amount(cents: int) -> str:
    """Integer ``cents`` as the active language writes money: ``4000 -> "40,00"`` (de), ``"40.00"`` (en).

    No thousands grouping (a croupier reads ``1234,00``, as the engines write ``1234.00``); exact, no rounding.
    """
    return number_format(Decimal(int(cents)).scaleb(-2), decimal_pos=2, use_l10n=True, force_grouping=False)


def message_text(text: str) -> str:
    """``text`` (a :class:`Message`, an :class:`Amount` or plain text) in the active language.

    A message's template is looked up in the catalogue (``gettext``), its parameters rendered the same way
    (nested messages translated, amounts formatted by :func:`format_amount`); plain text is returned as is.
    """
    return render(text, translate=gettext, amount=format_amount)
