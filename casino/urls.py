"""URL configuration: the API under /api/v1/, the admin at /admin/."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("casino.api_urls")),
]

handler404 = "casino.errors.json_not_found"
handler500 = "casino.errors.json_server_error"
handler400 = "casino.errors.json_bad_request"
handler403 = "casino.errors.json_permission_denied"
