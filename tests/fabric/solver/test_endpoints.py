"""Endpoints of each fabric from the systems' NICs and the switches' management ports."""

from fabric.solver.endpoints import fabric_manager_endpoints, management_endpoints, system_endpoints
from fabric.solver.interfaces import EndpointGroup, SwitchGroup


def test_system_endpoints_by_role(catalog):
    dgx = catalog.systems["dgx-h100"]
    # 8 compute ports in 4 twin-port OSFP cages
    assert system_endpoints(dgx, 128, "compute") == EndpointGroup("dgx-h100", 128, 8, 400, ports_per_cage=2)
    assert system_endpoints(dgx, 128, "oob") == EndpointGroup("dgx-h100", 128, 1, 1)
    assert system_endpoints(dgx, 0, "compute") is None


def test_fabric_manager_and_management_ports():
    assert fabric_manager_endpoints(4, 400) == EndpointGroup("fabric-manager", 1, 4, 400)
    assert fabric_manager_endpoints(0, 400) is None
    groups = [SwitchGroup("compute", "leaf", "qm9700", 32, "network_rack"),
              SwitchGroup("compute", "spine", "qm9700", 16, "network_rack"),
              SwitchGroup("inband", "leaf", "sn5600", 2, "compute_rack")]
    assert management_endpoints(groups) == (EndpointGroup("qm9700", 48, 1, 1), EndpointGroup("sn5600", 2, 1, 1))
