"""Read-only admin pages (casino.admin_mixins.ReadOnlyAdminMixin): nobody adds, changes or deletes the audit
trail, the ledger, hands, sessions or assignments; each page opens to the roles it names."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory

from accounting.models import JournalEntry
from casino.models import AuditEntry
from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER
from tables.models import DealerAssignment, Hand, TableSession
from tests.factories import make_user

pytestmark = pytest.mark.django_db

#: model -> roles that may view its admin page (beyond the model permission).
VIEWERS = {
    AuditEntry: set(),
    JournalEntry: {ACCOUNTANT, FLOOR_MANAGER},
    Hand: {FLOOR_MANAGER, CROUPIER, ACCOUNTANT},
    DealerAssignment: {FLOOR_MANAGER, ACCOUNTANT},
    TableSession: {FLOOR_MANAGER, ACCOUNTANT},
}


@pytest.mark.parametrize("model", list(VIEWERS), ids=lambda m: m.__name__)
@pytest.mark.parametrize("role", [FLOOR_MANAGER, CROUPIER, ACCOUNTANT])
def test_read_only_pages_refuse_every_write_and_open_to_their_roles(model, role):
    request = RequestFactory().get("/admin/")
    request.user = make_user(f"u-{role}", role)
    model_admin = admin.site._registry[model]
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    assert model_admin.has_view_permission(request) == (role in VIEWERS[model])
    inlines = [inline(model, admin.site) for inline in model_admin.inlines]
    for inline in inlines:
        assert not inline.has_add_permission(request, None) and not inline.has_delete_permission(request, None)
