"""The network catalog: switches, optical transceivers and cables."""

from catalog.part_models import catalog_part_model
from catalog.solver.fabric_parts import CableSpec, SwitchSpec, TransceiverSpec

Switch = catalog_part_model("Switch", SwitchSpec, __name__, "switches")
Transceiver = catalog_part_model("Transceiver", TransceiverSpec, __name__, "transceivers")
Cable = catalog_part_model("Cable", CableSpec, __name__, "cables")
