"""URLs of the architect's workspace: scenarios, their editor, plan, history and comparison."""

from django.urls import path, re_path

from handoff import nautobot_push_views
from workspace import views
from workspace.compare import views as compare_views
from workspace.editor import views as editor_views

app_name = "workspace"

urlpatterns = [
    path("scenarios/", views.scenario_list, name="scenario-list"),
    path("scenarios/new/", editor_views.scenario_new, name="scenario-new"),
    path("scenarios/preview/", editor_views.scenario_preview, name="scenario-preview"),
    path("scenarios/import/", views.scenario_import, name="scenario-import"),
    path("scenarios/<int:pk>/", views.scenario_detail, name="scenario-detail"),
    path("scenarios/<int:pk>/edit/", editor_views.scenario_edit, name="scenario-edit"),
    path("scenarios/<int:pk>/history/", views.scenario_history, name="scenario-history"),
    path("scenarios/<int:pk>/replan/", views.scenario_replan, name="scenario-replan"),
    path("scenarios/<int:pk>/what-if/", views.scenario_what_if, name="scenario-what-if"),
    path(
        "scenarios/<int:pk>/restore/<int:number>/", views.scenario_restore, name="scenario-restore"
    ),
    path("scenarios/<int:pk>/clone/", views.scenario_clone, name="scenario-clone"),
    path("scenarios/<int:pk>/rename/", views.scenario_rename, name="scenario-rename"),
    path("scenarios/<int:pk>/delete/", views.scenario_delete_view, name="scenario-delete"),
    path("scenarios/<int:pk>/plan.json", views.scenario_plan_json, name="scenario-plan-json"),
    re_path(
        r"^scenarios/(?P<pk>[0-9]+)/document\.(?P<export_format>yaml|json)$",
        views.scenario_document,
        name="scenario-document",
    ),
    re_path(
        r"^scenarios/(?P<pk>[0-9]+)/export\.(?P<export_format>[a-z0-9-]+)/job$",
        views.scenario_export_job,
        name="scenario-export-job",
    ),
    path("scenarios/<int:pk>/push-nautobot/", nautobot_push_views.scenario_push_nautobot,
         name="scenario-push-nautobot"),
    path("compare/", compare_views.scenario_compare, name="scenario-compare"),
    path("scenarios/<int:pk>/compare-phases/", compare_views.scenario_compare_phases, name="scenario-compare-phases"),
]
