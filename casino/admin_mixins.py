"""Admin building blocks shared by the apps' admin modules."""

from __future__ import annotations

from casino.roles import has_role


class ReadOnlyAdminMixin:
    """No add, change or delete for anyone (the audit trail, the ledger, hands, sessions, assignments are
    written by services only); viewing for the roles in ``view_roles`` (default none), else as the next
    class in the MRO decides (the model permission, or e.g. a mixin that opens pages by role).

    Put it first among the bases so its denials win. Works for ModelAdmin and inlines alike.
    """

    view_roles: tuple[str, ...] = ()

    def has_module_permission(self, request):
        return has_role(request.user, *self.view_roles) or super().has_module_permission(request)

    def has_view_permission(self, request, obj=None):
        return has_role(request.user, *self.view_roles) or super().has_view_permission(request, obj)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
