"""Floor management routes under /api/v1/ (issue 7)."""

from rest_framework.routers import SimpleRouter

from tables.api import floor, roster

router = SimpleRouter()
router.register("tables", floor.TableViewSet, basename="table")
router.register("limit-profiles", floor.LimitProfileViewSet, basename="limit-profile")
router.register("limit-change-requests", floor.LimitChangeRequestViewSet, basename="limit-change-request")
router.register("dealers", floor.DealerViewSet, basename="dealer")
router.register("rotation-plans", floor.RotationPlanViewSet, basename="rotation-plan")
router.register("table-sessions", floor.TableSessionViewSet, basename="table-session")
router.register("dealer-assignments", floor.DealerAssignmentViewSet, basename="dealer-assignment")
router.register("duty-corrections", roster.DutyCorrectionViewSet, basename="duty-correction")

urlpatterns = router.urls
