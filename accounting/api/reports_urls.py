"""Routes of reconciliation, drop counts and tax reports under /api/v1/ (views in ``accounting/api/reports.py``)."""

from django.urls import path

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
]
