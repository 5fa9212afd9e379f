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


def roles_columns(user_alias: str) -> tuple[str, list[str]]:
    """SQL select-list columns, one per role of :data:`ROLES` in order, each true when the user of the row aliased
    ``user_alias`` is in that role's group, and their parameters: for a query that reads a user to carry its roles
    too (the API token's query, :mod:`casino.language`: one query less on every API call, issue 19). Hand the
    values to :func:`roles_set`."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino import rows

    through = get_user_model().groups.through
    one = (f"EXISTS (SELECT 1 FROM {rows.table(through)} ug INNER JOIN {rows.table(Group)} g ON g.id = ug.group_id "
           f"WHERE ug.{rows.column(through, 'user')} = {user_alias}.id AND g.name = %s)")
    return ", ".join(f"{one} AS role_{k}" for k in range(len(ROLES))), list(ROLES)


def roles_set(user, flags) -> set[str]:
    """Put on ``user`` (read this request) the roles read by :func:`roles_columns` (``flags``: their values in
    order), as :func:`user_roles` answers them (superusers hold every role); return them."""
    held = set(ROLES) if user.is_superuser else {role for role, flag in zip(ROLES, flags) if flag}
    user._casino_roles = held
    return held


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
