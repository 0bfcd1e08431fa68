from django.apps import AppConfig

from catalog.rows import CatalogSource


class FabricConfig(AppConfig):
    name = "fabric"
    verbose_name = "Fabric: switches, optics and cables"
    catalog_sources = [
        CatalogSource("switches", "fabric.Switch", "catalog/switches.yaml"),
        CatalogSource("transceivers", "fabric.Transceiver", "catalog/transceivers.yaml"),
        CatalogSource("cables", "fabric.Cable", "catalog/cables.yaml"),
    ]
