"""URL configuration: the API under /api/v1/, the admin at /admin/, JSON 404 for everything else."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from casino.errors import json_not_found
from casino.language import language_switch
from casino.pages import front_door
from casino.rules_pages import rules_index, rules_page

urlpatterns = [
    path("", front_door, name="front_door"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("casino.api_urls")),
    # Staff pages: log in and out, the language switch (POST language=de-at|en).
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", language_switch, name="set_language"),  # also saves a signed-in user's choice
    path("i18n/", include("django.conf.urls.i18n")),
    # The croupier's table screen (issue 15).
    path("croupier/", include("tables.pages.urls")),
    # The floor manager's pages (and the public waiting-list board /floor/board/).
    path("floor/", include("tables.pages.floor_urls")),
    # The accountant's pages (issue 17).
    path("accounting/", include("accounting.pages.urls")),
    # The house rules (docs/rules/*.md) as pages: /rules/seven_card_stud/#R6.2 (casino/rules_pages.py).
    path("rules/", rules_index, name="rules_index"),
    path("rules/<slug:page>/", rules_page, name="rules_page"),
    # Last: any other URL is a JSON 404 (also under DEBUG, where Django would render an HTML page).
    re_path(r"^(?!static/).*$", json_not_found),
]

handler404 = "casino.errors.json_not_found"
handler500 = "casino.errors.json_server_error"
handler400 = "casino.errors.json_bad_request"
handler403 = "casino.errors.json_permission_denied"
