"""Routes of reconciliation, drop counts and tax reports under /api/v1/ (views in ``accounting/api/reports.py``)."""

from django.urls import path

from accounting.api import gaming_days
from accounting.api import reports as views

urlpatterns = [
    path("reports/tax/", views.TaxReportView.as_view(), name="report-tax"),
    path("reports/hands/", views.HandExportView.as_view(), name="report-hands"),
    path("reports/jobs/", views.ReportJobListCreateView.as_view(), name="report-job-list"),
    path("reports/jobs/<int:pk>/", views.ReportJobDetailView.as_view(), name="report-job-detail"),
    path("reports/jobs/<int:pk>/download/", views.ReportJobDownloadView.as_view(), name="report-job-download"),
    path("reconciliation/discrepancies/", views.DiscrepancyListView.as_view(), name="discrepancy-list"),
    path("reconciliation/discrepancies/<int:pk>/resolve/", views.DiscrepancyResolveView.as_view(),
         name="discrepancy-resolve"),
    path("reconciliation/runs/", views.ReconciliationRunListView.as_view(), name="reconciliation-run-list"),
    path("reconciliation/runs/<int:pk>/", views.ReconciliationRunDetailView.as_view(), name="reconciliation-run-detail"),
    path("reconciliation/gaming-days/", views.GamingDayReconcileView.as_view(), name="reconciliation-gaming-day"),
    path("drop-counts/", views.DropCountListCreateView.as_view(), name="drop-count-list"),
    path("drop-counts/<int:pk>/sign-off/", views.DropCountSignOffView.as_view(), name="drop-count-sign-off"),
    path("drop-counts/<int:pk>/confirm/", gaming_days.DropCountConfirmView.as_view(), name="drop-count-confirm"),
    path("tronc-counts/", gaming_days.TroncCountListCreateView.as_view(), name="tronc-count-list"),
    path("tronc-counts/<int:pk>/confirm/", gaming_days.TroncCountConfirmView.as_view(), name="tronc-count-confirm"),
    path("approvals/", gaming_days.ApprovalListView.as_view(), name="approval-list"),
    path("approvals/<int:pk>/approve/", gaming_days.ApprovalDecideView.as_view(), name="approval-approve"),
    path("approvals/<int:pk>/reject/", gaming_days.ApprovalDecideView.as_view(approve=False), name="approval-reject"),
    path("gaming-days/<str:day>/", gaming_days.GamingDayView.as_view(), name="gaming-day-detail"),
    path("gaming-days/<str:day>/close/", gaming_days.GamingDayCloseView.as_view(), name="gaming-day-close"),
    path("gaming-days/<str:day>/reopen/", gaming_days.GamingDayReopenView.as_view(), name="gaming-day-reopen"),
]
