"""DRF permission classes, one per role and the combinations endpoints need.

Every endpoint states who may call it by naming one of these. All of them require authentication.
"""

from django.utils.translation import gettext_lazy
from rest_framework.permissions import SAFE_METHODS, BasePermission

from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER, has_role


class _RolePermission(BasePermission):
    roles: tuple[str, ...] = ()
    message = gettext_lazy("your role may not do this")

    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated and has_role(request.user, *self.roles))


class IsFloorManager(_RolePermission):
    """Floor managers only."""

    roles = (FLOOR_MANAGER,)
    message = gettext_lazy("only a floor manager may do this")


class IsCroupier(_RolePermission):
    """Croupiers only."""

    roles = (CROUPIER,)
    message = gettext_lazy("only a croupier may do this")


class IsAccountant(_RolePermission):
    """Accountants only."""

    roles = (ACCOUNTANT,)
    message = gettext_lazy("only an accountant may do this")


class IsCroupierOrFloorManager(_RolePermission):
    """Croupiers and floor managers (e.g. the showdown tool)."""

    roles = (CROUPIER, FLOOR_MANAGER)
    message = gettext_lazy("only a croupier or a floor manager may do this")


class IsAccountantOrFloorManager(_RolePermission):
    """Accountants and floor managers (e.g. ledger corrections)."""

    roles = (ACCOUNTANT, FLOOR_MANAGER)
    message = gettext_lazy("only an accountant or a floor manager may do this")


class IsStaff(_RolePermission):
    """Any of the three roles."""

    roles = (FLOOR_MANAGER, CROUPIER, ACCOUNTANT)
    message = gettext_lazy("only card-room staff may do this")


class FloorManagerWritesStaffReads(BasePermission):
    """Reads for any staff role; writes for floor managers only (tables, limits, rotation)."""

    message = gettext_lazy("only a floor manager may change this")

    def has_permission(self, request, view) -> bool:
        user = request.user
        if not (user and user.is_authenticated):
            return False
        if request.method in SAFE_METHODS:
            return has_role(user, FLOOR_MANAGER, CROUPIER, ACCOUNTANT)
        return has_role(user, FLOOR_MANAGER)
