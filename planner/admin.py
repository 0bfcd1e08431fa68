from django.contrib import admin

from planner.models import Scenario, ScenarioRevision, Server, System


class CatalogPartAdmin(admin.ModelAdmin):
    """Catalog rows: editable by staff, each checked by its part dataclass on save."""

    list_display = ["name", "slug", "vendor", "price_usd", "confidence", "source_date"]
    list_filter = ["confidence", "vendor"]
    search_fields = ["name", "slug", "vendor", "notes"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(System)
class SystemAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "gpus", "power_kw", "rack_units", "price_usd", "confidence"]


@admin.register(Server)
class ServerAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "role", "power_kw", "rack_units", "price_usd", "confidence"]


class ScenarioRevisionInline(admin.TabularInline):
    model = ScenarioRevision
    fields = ["number", "created_at", "author"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Scenario)
class ScenarioAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "revision", "updated_at"]
    search_fields = ["name", "owner__username"]
    readonly_fields = ["revision"]
    inlines = [ScenarioRevisionInline]
