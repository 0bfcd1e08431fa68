"""The storage catalog: appliances and servers of each storage tier."""

from catalog.part_models import catalog_part_model
from catalog.solver.storage_parts import StorageSystemSpec

StorageSystem = catalog_part_model("StorageSystem", StorageSystemSpec, __name__, "storage systems")
