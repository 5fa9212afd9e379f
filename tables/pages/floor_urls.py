"""Routes of the floor manager's pages under ``/floor/`` (namespace ``floor``)."""

from django.urls import path

from tables.pages import floor, report, rotation, waiting

app_name = "floor"

urlpatterns = [
    path("", floor.floor_page, name="floor"),
    path("tables/<int:pk>/", floor.table_page, name="table"),
    path("tables/<int:pk>/limits/", floor.table_limits, name="table_limits"),
    path("requests/<int:pk>/<str:decision>/", floor.request_decide, name="request_decide"),
    path("calls/<int:pk>/resolve/", floor.call_resolve, name="call_resolve"),
    path("dealers/", floor.dealers_page, name="dealers"),
    path("dealers/push/", floor.dealer_push_view, name="dealer_push"),
    path("rotation/", rotation.rotation_page, name="rotation"),
    path("rotation/<int:pk>/", rotation.rotation_plan_page, name="rotation_plan"),
    path("rotation/<int:pk>/pdf/", rotation.rotation_plan_pdf, name="rotation_plan_pdf"),
    path("rotation/<int:pk>/<str:action>/", rotation.rotation_plan_action, name="rotation_plan_action"),
    path("list/", waiting.list_page, name="list"),
    path("list/<int:pk>/<str:action>/", waiting.list_action, name="list_action"),
    path("board/", waiting.board_page, name="board"),
    path("report/", report.report_page, name="report"),
    path("report/pdf/", report.report_pdf, name="report_pdf"),
]
