"""Routes of the tables app under /api/v1/: floor management and hand logging."""

from django.urls import include, path

urlpatterns = [
    path("", include("tables.api.floor_urls")),
    path("", include("tables.api.hands_urls")),
]
