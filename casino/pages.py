"""The front door (``/``): a page that sends each role where it works (DESIGN.md "Each role has its place")."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import render


def front_door(request):
    """``GET /``: anonymous users go to the login form; signed-in staff see the places their roles open."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render(request, "front_door.html")
