"""Shared bits of the floor pages: the role gate and turning a service refusal into a page message."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import render

from casino.errors import ApplicationError
from casino.i18n import message_text
from casino.roles import FLOOR_MANAGER, has_role


def floor_only(view):
    """Signed-in floor managers only: anonymous users go to the login form, other roles get a 403 page."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not has_role(request.user, FLOOR_MANAGER):
            return render(request, "tables/floor/forbidden.html", status=403)
        return view(request, *args, **kwargs)

    return wrapped


def refusal(request, err: ApplicationError) -> None:
    """Show a service's refusal as an error message on the next page."""
    messages.error(request, message_text(err.message))


def next_path(request, default: str) -> str:
    """The ``next`` field of a POST if it is a floor page path (never another site), else ``default``."""
    value = request.POST.get("next") or ""
    return value if value.startswith("/floor/") and "//" not in value else default
