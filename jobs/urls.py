"""Pages of the signed-in user's background jobs."""

from django.urls import path

from jobs import views

app_name = "jobs"

urlpatterns = [
    path("", views.job_list_page, name="job-list"),
    path("<int:pk>/", views.job_detail, name="job-detail"),
    path("<int:pk>/progress/", views.job_progress, name="job-progress"),
    path("<int:pk>/download", views.job_download, name="job-download"),
    path("<int:pk>/cancel/", views.job_cancel_page, name="job-cancel"),
]
