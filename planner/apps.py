from django.apps import AppConfig

from catalog.cache import watch_catalog_rows
from catalog.rows import CatalogSource, catalog_sources


class PlannerConfig(AppConfig):
    name = "planner"
    verbose_name = "Planner: scenarios and GPU systems"
    catalog_sources = [
        CatalogSource("systems", "planner.System", "catalog/systems.yaml"),
        CatalogSource("servers", "planner.Server", "catalog/servers.yaml"),
    ]

    def ready(self):
        # Every app's catalog models, this app's `catalog_sources` above and the others'.
        watch_catalog_rows([source.model_class() for source in catalog_sources()])
