"""The facility catalog: rack types, rack PDUs, cooling types and cooling plant units."""

from catalog.part_models import catalog_part_model
from catalog.solver.power_parts import CoolingTypeSpec, CoolingUnitSpec, PduSpec, RackTypeSpec

RackType = catalog_part_model("RackType", RackTypeSpec, __name__, "rack types")
Pdu = catalog_part_model("Pdu", PduSpec, __name__, "PDUs")
CoolingType = catalog_part_model("CoolingType", CoolingTypeSpec, __name__, "cooling types")
CoolingUnit = catalog_part_model("CoolingUnit", CoolingUnitSpec, __name__, "cooling units")
