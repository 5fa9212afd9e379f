"""URL configuration: the API under /api/v1/, the admin at /admin/, JSON 404 for everything else."""

from django.contrib import admin
from django.urls import include, path, re_path

from casino.errors import json_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("casino.api_urls")),
    # Last: any other URL is a JSON 404 (also under DEBUG, where Django would render an HTML page).
    re_path(r"^(?!static/).*$", json_not_found),
]

handler404 = "casino.errors.json_not_found"
handler500 = "casino.errors.json_server_error"
handler400 = "casino.errors.json_bad_request"
handler403 = "casino.errors.json_permission_denied"
