from django.apps import AppConfig

from catalog.rows import CatalogSource


class PlannerConfig(AppConfig):
    name = "planner"
    verbose_name = "Planner: scenarios and GPU systems"
    catalog_sources = [
        CatalogSource("systems", "planner.System", "catalog/systems.yaml"),
        CatalogSource("servers", "planner.Server", "catalog/servers.yaml"),
    ]
