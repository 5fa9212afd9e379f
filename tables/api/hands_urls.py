"""Routes of hand logging under /api/v1/ (issue 8); see :mod:`tables.api.hands`."""

from django.urls import path

from tables.api import hands

urlpatterns = [
    path("hands/", hands.HandListOpenView.as_view(), name="hand-list"),
    path("hands/submit/", hands.HandSubmitView.as_view(), name="hand-submit"),
    path("hands/<int:pk>/", hands.HandDetailView.as_view(), name="hand-detail"),
    path("hands/<int:pk>/events/", hands.HandEventsView.as_view(), name="hand-events"),
    path("hands/<int:pk>/events/batch/", hands.HandEventsBatchView.as_view(), name="hand-events-batch"),
    path("hands/<int:pk>/close/", hands.HandCloseView.as_view(), name="hand-close"),
    path("hands/<int:pk>/void/", hands.HandVoidView.as_view(), name="hand-void"),
]
