from django.apps import AppConfig

from catalog.rows import CatalogSource


class StorageConfig(AppConfig):
    name = "storage"
    verbose_name = "Storage systems"
    catalog_sources = [
        CatalogSource("storage_systems", "storage.StorageSystem", "catalog/storage_systems.yaml")
    ]
