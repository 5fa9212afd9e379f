"""The three staff roles, as Django groups created by a data migration (DESIGN.md "casino/ and the API")."""

FLOOR_MANAGER = "floor_manager"
CROUPIER = "croupier"
ACCOUNTANT = "accountant"
ROLES = (FLOOR_MANAGER, CROUPIER, ACCOUNTANT)


def user_roles(user) -> set[str]:
    """The role names of ``user`` (superusers hold every role). Cached on the user object per request."""
    if not getattr(user, "is_authenticated", False):
        return set()
    cached = getattr(user, "_casino_roles", None)
    if cached is None:
        cached = set(ROLES) if user.is_superuser else _group_names(user.pk)
        user._casino_roles = cached
    return cached


def _group_names(user_id: int) -> set[str]:
    """The role groups user ``user_id`` is in: one plain-SQL query (:mod:`casino.rows`; every API call asks)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino import rows

    through = get_user_model().groups.through
    names = rows.select(
        f"SELECT g.name FROM {rows.table(Group)} g INNER JOIN {rows.table(through)} ug ON ug.group_id = g.id "
        f"WHERE ug.{rows.column(through, 'user')} = %s AND g.name IN ({', '.join(['%s'] * len(ROLES))})",
        [user_id, *ROLES])
    return {name for (name,) in names}


def has_role(user, *roles: str) -> bool:
    """True if ``user`` holds at least one of ``roles``."""
    return bool(user_roles(user) & set(roles))
