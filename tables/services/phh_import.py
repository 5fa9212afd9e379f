"""Importing recorded stud hands (PHH: Seven Card Stud, Razz, Hi-Lo) into a table of their game, one file at a time.

Used by ``manage.py import_phh --table NAME FILE...`` and the demo evening. The hand itself is logged
by :func:`tables.services.hands.hand_phh_submit` (the service behind ``POST /api/v1/hands/submit/``
with ``phh``), which replays every action through the engine; this module adds what an import needs
around it:

* **The finishing stacks are the test.** The file is replayed first (pure engine, reader
  :mod:`rules.engines.phh`) and refused unless the hand is complete and every seat ends with exactly
  the file's ``finishing_stacks`` (1 PHH chip = 1 cent). A file without ``finishing_stacks`` is
  refused too: there is nothing to check the replay against. After storing, the stored hand's
  replayed stacks are compared again; a difference rolls the file back.
* **Limits follow the files.** A hand's frozen limit snapshot must be the limits it was played
  under, so when a file's stakes (ante, bring-in, small and big bet under the US-rules settings the
  reader fills in) differ from the table's profile in force, a new profile version is created,
  effective immediately, with the reason ``"imported from PHH <file>"``; files with the same stakes
  reuse it. The new version and the hand are one transaction: a refused file leaves no version.
* **Its own date.** The hand keeps the date (and time, if the file has one) the file records: its
  ``opened_at`` and its gaming day are the recording's (:func:`phh_recorded_at`), never the day of the
  import, so an imported hand never counts in the tax report of the day it was imported.
* **Idempotent.** The submission key is ``phh:`` + the SHA-256 of the file text; importing the same
  file again at the same table stores nothing and returns the hand already imported.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import transaction

from casino.errors import ApplicationError
from casino.i18n import Amount, comma_list, gettext_noop
from rules.engines.errors import RuleViolation
from rules.registry import GAMES
from tables.models import Hand, HandEvent, LimitProfile, Table
from tables.selectors import limit_profile_in_force
from tables.services.phh_time import phh_recorded_at  # noqa: F401  (its old home; the service imports it here)

#: Reason recorded on a limit version created for imported hands.
IMPORT_REASON = "imported from PHH"


@dataclass(frozen=True)
class PhhImport:
    """Result of one file: the stored ``hand``, ``created`` False when it was imported before, the
    ``profile`` version it was logged under and whether that version was made for it."""

    hand: Hand
    created: bool
    profile: LimitProfile
    profile_created: bool


def phh_submission_key(text: str) -> str:
    """The idempotency key of a PHH file's submission: ``phh:`` + 40 hex digits of its SHA-256."""
    return "phh:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def _stacks_line(stacks: dict[int, int]) -> str:
    """``{3: 1200, 4: 800}`` -> "seat 3 12.00, seat 4 8.00" as a message (German "Platz 3 12,00, Platz 4 8,00")."""
    return comma_list([gettext_noop("seat %(seat)s %(stack)s", seat=seat, stack=Amount(cents))
                       for seat, cents in sorted(stacks.items())])


def phh_replay_check(*, text: str, name: str):
    """Read and replay a PHH file; return ``(PhhHand, PhhReplay)`` if it ends at its finishing stacks.

    Raises :class:`ApplicationError`: unreadable file or an action the engine refuses
    (``phh_error``, naming the action), no ``finishing_stacks`` (``phh_no_finishing_stacks``), an
    incomplete hand (``phh_incomplete``), or stacks that differ (``phh_stacks_mismatch``, both sides).
    """
    from rules.engines import stud
    from rules.engines.phh import loads_phh, replay_phh_hand

    try:
        phh = loads_phh(text, name=name)
        replayed = replay_phh_hand(phh)
    except RuleViolation as exc:
        raise ApplicationError(exc.message, code=exc.code, extra=exc.as_dict()["extra"]) from None
    if phh.finishing_stacks is None:
        raise ApplicationError(gettext_noop("%(name)s: the file has no finishing_stacks to check the replay against", name=name),
                               code="phh_no_finishing_stacks")
    if not stud.is_complete(replayed.state):
        raise ApplicationError(gettext_noop("%(name)s: the actions end before the hand is over", name=name), code="phh_incomplete")
    ended = {int(seat): int(cents) for seat, cents in stud.view(replayed.state)["stacks"].items()}
    if ended != phh.finishing_stacks:
        raise ApplicationError(
            gettext_noop("%(name)s: the replay ends at %(stacks_line)s, but the file records %(stacks_line2)s", name=name, stacks_line=_stacks_line(ended), stacks_line2=_stacks_line(phh.finishing_stacks)),
            code="phh_stacks_mismatch", extra={"replayed": ended, "recorded": phh.finishing_stacks})
    return phh, replayed


def phh_limit_label(config: dict) -> str:
    """The label of a limit version made for PHH hands: ``"2000.00/4000.00 ante 500.00 (PHH)"``."""
    return f"{config['lower']}/{config['higher']} Ante {config['ante']} (PHH)"


def _profile_for(*, table: Table, phh, replayed, name: str, actor) -> tuple[LimitProfile, bool]:
    """The table's profile in force if it is the file's limits, else a new version (effective now)."""
    from rules.registry import get_engine
    from tables.services.floor import limit_profile_create

    engine = get_engine(phh.game)
    played = engine.config_to_dict(replayed.config)
    current = limit_profile_in_force(table=table)
    if current is not None:
        try:
            if engine.config_to_dict(engine.build_config(current.config)) == played:
                return current, False
        except RuleViolation:
            pass  # an unusable profile is replaced below
    profile = limit_profile_create(table=table, config=phh.config, actor=actor, limit_label=phh_limit_label(played),
                                   reason=f"{IMPORT_REASON} {name}", chip_unit=played.get("chip_unit", "0.01"))
    return profile, True


def phh_file_import(*, table: Table, text: str, name: str, actor) -> PhhImport:
    """Import one PHH file as a closed hand at the stud ``table``, all or nothing; return :class:`PhhImport`.

    See the module docstring (finishing-stack check, limit versions, idempotency). The table must be
    an open table of the file's game (Seven Card Stud, Razz or Hi-Lo) with room for its players; ``actor``
    must be allowed to log there (a floor manager, or the croupier dealing there). Raises :class:`ApplicationError`.
    """
    from tables.services.hands import hand_phh_submit, hand_state

    if table.game not in {g.name for g in GAMES if g.phh_variant}:
        raise ApplicationError(gettext_noop("a PHH file holds a Seven Card Stud hand; '%(table)s' deals %(get_game_display)s", table=table, get_game_display=table.get_game_display()),
                               code="phh_wrong_game")
    phh, replayed = phh_replay_check(text=text, name=name)
    if phh.game != table.game:
        raise ApplicationError(gettext_noop("%(name)s: a PHH file of %(label)s (%(phh_variant)s); '%(table)s' deals %(get_game_display)s", name=name, label=phh.variant.label, phh_variant=phh.variant.phh_variant, table=table, get_game_display=table.get_game_display()), code="phh_wrong_game")
    key = phh_submission_key(text)
    earlier = HandEvent.objects.select_related("hand__limit_profile").filter(
        hand__table=table, idempotency_key=f"{key}:1").first()
    if earlier is not None:
        return PhhImport(hand=earlier.hand, created=False, profile=earlier.hand.limit_profile, profile_created=False)
    if len(phh.seats) > table.seats:
        raise ApplicationError(gettext_noop("%(name)s: %(n_seats)s players do not fit at '%(table)s' (%(seats)s seats)", name=name, n_seats=len(phh.seats), table=table, seats=table.seats),
                               code="invalid_seats")
    with transaction.atomic():
        profile, profile_created = _profile_for(table=table, phh=phh, replayed=replayed, name=name, actor=actor)
        hand, _state = hand_phh_submit(table=table, text=text, idempotency_key=key, actor=actor)
        stored = {int(seat): int(cents) for seat, cents in hand_state(hand=hand)["stacks"].items()}
        if hand.status != Hand.Status.CLOSED or stored != phh.finishing_stacks:
            raise ApplicationError(
                gettext_noop("%(name)s: the stored hand ends at %(stacks_line)s, not at the recorded %(stacks_line2)s; nothing was imported", name=name, stacks_line=_stacks_line(stored), stacks_line2=_stacks_line(phh.finishing_stacks)), code="phh_stacks_mismatch")
    return PhhImport(hand=hand, created=True, profile=profile, profile_created=profile_created)
