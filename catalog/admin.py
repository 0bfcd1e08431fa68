from django.contrib import admin

from catalog.edits import catalog_part_save, catalog_parts_delete
from catalog.models import CatalogVersion


class CatalogPartAdmin(admin.ModelAdmin):
    """Catalog rows: editable by staff, each checked by its part dataclass on save. A save or a
    delete marks the row edited (so `loadcatalog` keeps the edit) and records a catalog version."""

    list_display = ["name", "slug", "vendor", "price_usd", "confidence", "source_date"]
    list_filter = ["confidence", "vendor"]
    search_fields = ["name", "slug", "vendor", "notes"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["edited_by", "edited_at"]

    def save_model(self, request, obj, form, change):
        catalog_part_save(part=obj, author=request.user, created=not change)

    def delete_model(self, request, obj):
        catalog_parts_delete(parts=[obj], author=request.user)

    def delete_queryset(self, request, queryset):
        catalog_parts_delete(parts=queryset, author=request.user)


@admin.register(CatalogVersion)
class CatalogVersionAdmin(admin.ModelAdmin):
    """Catalog versions are recorded, never edited: saved revisions are planned against them."""

    list_display = ["number", "created_at", "reason", "digest"]
    fields = ["number", "created_at", "reason", "digest"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
