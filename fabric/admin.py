from django.contrib import admin

from catalog.admin import CatalogPartAdmin
from fabric.models import Cable, Switch, Transceiver


@admin.register(Switch)
class SwitchAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "technology", "ports", "port_gbps", "power_w", "price_usd", "confidence"]


@admin.register(Transceiver)
class TransceiverAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "form_factor", "gbps", "reach_m", "power_w", "price_usd", "confidence"]


@admin.register(Cable)
class CableAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "media", "gbps", "reach_m", "price_usd", "confidence"]
