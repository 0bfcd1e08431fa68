from django.contrib import admin

from catalog.admin import CatalogPartAdmin
from power.models import CoolingType, CoolingUnit, Pdu, RackType

admin.site.register([RackType, Pdu, CoolingUnit], CatalogPartAdmin)


@admin.register(CoolingType)
class CoolingTypeAdmin(CatalogPartAdmin):
    list_display = ["name", "slug", "max_rack_kw", "liquid_fraction", "typical_pue", "confidence"]
    prepopulated_fields = {}
