"""``python manage.py showdown``: rank a showdown from one JSON document on stdin (issue 3).

Reads the document described in :mod:`rules.engines.showdown` from stdin and writes the result as
one JSON document on stdout. A malformed document or a rule violation (duplicate card, wrong card
count, card not in the deck, unknown game) prints the message on stderr and exits with status 2.

Example::

    echo '{"game": "seven_card_stud", "hands": {"1": "As Kd Qs Jc Th 2c 3d"}}' | python manage.py showdown
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from rules.engines.errors import RuleViolation
from rules.showdown import run_showdown

#: Exit status for bad input (issue 3).
EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = "Rank a showdown: one JSON document on stdin, one JSON document on stdout (exit 2 on bad input)."
    requires_system_checks: list = []
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument("--indent", type=int, default=None, help="pretty-print the output JSON")

    def handle(self, *args, **options):
        stream = options.get("stdin") or sys.stdin
        text = stream.read()
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as err:
            raise CommandError(f"the input is not JSON: {err}", returncode=EXIT_BAD_INPUT) from None
        except (ValueError, RecursionError) as err:  # a number too long for int(), nesting too deep
            reason = "it is nested too deeply" if isinstance(err, RecursionError) else str(err).split(";")[0]
            raise CommandError(f"the input is not JSON the tool can read: {reason}",
                               returncode=EXIT_BAD_INPUT) from None
        try:
            result = run_showdown(doc)
        except RuleViolation as err:
            raise CommandError(err.message, returncode=EXIT_BAD_INPUT) from None
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=options["indent"]))
