from django.urls import path
from rest_framework.routers import DefaultRouter

from fabric.api.views import CableViewSet, SwitchViewSet, TransceiverViewSet
from jobs.api import JobViewSet
from power.api.views import CoolingTypeViewSet, CoolingUnitViewSet, PduViewSet, RackTypeViewSet
from storage.api.views import StorageSystemViewSet
from sweeps.api import SweepDetailView, SweepListView
from workspace.api.views import (
    PlanExportView,
    PlanView,
    ScenarioExportView,
    ScenarioViewSet,
    ServerViewSet,
    SystemViewSet,
    TokenView,
)

app_name = "api"

router = DefaultRouter()
router.register("scenarios", ScenarioViewSet, basename="scenario")
router.register("jobs", JobViewSet, basename="job")
for prefix, viewset in [
    ("systems", SystemViewSet),
    ("servers", ServerViewSet),
    ("switches", SwitchViewSet),
    ("transceivers", TransceiverViewSet),
    ("cables", CableViewSet),
    ("rack-types", RackTypeViewSet),
    ("pdus", PduViewSet),
    ("cooling-types", CoolingTypeViewSet),
    ("cooling-units", CoolingUnitViewSet),
    ("storage-systems", StorageSystemViewSet),
]:
    router.register(f"catalog/{prefix}", viewset, basename=f"catalog-{prefix}")

urlpatterns = [
    path("token/", TokenView.as_view(), name="token"),
    path("plan/", PlanView.as_view(), name="plan"),
    path("plan/export.<str:export_format>", PlanExportView.as_view(), name="plan-export"),
    path(
        "scenarios/<int:pk>/export.<str:export_format>",
        ScenarioExportView.as_view(),
        name="scenario-export",
    ),
    path("sweeps/", SweepListView.as_view(), name="sweep-list"),
    path("sweeps/<int:pk>/", SweepDetailView.as_view(), name="sweep-detail"),
    *router.urls,
]
