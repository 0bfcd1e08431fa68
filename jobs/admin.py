from django.contrib import admin

from jobs.models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    """Jobs as their worker left them: to look at (a stuck queue, a failure), not to edit."""

    list_display = ["pk", "title", "kind", "owner", "status", "progress", "created_at", "finished_at", "worker"]
    list_filter = ["status", "kind"]
    search_fields = ["title", "owner__username", "error"]
    readonly_fields = [field.name for field in Job._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
