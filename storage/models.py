"""The storage catalog: appliances and servers of each storage tier."""

from planner.part_models import catalog_part_model
from storage.solver.parts import StorageSystemSpec

StorageSystem = catalog_part_model("StorageSystem", StorageSystemSpec, __name__, "storage systems")
