from django.contrib import admin

from catalog.admin import CatalogPartAdmin
from planner.models import Scenario, ScenarioRevision, Server, System


@admin.register(System)
class SystemAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "gpus", "power_kw", "rack_units", "price_usd", "confidence"]


@admin.register(Server)
class ServerAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "role", "power_kw", "rack_units", "price_usd", "confidence"]


class ScenarioRevisionInline(admin.TabularInline):
    model = ScenarioRevision
    fields = ["number", "created_at", "author", "catalog_version"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Scenario)
class ScenarioAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "revision", "updated_at"]
    search_fields = ["name", "owner__username"]
    readonly_fields = ["revision"]
    inlines = [ScenarioRevisionInline]
