from django.contrib import admin

from catalog.admin import CatalogPartAdmin
from storage.models import StorageSystem


@admin.register(StorageSystem)
class StorageSystemAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "tier", "usable_capacity_tb", "read_gbytes_per_s", "price_usd"]
