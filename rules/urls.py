"""Routes of the rules app, mounted at /api/v1/rules/ (namespace ``rules``)."""

from django.urls import path

from rules.views import ShowdownView

app_name = "rules"

urlpatterns = [
    path("showdown/", ShowdownView.as_view(), name="showdown"),
]
