"""Leaf placement: how many leaves the endpoints need, and where they sit.

- rail_optimized: the i-th NIC of every node of a scalable unit goes to the i-th rail's leaf,
  and the leaves sit in network racks (NVIDIA DGX SuperPOD: one leaf per rail per unit of
  32 DGX). A unit holds as many nodes as a leaf has down links.
- top_of_rack: one leaf, or more when the rack's NIC ports exceed a leaf's down links, in every
  compute rack, serving all NICs of its nodes. Endpoints outside the compute racks (appliances,
  switches' management ports) get their own leaves in a network rack.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class LeafCount:
    leaves: int
    in_compute_racks: int
    """Leaves placed in compute racks (top-of-rack); the rest sit in network racks."""
    units: int
    """Scalable units (rail-optimized) or compute racks (top-of-rack)."""
    leaves_per_unit: int
    """Leaves a pod must keep together: the rails of a unit; 1 for top-of-rack."""
    endpoint_links_per_leaf: int
    """Endpoint links on the fullest leaf."""
    nodes_per_leaf: int
    """Nodes with a link on the fullest leaf."""
    leaves_per_rack: int
    """Top-of-rack leaves in a full compute rack; 0 for rail-optimized."""
    endpoint_gbps_per_leaf: float = 0.0
    """Down bandwidth of the fullest leaf [Gb/s]: its endpoint links at their own rates."""


def fullest_leaf_gbps(group_links: Sequence[tuple[int, float]], rails: int, down_links_per_leaf: int) -> float:
    """Down bandwidth of the fullest leaf [Gb/s] when endpoint links of several rates share them.

    Links are numbered group after group; link j lands on rail j mod R of unit j // (R d)
    (`rail_optimized_leaf_count`; R = 1 for leaves filled in turn). The leaf (unit, rail) holds
    F(hi) - F(lo) links of a group [a, b) with lo, hi its unit's range clipped to the group's and
    F(x) = ceil((x - rail) / R) the links below x on its rail. The fullest leaf is in a unit
    where a group starts or ends, or just after a start: only those are summed.
    """
    rails = max(rails, 1)
    rates = {gbps for links, gbps in group_links if links > 0}
    total = sum(links for links, _ in group_links)
    if len(rates) <= 1:
        return min(down_links_per_leaf, math.ceil(total / rails)) * (rates.pop() if rates else 0.0)
    block = rails * down_links_per_leaf
    edges = np.cumsum([0] + [links for links, _ in group_links])
    starts, ends = edges[:-1], edges[1:]
    units = np.unique(np.concatenate([starts // block, starts // block + 1, np.maximum(ends - 1, 0) // block]))
    units = units[units * block < total]
    lo = (units * block)[:, None]
    hi = lo + block
    rail = np.arange(rails)[None, :]

    def below(x):
        return np.maximum(-((rail - x) // rails), 0)

    gbps = np.zeros((len(units), rails))
    for a, b, (_, rate) in zip(starts, ends, group_links):
        gbps += rate * np.maximum(below(np.minimum(b, hi)) - below(np.maximum(a, lo)), 0)
    return float(gbps.max())


def rail_optimized_leaf_count(
    endpoint_links: int, rails: int, down_links_per_leaf: int,
    group_links: Sequence[tuple[int, float]] = (),
) -> LeafCount:
    """Leaves for rail-optimized placement, in whole scalable units.

    units = ceil(endpoint links / (rails x d)), leaves = units x rails: a unit holds d nodes (one
    link from each node to each rail's leaf). H100 SuperPOD, 4 SU: 1,020 links / (8 x 32) -> 4
    units, 32 leaves.
    """
    rails = max(rails, 1)
    units = math.ceil(endpoint_links / (rails * down_links_per_leaf))
    per_leaf = min(down_links_per_leaf, math.ceil(endpoint_links / rails))
    return LeafCount(
        leaves=units * rails, in_compute_racks=0, units=units, leaves_per_unit=rails,
        endpoint_links_per_leaf=per_leaf, nodes_per_leaf=per_leaf, leaves_per_rack=0,
        endpoint_gbps_per_leaf=fullest_leaf_gbps(group_links, rails, down_links_per_leaf),
    )


def top_of_rack_leaf_count(
    systems: int,
    links_per_system: int,
    systems_per_rack: int,
    other_links: int,
    down_links_per_leaf: int,
    system_link_gbps: float = 0.0,
    other_group_links: Sequence[tuple[int, float]] = (),
) -> LeafCount:
    """Leaves for top-of-rack placement.

    leaves per full rack = ceil(systems_per_rack x links_per_system / d); the last rack gets
    ceil(its systems x links / d); other endpoints get ceil(other_links / d) leaves in a network
    rack. Four DGX H100 per rack (32 compute links), 32 down links per leaf: one leaf per rack.
    """
    racks = math.ceil(systems / systems_per_rack) if systems else 0
    per_rack = math.ceil(systems_per_rack * links_per_system / down_links_per_leaf)
    last_rack_systems = systems - (racks - 1) * systems_per_rack if racks else 0
    last_rack_leaves = math.ceil(last_rack_systems * links_per_system / down_links_per_leaf)
    in_racks = (racks - 1) * per_rack + last_rack_leaves if racks else 0
    network = math.ceil(other_links / down_links_per_leaf)
    # The fullest leaf: a full rack's, or one in the network racks serving the other endpoints.
    busiest = max(min(systems, systems_per_rack) * links_per_system if systems else 0, other_links)
    fullest = min(down_links_per_leaf, busiest)
    links_per_system_on_leaf = min(links_per_system, down_links_per_leaf) if systems else 1
    return LeafCount(
        leaves=in_racks + network, in_compute_racks=in_racks, units=racks, leaves_per_unit=1,
        endpoint_links_per_leaf=fullest,
        nodes_per_leaf=math.ceil(fullest / max(links_per_system_on_leaf, 1)),
        leaves_per_rack=per_rack,
        endpoint_gbps_per_leaf=max(
            min(down_links_per_leaf, min(systems, systems_per_rack) * links_per_system) * system_link_gbps,
            fullest_leaf_gbps(other_group_links, 1, down_links_per_leaf),
        ),
    )
