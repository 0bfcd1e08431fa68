from django.apps import AppConfig

from catalog.rows import CatalogSource


class PowerConfig(AppConfig):
    name = "power"
    verbose_name = "Power: racks, PDUs and cooling"
    catalog_sources = [
        CatalogSource("rack_types", "power.RackType", "catalog/rack_types.yaml"),
        CatalogSource("pdus", "power.Pdu", "catalog/pdus.yaml"),
        CatalogSource("cooling_types", "power.CoolingType", "catalog/cooling.yaml", key="types"),
        CatalogSource("cooling_units", "power.CoolingUnit", "catalog/cooling.yaml", key="units"),
    ]
