"""Strict input at the API edge (issue 20): one reading of every request body, or a clear refusal.

* :class:`StrictJSONParser`: JSON only (a form-encoded or multipart body on a JSON endpoint is 415), a key
  sent twice in any object is refused (400) instead of silently keeping the last, and so are ``NaN`` and
  ``Infinity``, which are not JSON.
* :class:`StrictInputSerializer`: an input serializer that refuses keys it does not know, by name.
* :class:`IdempotencyKeyField`: printable text only, no control, bidirectional or zero-width characters
  (two keys that look the same must be the same key).
* :class:`StrictIntegerField`: a count or seat number as a JSON integer only (``"6"``, ``8.0`` or ``true`` are
  refused, not read as 6, 8 or 1): counts are exact like amounts.
* :data:`NOTE_MAX_CHARS`: the bound of every free-text note (API and database alike).
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, serializers
from rest_framework.parsers import BaseParser

from casino.text_limits import NOTE_MAX_CHARS

__all__ = ["NOTE_MAX_CHARS", "IdempotencyKeyField", "StrictInputSerializer", "StrictIntegerField", "StrictJSONParser",
           "unknown_keys_check"]


class _DuplicateKey(ValueError):
    pass


def _pairs_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _no_constant(name: str):
    raise ValueError(name)


class StrictJSONParser(BaseParser):
    """``application/json`` bodies only; a duplicate key, ``NaN`` or ``Infinity`` is a 400 naming it."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
        except UnicodeDecodeError:
            raise exceptions.ParseError(_("the request body is not %(encoding)s text") % {"encoding": encoding}) \
                from None
        try:
            return json.loads(text, object_pairs_hook=_pairs_without_duplicates, parse_constant=_no_constant)
        except _DuplicateKey as exc:
            raise exceptions.ParseError(
                _('the JSON body names the key "%(key)s" twice in one object: send each key once')
                % {"key": str(exc)[:64]}) from None
        except RecursionError:
            raise exceptions.ParseError(_("request body is nested too deeply to be read as JSON")) from None
        except json.JSONDecodeError as exc:  # Python's own text is English: name the place instead
            raise exceptions.ParseError(_("the request body is not valid JSON (line %(line)s, column %(column)s)")
                                        % {"line": exc.lineno, "column": exc.colno}) from None
        except ValueError as exc:  # NaN, Infinity, -Infinity (_no_constant)
            raise exceptions.ParseError(_("the request body is not valid JSON: %(error)s is not a JSON number")
                                        % {"error": exc}) from None


def unknown_keys_check(data: Any, known: set[str]) -> None:
    """Raise a 400 ``ValidationError`` naming each key of the JSON object ``data`` not in ``known``."""
    if not isinstance(data, dict):
        return
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        listed = ", ".join(sorted(known))
        raise serializers.ValidationError(
            {key[:64]: [_("unknown field (this endpoint takes: %(known)s)") % {"known": listed}] for key in unknown[:10]})


class StrictInputSerializer(serializers.Serializer):
    """An input serializer that refuses unknown keys (``"force: unknown field ..."``) instead of ignoring them,
    so a misspelt or invented option never passes as if it had been understood."""

    def to_internal_value(self, data):
        unknown_keys_check(data, {name for name, field in self.fields.items() if not field.read_only})
        return super().to_internal_value(data)


#: Unicode categories refused in an idempotency key: controls, format characters (bidirectional controls,
#: zero-width spaces and joiners, the byte-order mark), line and paragraph separators, surrogates, private use
#: and unassigned code points.
REFUSED_KEY_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


class IdempotencyKeyField(serializers.CharField):
    """An idempotency key: 1 to ``max_length`` printable characters (leading/trailing spaces are refused,
    not trimmed: a key is compared exactly)."""

    default_error_messages = {
        "invisible": gettext_lazy("the idempotency_key contains an invisible or control character ({char}) at "
                                  "position {position}: use printable characters only"),
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 128)
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        for position, char in enumerate(value, start=1):
            if unicodedata.category(char) in REFUSED_KEY_CATEGORIES or (char.isspace() and char != " "):
                self.fail("invisible", char=f"U+{ord(char):04X}", position=position)
        return value


class StrictIntegerField(serializers.IntegerField):
    """A count, sequence or seat number sent as a JSON integer (``6``), bounded like DRF's ``IntegerField``.

    DRF's field reads the text ``"6"`` and the float ``6.0`` as 6; here they are refused (400, code ``invalid``,
    the field named), as a bool is: an API client that sends the wrong type learns it instead of being guessed at.
    """

    default_error_messages = {
        "not_json_integer": gettext_lazy("send a whole number as a JSON integer such as 6, not {value}"),
    }

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("not_json_integer", value=repr(data)[:40])
        return super().to_internal_value(data)
