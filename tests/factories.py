"""Small shared factories for tests that need a floor (tables, limits, dealers, sessions).

Every function writes through the floor services (so the data is what the product would make) and
needs the database (use the ``db`` fixture or ``@pytest.mark.django_db``). Configs use the spec keys
(stud §13, Forty-one B.9, Capsa A.12) with money as EUR strings.

    table = make_table(game="forty_one")          # closed table, 5 seats
    profile = make_profile(table, ante="5.00")    # the game's default limits, with overrides
    dealer = make_dealer("anna", ["forty_one"])   # a croupier user who is a dealer
    session = open_session(table, floor_user)     # opens the table (profile made if missing)
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from casino.roles import CROUPIER, FLOOR_MANAGER
from tables.models import Dealer, Game, LimitProfile, Table, TableSession

#: Realistic limits per game (the demo's figures): stud split 5/10, ante 1, flat Taxe 2.00;
#: Forty-one 5/10, ante 2, 5 % tax capped at 5.00, 41 bonus 10.00; Capsa 2-4 at 1.00 a unit, 5 % commission.
DEFAULT_CONFIGS: dict[str, dict[str, Any]] = {
    Game.SEVEN_CARD_STUD: {"limit_type": "split", "lower": "5.00", "higher": "10.00", "ante": "1.00",
                           "bring_in_mode": "full_bet", "raise_cap": 3, "taxe_mode": "flat", "taxe_amount": "2.00"},
    Game.FORTY_ONE: {"limits": ["5.00", "10.00"], "ante": "2.00", "tax_rate": "0.05", "tax_cap": {"5/10": "5.00"},
                     "bonus_41_amount": "10.00"},
    Game.CAPSA_SUSUN: {"preset": "western_2_4", "unit_value": "1.00", "fee_mode": "commission", "fee_rate": "0.05"},
}
#: Razz and Hi-Lo are dealt at the stud limits (no open-pair rule in either game).
DEFAULT_CONFIGS[Game.RAZZ] = DEFAULT_CONFIGS[Game.SEVEN_CARD_STUD_HI_LO] = {
    **DEFAULT_CONFIGS[Game.SEVEN_CARD_STUD], "open_pair_option": "off"}
DEFAULT_SEATS = {Game.SEVEN_CARD_STUD: 8, Game.RAZZ: 8, Game.SEVEN_CARD_STUD_HI_LO: 8, Game.FORTY_ONE: 5,
                 Game.CAPSA_SUSUN: 4}
_ALL_GAMES = [g.value for g in Game]


def make_user(username: str, role: str | None = None):
    """A user (password ``pw-for-tests-only``) in ``role``'s group, created once per username."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password("pw-for-tests-only")
        user.save()
    if role:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        user.__dict__.pop("_casino_roles", None)
    return user


def floor_manager(username: str = "floor-fixture"):
    """A floor manager user (the usual ``actor``)."""
    return make_user(username, FLOOR_MANAGER)


def make_table(game: str = Game.SEVEN_CARD_STUD, name: str | None = None, seats: int | None = None,
               status: str = Table.Status.CLOSED) -> Table:
    """A table of ``game`` (default stud) via ``table_create``. ``status`` open/paused also makes a limit
    profile (if missing) and opens the table with a 500.00 float (then pauses it for ``paused``)."""
    from tables.services.floor import table_create, table_pause

    name = name or f"{Game(game).label} {Table.objects.count() + 1}"
    table = table_create(name=name, game=game, seats=seats or DEFAULT_SEATS[game])
    if status != Table.Status.CLOSED:
        open_session(table)
        if status == Table.Status.PAUSED:
            table_pause(table=table)
        table.refresh_from_db()
    return table


def make_profile(table: Table, *, effective_from=None, limit_label: str = "", actor=None, **config: Any) -> LimitProfile:
    """The table's next limit version: :data:`DEFAULT_CONFIGS` of its game updated with ``config``
    (a key set to ``None`` is removed)."""
    from tables.services.floor import limit_profile_create

    raw = {**DEFAULT_CONFIGS[table.game], **config}
    raw = {k: v for k, v in raw.items() if v is not None}
    return limit_profile_create(table=table, config=raw, actor=actor, limit_label=limit_label,
                                effective_from=effective_from)


def make_dealer(username: str, games: list[str] | None = None) -> Dealer:
    """A croupier user ``username`` who is a dealer for ``games`` (default: all three)."""
    from tables.services.floor import dealer_create

    user = make_user(username, CROUPIER)
    existing = Dealer.objects.filter(user=user).first()
    return existing or dealer_create(user=user, games=list(games or _ALL_GAMES))


def open_session(table: Table, actor=None, opening_float: str = "500.00") -> TableSession:
    """Open ``table`` (making a default limit profile first if it has none) and return its session."""
    from tables.services.floor import table_open

    if not LimitProfile.objects.filter(table=table).exists():
        make_profile(table)
    return table_open(table=table, opening_float=opening_float, actor=actor)
