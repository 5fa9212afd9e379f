"""Template context shared by every staff page: the sections the signed-in user's roles may open."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER, user_roles

#: (role, path, label): each role's own place (DESIGN.md "Each role has its place").
ROLE_PLACES = (
    (CROUPIER, "/croupier/", _("Table")),
    (FLOOR_MANAGER, "/floor/", _("Floor")),
    (ACCOUNTANT, "/accounting/", _("Accounting")),
)


def role_links(request) -> dict:
    """``{"role_links": [{"url", "label", "active"}]}`` for the roles ``request.user`` holds (staff also get the admin)."""
    user = getattr(request, "user", None)
    roles = user_roles(user) if user is not None else set()
    links = [
        {"url": path, "label": label, "active": request.path.startswith(path)}
        for role, path, label in ROLE_PLACES
        if role in roles
    ]
    if user is not None and getattr(user, "is_staff", False):
        links.append({"url": "/admin/", "label": _("Administration"), "active": request.path.startswith("/admin/")})
    return {"role_links": links}
