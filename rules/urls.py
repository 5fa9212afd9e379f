"""Routes of the rules app under /api/v1/rules/ (the showdown tool)."""

app_name = "rules"
urlpatterns: list = []
