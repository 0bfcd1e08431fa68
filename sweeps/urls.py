"""The sweep page of a scenario in the workspace, its result, and saving one of its designs."""

from django.urls import path

from sweeps import views

app_name = "sweeps"

urlpatterns = [
    path("scenarios/<int:pk>/sweep/", views.sweep_page, name="sweep-page"),
    path("scenarios/<int:pk>/sweep/<int:job>/", views.sweep_result_page, name="sweep-result"),
    path("scenarios/<int:pk>/sweep/<int:job>/progress/", views.sweep_progress, name="sweep-progress"),
    path("scenarios/<int:pk>/sweep/<int:job>/save/", views.sweep_save_design, name="sweep-save"),
]
