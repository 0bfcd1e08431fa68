"""Cable lengths measured on the floor layout, as the fabric engine's media choice needs them.

For each kind of run of a fabric (the fields of `LinkLengthsSpec`: node to leaf, leaf to spine,
...) the floor gives a distribution of cable lengths between the racks the links join:

- node to its top-of-rack leaf: within the compute rack;
- node to a leaf in a network rack (rail-optimized, rail-only, dragonfly terminals): from each
  compute rack to the network rack as far along the floor as it is (a scalable unit's leaves
  stand along the network racks as its systems along the compute racks; fabric.solver.cabling);
- leaf to spine: between the network racks of each pod, every pair alike (each leaf reaches
  every spine of its pod); from top-of-rack leaves, from the compute racks of the pod;
- spine to core and dragonfly global links: between all network racks.

Each length is `cabling_distance.cable_length_m` (tray run, drops, slack), rounded up to the
step cables of that length are ordered in, and counted as a share of the runs.
"""

import numpy as np

from fabric.solver.interfaces import LengthShare
from fabric.solver.specs import FabricSpec
from power.solver.cabling_distance import IN_RACK_LATERAL_M, PORT_HEIGHT_M, vertical_drop_m
from power.solver.floor import FloorResult, positions_by_kind
from power.solver.specs import RacksSpec

ORDER_STEPS_M = ((5.0, 0.5), (20.0, 1.0), (float("inf"), 5.0))
"""Cable lengths are ordered to the half metre up to 5 m (copper), the metre up to 20 m and in
5 m steps beyond (fiber trunks): (up to this length, step)."""
MAX_PAIR_SAMPLE = 200
"""All pairs of up to this many racks a side; beyond, evenly spaced racks stand for the rest
(40,000 pairs give the length distribution to well under one stock length step)."""

Lengths = tuple[LengthShare, ...]


def order_length_m(lengths_m: np.ndarray) -> np.ndarray:
    """Each length rounded up to the step cables of that length are ordered in (ORDER_STEPS_M)."""
    lengths_m = np.asarray(lengths_m, dtype=float)
    steps = np.select([lengths_m <= limit for limit, _ in ORDER_STEPS_M], [step for _, step in ORDER_STEPS_M])
    return np.ceil(lengths_m / steps - 1e-9) * steps


def length_shares(lengths_m: np.ndarray) -> Lengths:
    """The ordered lengths of a set of runs, with the share of runs at each."""
    values, counts = np.unique(order_length_m(lengths_m), return_counts=True)
    shares = counts / counts.sum()
    return tuple(LengthShare(float(value), float(share)) for value, share in zip(values, shares))


def cable_runs_m(horizontal_m: np.ndarray, racks: RacksSpec) -> np.ndarray:
    """Cables for tray runs between rack centres [m]: (run + two drops) x (1 + slack fraction)
    + slack between racks; within a rack (a run of 0) through its side cable manager."""
    drops_m = 2 * vertical_drop_m(racks.cable_tray_height_m, PORT_HEIGHT_M)
    between_m = (horizontal_m + drops_m) * (1 + racks.cable_slack_fraction) + racks.cable_slack_m
    return np.where(np.asarray(horizontal_m) > 0, between_m, within_rack_m(racks))


def within_rack_m(racks: RacksSpec) -> float:
    """Cable between two ports of one rack [m]: through the side cable manager, with slack."""
    return IN_RACK_LATERAL_M * (1 + racks.cable_slack_fraction)


def matched_run_m(from_xy: np.ndarray, to_xy: np.ndarray) -> np.ndarray:
    """For the k-th of K points of `from_xy`, the tray run to the point the same share of the
    way along `to_xy` (index floor((k + 1/2) / K x N)): the racks of each scalable unit and the
    network racks of its leaves follow the floor in the same order (fabric.solver.cabling)."""
    matched = np.floor((np.arange(len(from_xy)) + 0.5) / len(from_xy) * len(to_xy)).astype(int)
    return np.abs(from_xy - to_xy[matched]).sum(axis=1)


def pair_runs_m(a_xy: np.ndarray, b_xy: np.ndarray) -> np.ndarray:
    """Tray runs |dx| + |dy| between every point of `a_xy` and every point of `b_xy` [m]
    (evenly spaced samples of each side beyond MAX_PAIR_SAMPLE points)."""
    a_xy, b_xy = _sample(a_xy), _sample(b_xy)
    return np.abs(a_xy[:, None, :] - b_xy[None, :, :]).sum(axis=2).ravel()


def _sample(points: np.ndarray) -> np.ndarray:
    if len(points) <= MAX_PAIR_SAMPLE:
        return points
    return points[np.linspace(0, len(points) - 1, MAX_PAIR_SAMPLE).round().astype(int)]


def within_pod_runs_m(a_xy: np.ndarray, b_xy: np.ndarray, pods: int) -> np.ndarray:
    """Tray runs between the racks of each pod: both sets cut, in floor order, into `pods`
    consecutive shares (a pod's leaves reach only its own spines, which stand beside them)."""
    if pods <= 1:
        return pair_runs_m(a_xy, b_xy)
    cuts_a = np.array_split(np.arange(len(a_xy)), pods)
    cuts_b = np.array_split(np.arange(len(b_xy)), pods)
    runs = [pair_runs_m(a_xy[a], b_xy[b]) for a, b in zip(cuts_a, cuts_b) if len(a) and len(b)]
    return np.concatenate(runs) if runs else pair_runs_m(a_xy, b_xy)


def measured_link_lengths(
    floor: FloorResult, racks: RacksSpec, fabrics: dict[str, tuple[FabricSpec, int]]
) -> dict[str, dict[str, Lengths]]:
    """Length distributions per fabric and run (keys: the fields of LinkLengthsSpec) on `floor`,
    for fabrics given as (spec, pods). Leaf to spine is measured within pods (three tiers: each
    leaf reaches its pod's spines only), spine to core and dragonfly global links between all
    network racks.

    A run whose racks the floor does not have (no network racks, say) is left out, and keeps
    its assumed length.
    """
    compute_xy = np.column_stack(positions_by_kind(floor, "compute"))
    network_xy = np.column_stack(positions_by_kind(floor, "network"))
    shared: dict[str, Lengths] = {"node_to_top_of_rack_m": length_shares(np.array([within_rack_m(racks)]))}
    if not len(network_xy):
        return {name: shared for name in fabrics}
    between_network = length_shares(cable_runs_m(pair_runs_m(network_xy, network_xy), racks))
    shared.update(spine_to_core_m=between_network, router_global_m=between_network)
    if len(compute_xy):
        shared["node_to_leaf_m"] = length_shares(cable_runs_m(matched_run_m(compute_xy, network_xy), racks))
    measured = {}
    for name, (spec, pods) in fabrics.items():
        leaves_xy = compute_xy if spec.leaf_placement == "top_of_rack" and len(compute_xy) else network_xy
        runs = within_pod_runs_m(leaves_xy, network_xy, pods)
        measured[name] = {**shared, "leaf_to_spine_m": length_shares(cable_runs_m(runs, racks))}
    return measured
