"""Strict input at the API edge (issue 20): one reading of every request body, or a clear refusal.

* :class:`StrictJSONParser`: JSON only (a form-encoded or multipart body on a JSON endpoint is 415), a key
  sent twice in any object is refused (400) instead of silently keeping the last, and so are ``NaN`` and
  ``Infinity``, which are not JSON, a number of more digits than Python reads, and text that no database
  column can hold (a null character or a lone surrogate, :func:`unstorable_text_at`).
* :class:`StrictInputSerializer`: an input serializer that refuses keys it does not know, by name.
* :class:`IdempotencyKeyField`: printable text only, no control, bidirectional or zero-width characters
  (two keys that look the same must be the same key).
* :class:`StrictIntegerField`: a count or seat number as a JSON integer only (``"6"``, ``8.0`` or ``true`` are
  refused, not read as 6, 8 or 1): counts are exact like amounts.
* :data:`NOTE_MAX_CHARS`: the bound of every free-text note (API and database alike).
"""

from __future__ import annotations

import json
import sys
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


class _NotJSONConstant(ValueError):
    pass


def _no_constant(name: str):
    raise _NotJSONConstant(name)


def unstorable_text_at(data: Any, where: str = "") -> tuple[str, str, int] | None:
    """The first text (a value or a key) in parsed JSON ``data`` holding a character PostgreSQL cannot store: the
    null character U+0000 (refused by ``text`` and ``jsonb``) or a lone surrogate U+D800-U+DFFF (not UTF-8), both
    of which JSON's ``\\u`` escapes can carry. Returns ``(path, character as U+XXXX, position from 1)``, the path
    as ``event.note`` or ``events[1].cards`` (``""`` for the body itself), or None when every text can be stored."""
    if isinstance(data, str):
        position = _unstorable_position(data)
        return None if position is None else (where, f"U+{ord(data[position - 1]):04X}", position)
    if isinstance(data, dict):
        for key, value in data.items():
            path = f"{where}.{_shown(key)}" if where else _shown(key)
            position = _unstorable_position(key)
            if position is not None:
                return path, f"U+{ord(key[position - 1]):04X}", position
            found = unstorable_text_at(value, path)
            if found is not None:
                return found
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found = unstorable_text_at(value, f"{where}[{index}]")
            if found is not None:
                return found
    return None


def _unstorable_position(text: str) -> int | None:
    """Position (from 1) of the first null character or lone surrogate in ``text``; None when there is none."""
    if "\x00" not in text and _encodable(text):
        return None
    return next(i for i, char in enumerate(text, start=1) if char == "\x00" or "\ud800" <= char <= "\udfff")


def _shown(key: str) -> str:
    """A key as a path names it: the characters that cannot be stored (or sent back) as U+FFFD, at most 64."""
    if _unstorable_position(key) is not None:
        key = "".join("\ufffd" if char == "\x00" or "\ud800" <= char <= "\udfff" else char for char in key)
    return key[:64]


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
            data = json.loads(text, object_pairs_hook=_pairs_without_duplicates, parse_constant=_no_constant)
        except _DuplicateKey as exc:
            raise exceptions.ParseError(
                _('the JSON body names the key "%(key)s" twice in one object: send each key once')
                % {"key": str(exc)[:64]}) from None
        except RecursionError:
            raise exceptions.ParseError(_("request body is nested too deeply to be read as JSON")) from None
        except json.JSONDecodeError as exc:  # Python's own text is English: name the place instead
            raise exceptions.ParseError(_("the request body is not valid JSON (line %(line)s, column %(column)s)")
                                        % {"line": exc.lineno, "column": exc.colno}) from None
        except _NotJSONConstant as exc:  # NaN, Infinity, -Infinity
            raise exceptions.ParseError(_("the request body is not valid JSON: %(error)s is not a JSON number")
                                        % {"error": exc}) from None
        except ValueError:  # an integer of more digits than sys.get_int_max_str_digits() (Python's text is English)
            raise exceptions.ParseError(_("the request body holds a number with too many digits (at most %(digits)s)")
                                        % {"digits": sys.get_int_max_str_digits()}) from None
        # In UTF-8 text only a \u escape can carry either character (a raw null is refused by json.loads, a raw
        # surrogate by the strict decoding above); a body in another charset the request names is always walked.
        utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
        found = unstorable_text_at(data) if "\\u" in text or not utf8 else None
        if found is not None:
            where, char, position = found
            if not where:
                raise exceptions.ParseError(
                    _("the request body holds a character that cannot be stored (%(char)s at position %(position)s: "
                      "a null character or half of a surrogate pair): remove it")
                    % {"char": char, "position": position})
            raise exceptions.ParseError(
                _("the text at %(field)s holds a character that cannot be stored (%(char)s at position %(position)s: a "
                  "null character or half of a surrogate pair): remove it")
                % {"field": where, "char": char, "position": position})
        return data


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
