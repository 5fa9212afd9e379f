"""Routes under /api/v1/ (each app adds its own ``urls`` module here)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from casino.api_auth import LoginUnlockView, TokenLogoutView, TokenObtainView
from casino.views import ApiRootView, HealthView

urlpatterns = [
    path("", ApiRootView.as_view(), name="api-root"),
    path("health/", HealthView.as_view(), name="health"),
    path("auth/token/", TokenObtainView.as_view(), name="auth-token"),
    path("auth/logout/", TokenLogoutView.as_view(), name="auth-logout"),
    path("auth/unlock/", LoginUnlockView.as_view(), name="auth-unlock"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("rules/", include("rules.urls")),
    path("", include("tables.urls")),
    path("", include("accounting.urls")),
]
