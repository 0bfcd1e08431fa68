"""Fixtures of the fabric solver tests: published cases and switches made for a test."""

from dataclasses import replace

import pytest

from catalog.solver.fabric_parts import SwitchSpec


def radix_switch(ports: int, port_gbps: float = 400, **extra) -> SwitchSpec:
    """A plain k-port switch, as the papers assume (one port per cage, no splitting)."""
    return SwitchSpec(
        slug=f"radix-{ports}", name=f"{ports}-port test switch", price_usd=1000.0, ports=ports,
        port_gbps=port_gbps, power_w=100.0, rack_units=1, **extra,
    )


@pytest.fixture
def with_switch(catalog):
    """The seeded catalog plus one more switch."""

    def add(switch: SwitchSpec):
        return replace(catalog, switches={**catalog.switches, switch.slug: switch})

    return add


@pytest.fixture(scope="session")
def nvidia_ra_h100_table4():
    """NVIDIA DGX SuperPOD H100 RA (RA-11333-001), Table 4 "Compute fabric component count".

    (scalable units, DGX nodes, GPUs, leaf switches, spine switches, node-leaf cables,
    leaf-spine cables). One node is removed from the POD for the UFM appliance, whose 4 links
    take leaf ports: node-leaf cables = 8 x nodes + 4.
    https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-h100/latest/network-fabrics.html
    """
    return [
        (1, 31, 248, 8, 4, 252, 256),
        (2, 63, 504, 16, 8, 508, 512),
        (3, 95, 760, 24, 16, 764, 768),
        (4, 127, 1016, 32, 16, 1020, 1024),
    ]
