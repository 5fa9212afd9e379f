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
        cached = set(ROLES) if user.is_superuser else set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        user._casino_roles = cached
    return cached


def has_role(user, *roles: str) -> bool:
    """True if ``user`` holds at least one of ``roles``."""
    return bool(user_roles(user) & set(roles))
