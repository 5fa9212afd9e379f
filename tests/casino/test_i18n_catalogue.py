"""German and English (issue 18): the catalogue is complete and every engine message reads in German.

* Every msgid of ``locale/de/LC_MESSAGES/django.po`` has a German msgstr, none is fuzzy, and no German
  text drops (or invents) a placeholder of its English source.
* Every ``gettext_noop(template, **params)`` in the engines and services renders in German with its
  parameters: each value appears in the text, amounts with a decimal comma.
* Every error code the engines define, raised by a real engine call, reads in German with its seat,
  amount (decimal comma) and rule number.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from casino.i18n import format_amount, message_text
from rules.engines import capsa, errors, stud
from rules.engines.cards import parse_card
from rules.engines.errors import RuleViolation
from rules.engines.evaluators.stud import stud_key
from rules.engines.messages import Amount, Message
from rules.engines.phh import loads_phh
from rules.showdown import run_showdown
from tests.rules.test_stud_croupier_errors import bring_in_posted, capped_third, finished
from tests.rules.test_stud_engine_support import Hand, c

ROOT = Path(settings.BASE_DIR)
CATALOGUE = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdfr]|%[sdfr]|\{\{\s*[\w.]+\s*\}\}|\{[\w.]*\}")
AMOUNT_CALLS = {"_m", "format_cents", "Amount"}
SAMPLE_CENTS = 123456


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_every_message_has_a_german_translation_that_keeps_its_placeholders():
    catalogue = polib.pofile(str(CATALOGUE))
    untranslated = [e.msgid for e in catalogue if not e.obsolete and not e.translated()]
    fuzzy = [e.msgid for e in catalogue if "fuzzy" in e.flags]
    lost = []
    for entry in catalogue:
        if entry.msgid_plural:
            pairs = [(entry.msgid, entry.msgstr_plural.get(0, "")), (entry.msgid_plural, entry.msgstr_plural.get(1, ""))]
        else:
            pairs = [(entry.msgid, entry.msgstr)]
        lost += [f"{source!r} -> {german!r}" for source, german in pairs
                 if german and _placeholders(source) != _placeholders(german)]
    assert len(catalogue) > 800
    assert not untranslated, f"{len(untranslated)} messages without German (run make catalog, fill them): {untranslated[:20]}"
    assert not fuzzy, f"fuzzy entries (check them, remove the mark): {fuzzy[:20]}"
    assert not lost, f"German texts that lost or changed a placeholder: {lost[:20]}"


def _marked_templates():
    """Every ``gettext_noop(template, **params)`` of the message helper (rules/ and the services)."""
    for path in sorted(ROOT.glob("*/**/*.py")):
        if ".venv" in path.parts or "tests" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if "rules.engines.messages import" not in text and "casino.i18n import" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "gettext_noop"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def _sample(name: str, value: ast.expr):
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in AMOUNT_CALLS:
        return Amount(SAMPLE_CENTS)
    return f"<{name}>"


def test_every_marked_template_renders_in_german_with_its_parameters():
    german = translation.trans_real.translation("de-at")
    checked, problems = 0, []
    for where, call in _marked_templates():
        template = call.args[0].value
        if not re.search(r"[A-Za-z]{2}", re.sub(r"%\(\w+\)s", "", template)):
            continue  # only placeholders and punctuation ("%(field)s: %(reason)s"): nothing to translate
        params = {k.arg: _sample(k.arg, k.value) for k in call.keywords}
        message = Message(template, params)
        with translation.override("de-at"):
            text = message_text(message)
        if german.gettext(template) == template and template not in SAME_IN_GERMAN:
            problems.append(f"{where}: no German for {template!r}")
        missing = [v for v in params.values() if not isinstance(v, Amount) and v not in text]
        if any(isinstance(v, Amount) for v in params.values()) and ("1234,56" not in text or "1234.56" in text):
            missing.append("amount with decimal comma")
        if missing:
            problems.append(f"{where}: {template!r} -> {text!r} lacks {missing}")
        checked += 1
    assert checked > 500
    assert not problems, "\n".join(problems[:30])


#: English words the house uses unchanged in German.
SAME_IN_GERMAN = {"Ante", "Bring-in", "Taxe", "Naturals", "Standard", "western 2-4", "western 1-6", "Scoring", "Razz",
                  "Seven Card Stud", "Seven Card Stud Hi-Lo", "Capsa Susun",
                  "-%(hi)s", "Natural: %(natural)s", "Flush %(ranks)s"}


def _violation(action) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        action()
    return info.value


#: code -> (what raises it, text the German message must contain); seat, amount and rule where it has them.
CODES = {
    "illegal_action": (lambda: capped_third().ev({"type": "raise", "seat": 3, "to": c(25)}),
                       ["Platz 3 kann nicht erhöhen", "drei Erhöhungen", "20,00", "(R6.2)"]),
    "invalid_amount": (lambda: bring_in_posted().ev({"type": "raise", "seat": 4, "to": c(12)}),
                       ["Platz 4 kann nicht auf 12,00 erhöhen", "10,00", "(R6.1)"]),
    "out_of_turn": (lambda: bring_in_posted().ev({"type": "call", "seat": 1}),
                    ["Platz 1 kann nicht mitgehen", "Platz 4 ist an der Reihe", "(R4.3)"]),
    "hand_complete": (lambda: finished().ev({"type": "call", "seat": 3}), ["Platz 3", "das Spiel ist vorbei"]),
    "unknown_event": (lambda: bring_in_posted().ev({"type": "raise", "seat": 4, "to": "10.00"}),
                      ["Platz 4 kann nicht erhöhen", "ganze Zahl von Cent", "'10.00'"]),
    "invalid_card": (lambda: parse_card("Zz"), ["'Zz' ist keine Karte", "erst Rang, dann Farbe"]),
    "duplicate_card": (lambda: Hand(3).antes().ev({"type": "deal", "seat": 1, "cards": "As Kd 7c"})
                       .ev({"type": "deal", "seat": 2, "cards": "As Qd 6c"}),
                       ["Platz 2 kann nicht As erhalten", "an Platz 1 gegeben", "52-Blatt-Deck", "(R1.1)"]),
    "wrong_card_count": (lambda: stud_key([parse_card(t) for t in ("As", "Kd", "7c", "2h")]),
                         ["ein Stud-Blatt hat 5 bis 7 Karten", "4", "(R2.2)"]),
    "invalid_config": (lambda: stud.build_config({"limit_type": "split", "lower": "0.00", "higher": "10.00",
                                                  "ante": "1.00", "taxe_mode": "flat", "taxe_amount": "1.00"}),
                       ["lower: muss größer als 0 sein", "(R3.1)"]),
    "phh_error": (lambda: loads_phh("variant = 'NT'\n", name="h1.phh"), ["h1.phh: Variante", "ist nicht Seven Card Stud"]),
    "malformed_showdown": (lambda: run_showdown([]), ["das Show-down-Dokument muss ein JSON-Objekt sein", "list"]),
    "insufficient_cover": (lambda: capsa.new_hand(capsa.build_config({"unit_value": "1.00",
                                                                      "max_loss_policy": "require_cover"}),
                                                  {1: 2000, 2: 1999, 3: 2000}, button=1),
                           ["Platz 2 kann nicht mitspielen", "19,99", "20,00", "A.6"]),
}


def _codes_defined() -> set[str]:
    codes = {cls.code for cls in vars(errors).values()
             if isinstance(cls, type) and issubclass(cls, RuleViolation) and cls is not RuleViolation}
    for path in (ROOT / "rules").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'^\s+code = "(\w+)"', text, flags=re.M))
        codes |= set(re.findall(r'\bcode="(\w+)"', text))
    return codes - {RuleViolation.code}  # the base class's fallback: every raise uses a subclass


def test_every_engine_error_code_is_covered_here():
    assert _codes_defined() == set(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_engine_error_code_reads_in_german_with_its_parameters(code):
    action, words = CODES[code]
    error = _violation(action)
    assert error.code == code
    with translation.override("de-at"):
        german = message_text(error.message)
    with translation.override("en"):
        assert message_text(error.message) == str(error)
    assert german != str(error)
    for word in words:
        assert word in german, f"{word!r} not in {german!r} (English: {error})"


@pytest.mark.parametrize("language, text", [("de-at", "40,00"), ("en", "40.00"), ("de-at", "-1,25"),
                                            ("de-at", "1234567,89")])
def test_amounts_follow_the_language(language, text):
    cents = int(text.replace(",", "").replace(".", ""))
    with translation.override(language):
        assert format_amount(cents) == text


@pytest.mark.parametrize(("cards", "english", "german"), [
    ("A♥ K♥ Q♥ J♥", "four of one suit, 41 (hearts)", "vier einer Farbe, 41 (Herz)"),
    ("A♥ A♦ A♣ A♠", "four Aces", "vier Asse"),
    ("K♥ 9♥ 8♦ 7♣", "point value 19", "Punktwert 19"),
])
def test_forty_one_hand_descriptions_read_in_the_readers_language(cards, english, german):
    from django.utils import translation

    from casino.i18n import message_text
    from rules.engines.cards import parse_cards
    from rules.engines.evaluators.forty_one import evaluate

    description = evaluate(parse_cards(cards)).description
    assert str(description) == english
    with translation.override("de-at"):
        assert message_text(description) == german
