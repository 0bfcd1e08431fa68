from django.apps import AppConfig

from catalog.cache import watch_catalog_rows
from catalog.rows import catalog_sources


class CatalogConfig(AppConfig):
    name = "catalog"
    verbose_name = "Catalog: every app's parts and the catalog versions"

    def ready(self):
        # Every app's catalog models, as each AppConfig lists them in `catalog_sources`.
        watch_catalog_rows([source.model_class() for source in catalog_sources()])
