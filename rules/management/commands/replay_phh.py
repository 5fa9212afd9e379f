"""``python manage.py replay_phh [--check] FILE...``: replay PHH Seven Card Stud hands (issue 4).

Prints each seat's finishing stack per file. With ``--check`` compares them with the file's
``finishing_stacks`` and exits 1 on any difference, naming the file, the seat and both numbers. A file
the engine cannot replay is reported with the action's index and the reason (exit 1); nothing is
repaired.
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from rules.engines.errors import RuleViolation
from rules.engines.phh import load_phh, replay_phh_hand

#: Exit status when a file fails to replay or (with --check) differs from its recorded stacks.
EXIT_MISMATCH = 1


class Command(BaseCommand):
    help = "Replay PHH stud hands and print finishing stacks; --check compares with finishing_stacks."
    requires_system_checks: list = []

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help=".phh files (variant F7S)")
        parser.add_argument("--check", action="store_true", help="compare with the file's finishing_stacks")

    def handle(self, *args, **options):
        failed = False
        for path in options["files"]:
            try:
                hand = load_phh(path)
                result = replay_phh_hand(hand)
            except (OSError, RuleViolation) as exc:
                self.stderr.write(f"{path}: cannot replay: {exc}")
                failed = True
                continue
            state = result.state
            self.stdout.write(f"{path}:{'' if state.phase == 'complete' else ' (hand not complete)'}")
            for i, seat in enumerate(state.seats):
                self.stdout.write(f"  seat {seat}: {state.stack[i]}")
            if options["check"]:
                recorded = hand.finishing_stacks
                if recorded is None:
                    self.stderr.write(f"{path}: no finishing_stacks to check against")
                    failed = True
                    continue
                for i, seat in enumerate(state.seats):
                    if recorded.get(seat) != state.stack[i]:
                        self.stderr.write(
                            f"{path}: seat {seat} finishes with {state.stack[i]}, recorded {recorded.get(seat)}"
                        )
                        failed = True
        if failed:
            sys.exit(EXIT_MISMATCH)
