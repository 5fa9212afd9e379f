"""Engine messages carry an English template and parameters (rules/engines/messages.py).

``str(error)`` stays the English text the other engine tests assert; these tests check the parts the
edge needs to translate it: every raise site marks its template with ``gettext_noop`` (so the catalogue
has it), templates and parameters agree, and amounts keep their cents.
"""

from __future__ import annotations

import ast
import copy
import pickle
import re
from pathlib import Path

import pytest

from rules.engines import errors
from rules.engines.errors import ConfigError, IllegalAction, InvalidAmount, RuleViolation
from rules.engines.messages import Amount, Message, action_word, gettext_noop, render
from rules.engines.money import format_cents

RULES = Path(__file__).resolve().parents[2] / "rules"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _error_classes() -> set[str]:
    """Names of every RuleViolation subclass defined under rules/ (by source, so new ones count)."""
    names = {name for name, obj in vars(errors).items() if isinstance(obj, type) and issubclass(obj, RuleViolation)}
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id in names for b in node.bases):
                names.add(node.name)
    return names


def _calls(name_filter, *, messages_only: bool = False):
    for path in sorted(RULES.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if messages_only and "from rules.engines.messages import" not in text and path.name != "messages.py":
            continue  # another module's own plain gettext_noop marker (e.g. rules/config_fields.py)
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and name_filter(node.func.id):
                yield path.relative_to(RULES.parent), node


def test_every_engine_error_is_raised_with_a_marked_template():
    classes = _error_classes() - {"ConfigError"}
    bad = []
    for path, call in _calls(lambda n: n in classes | {"ConfigError"}):
        pos = 1 if call.func.id == "ConfigError" else 0
        if len(call.args) <= pos:
            continue
        arg = call.args[pos]
        if isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value):
            bad.append(f"{path}:{call.lineno}")
    assert not bad, f"engine errors raised with unmarked text (use gettext_noop): {bad}"


def test_every_marked_template_is_a_literal_whose_placeholders_match_its_params():
    seen = 0
    for path, call in _calls(lambda n: n == "gettext_noop", messages_only=True):
        where = f"{path}:{call.lineno}"
        assert len(call.args) == 1 and isinstance(call.args[0], ast.Constant), f"{where}: template must be a literal"
        template = call.args[0].value
        names = set(PLACEHOLDER.findall(template))
        given = {k.arg for k in call.keywords}
        assert names == given, f"{where}: placeholders {sorted(names)} but params {sorted(given)}"
        stripped = PLACEHOLDER.sub("", template).replace("%%", "")
        assert "%" not in stripped, f"{where}: a bare % (write %%) or a non-%(name)s placeholder"
        seen += 1
    assert seen > 300


def test_the_english_text_is_the_template_filled_in():
    err = IllegalAction(gettext_noop("seat %(seat)s cannot raise: the round is capped at %(cap)s (R6.2)",
                                     seat=3, cap=Amount(4000)), seat=3, rule="R6.2")
    assert str(err) == err.message == "seat 3 cannot raise: the round is capped at 40.00 (R6.2)"
    assert err.template == "seat %(seat)s cannot raise: the round is capped at %(cap)s (R6.2)"
    assert err.params == {"seat": 3, "cap": Amount(4000)} and err.params["cap"].cents == 4000
    assert err.as_dict()["message"] == str(err)


def test_render_translates_nested_messages_and_formats_amounts():
    german = {"seat %(seat)s cannot %(action)s: %(reason)s": "Platz %(seat)s darf nicht %(action)s: %(reason)s",
              "raise": "erhöhen", "the cap is %(cap)s": "das Limit ist %(cap)s"}
    msg = gettext_noop("seat %(seat)s cannot %(action)s: %(reason)s", seat=3, action=action_word("raise"),
                       reason=gettext_noop("the cap is %(cap)s", cap=format_cents(123456)))
    assert msg == "seat 3 cannot raise: the cap is 1234.56"
    text = render(msg, translate=lambda t: german.get(t, t), amount=lambda c: f"{c // 100},{c % 100:02d}")
    assert text == "Platz 3 darf nicht erhöhen: das Limit ist 1234,56"


def test_a_translation_that_lost_a_placeholder_falls_back_to_english():
    msg = gettext_noop("seat %(seat)s folds", seat=5)
    assert render(msg, translate=lambda t: "Platz passt") == "seat 5 folds"


def test_config_error_keeps_field_and_reason_as_params():
    err = ConfigError("lower", gettext_noop("must be more than 0 (R3.1)"))
    assert str(err) == "lower: must be more than 0 (R3.1)"
    assert err.params["field"] == "lower" and err.params["reason"].template == "must be more than 0 (R3.1)"


@pytest.mark.parametrize("cents, text", [(0, "0.00"), (5, "0.05"), (-125, "-1.25"), (4000, "40.00"),
                                         (123456789, "1234567.89")])
def test_amount_text_matches_the_money_edge(cents, text):
    assert Amount(cents) == format_cents(cents) == text


def test_messages_and_amounts_survive_pickle_and_copy():
    err = InvalidAmount(gettext_noop("the ante is %(due)s, not %(amount)s", due=Amount(50), amount=Amount(40)))
    for clone in (pickle.loads(pickle.dumps(err.message)), copy.deepcopy(err.message)):
        assert isinstance(clone, Message) and clone == err.message and clone.params["due"].cents == 50
    assert pickle.loads(pickle.dumps(Amount(-7))).cents == -7


def test_a_plain_text_message_still_works_and_has_no_params():
    err = RuleViolation("100% plain")
    assert str(err) == "100% plain" and err.params == {} and err.template == "100%% plain"
