"""Routes of the accountant's pages under /accounting/ (views in :mod:`accounting.pages.views`)."""

from django.urls import path

from accounting.pages import views

urlpatterns = [
    path("", views.day_list, name="accounting-days"),
    path("charts/30-days.svg", views.chart_30_days, name="accounting-chart-30"),
    path("days/<str:date>/", views.day_detail, name="accounting-day"),
    path("days/<str:date>/progress/", views.day_progress, name="accounting-day-progress"),
    path("days/<str:date>/chart.svg", views.chart_day, name="accounting-chart-day"),
    path("days/<str:date>/report.<str:fmt>", views.day_report, name="accounting-day-report"),
    path("days/<str:date>/<str:action>/", views.day_action, name="accounting-day-action"),
]
