"""Routes of the croupier's screen under ``/croupier/`` (issue 15)."""

from django.urls import path

from tables.pages import croupier

urlpatterns = [
    path("", croupier.croupier_home, name="croupier_home"),
    path("tables/<int:table_id>/", croupier.croupier_table, name="croupier_table"),
    path("tables/<int:table_id>/hands/", croupier.croupier_hand_open, name="croupier_hand_open"),
    path("tables/<int:table_id>/floor-call/", croupier.croupier_floor_call, name="croupier_floor_call"),
    path("hands/<int:hand_id>/events/", croupier.croupier_event, name="croupier_event"),
    path("hands/<int:hand_id>/capsa/", croupier.croupier_capsa, name="croupier_capsa"),
]
