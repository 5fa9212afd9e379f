"""The lockout's authentication backend (issue 20), apart from :mod:`casino.auth` because DRF imports that
module while the apps are still loading, and django-axes' backend needs them loaded."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend


class LockoutBackend(AxesStandaloneBackend):
    """django-axes' lockout check for every login that comes with a request (the API token, the login
    pages). A login without a request (a management command, a test client's ``login``) has no address to
    count and is left to the next backend instead of failing."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
