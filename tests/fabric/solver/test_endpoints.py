"""Endpoints of each fabric from the systems' NICs and the switches' management ports."""

from core.solver.interfaces import EndpointGroup, SwitchGroup
from core.solver.management import ServerGroup
from fabric.solver.endpoints import (
    fabric_manager_endpoints,
    management_endpoints,
    management_port_endpoints,
    system_endpoints,
)


def test_system_endpoints_by_role(catalog):
    dgx = catalog.systems["dgx-h100"]
    # 8 compute ports in 4 twin-port OSFP cages
    assert system_endpoints(dgx, 128, "compute") == EndpointGroup("dgx-h100", 128, 8, 400, ports_per_cage=2)
    assert system_endpoints(dgx, 128, "oob") == EndpointGroup("dgx-h100", 128, 1, 1)
    assert system_endpoints(dgx, 0, "compute") is None


def test_a_trays_ports_are_its_rails_and_management_ports_none(catalog):
    """An NVL72 rack's 72 compute NICs are 4 rails (18 trays of 4); its 18 in-band ports are one
    a tray (one rail, not 18); its 27 BMC ports are not 27 rails: each is a tray of its own, so
    they fill the management leaves in order."""
    nvl72 = catalog.systems["gb200-nvl72"]
    assert system_endpoints(nvl72, 8, "compute").trays == 18
    assert system_endpoints(nvl72, 8, "inband").trays == 18
    oob = system_endpoints(nvl72, 8, "oob")
    assert (oob.ports_per_endpoint, oob.trays) == (27, 27)
    # A DGX H100 is one tray: its two storage ports are two rails, as before.
    assert system_endpoints(catalog.systems["dgx-h100"], 8, "storage").trays == 1


def test_fabric_manager_and_management_ports():
    assert fabric_manager_endpoints(4, 400) == EndpointGroup("fabric-manager", 1, 4, 400)
    assert fabric_manager_endpoints(0, 400) is None
    groups = [SwitchGroup("compute", "leaf", "qm9700", 32, "network_rack"),
              SwitchGroup("compute", "spine", "qm9700", 16, "network_rack"),
              SwitchGroup("inband", "leaf", "sn5600", 2, "compute_rack")]
    assert management_endpoints(groups) == (EndpointGroup("qm9700", 48, 1, 1), EndpointGroup("sn5600", 2, 1, 1))


def test_every_management_port_is_an_oob_endpoint():
    """36 PDUs of one port and 2 of none; 2 UFM and 5 head nodes of one BMC each (the UFM of two
    fabrics added up); 3 storage systems, one management port each."""
    pdus = {"pdu-415v-60a-3ph": (36, 1), "basic-pdu": (2, 0)}
    servers = [ServerGroup("fabric_manager", "ufm", 1, "compute", 2, 1),
               ServerGroup("fabric_manager", "ufm", 1, "storage", 2, 1),
               ServerGroup("management_server", "head-node-1u", 5, oob_ports_each=1)]
    assert management_port_endpoints(pdus, servers, [("ai400x2", 3)]) == (
        EndpointGroup("pdu-415v-60a-3ph", 36, 1, 1), EndpointGroup("ufm", 2, 1, 1),
        EndpointGroup("head-node-1u", 5, 1, 1), EndpointGroup("ai400x2", 3, 1, 1),
    )
