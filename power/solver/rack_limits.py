"""The racks and rows one plan may have: guards the compute racks' packing applies to what it
yields, so that every way to a plan (a request, a job, a sweep's design) stops there, before
the racks are described and laid out on the floor."""

from core.solver.errors import PlanLimitError

MAX_PLAN_RACKS = 2_000_000
"""Compute racks of one plan: those of 10 million GPUs at one 8-GPU system a rack, and more.
10 million racks (one 1-GPU system a rack) take 2 CPU seconds and 180 MB to plan."""
MAX_PLAN_ROWS = 50_000
"""Rows of compute racks on the floor: the plan describes each row (about 100 bytes of JSON), so
2 million racks one a row made a 200 MB plan and a dashboard of 2.4 GB and 24 s. A million GPUs
fill 2,500 rows of 16 racks, 10 million at two 8-GPU systems a rack 39,000; at this limit the
plan's rows are 5 MB."""


def check_rack_limits(total_nodes: int, compute_racks: int, nodes_per_rack: int, limited_by: str,
                      racks_per_row: int) -> int:
    """The rows of `compute_racks` at `racks_per_row` a row, or PlanLimitError past
    MAX_PLAN_RACKS (on `limited_by`, what keeps the systems per rack down) or MAX_PLAN_ROWS (on
    racks.racks_per_row)."""
    if compute_racks > MAX_PLAN_RACKS:
        raise PlanLimitError.at(
            limited_by,
            f"{total_nodes:,} systems at {nodes_per_rack} a rack ({limited_by} allows no more) fill "
            f"{compute_racks:,} racks, more than the {MAX_PLAN_RACKS:,} a plan may have: put more systems "
            "in a rack, or plan fewer",
        )
    rows = -(-compute_racks // racks_per_row)
    if rows > MAX_PLAN_ROWS:
        raise PlanLimitError.at(
            "racks.racks_per_row",
            f"{compute_racks:,} compute racks at {racks_per_row} a row fill {rows:,} rows, more than the "
            f"{MAX_PLAN_ROWS:,} a plan may have: put more racks in a row",
        )
    return rows
