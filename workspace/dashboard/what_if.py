"""What-if on the dashboard: the editor's Explore drivers (GPUs, rack power budget, PUE,
electricity price, years of the TCO) as sliders over the saved revision, planned without
saving, its figures shown against the saved plan's.

The sliders are the editor's (workspace/editor/preview.py SLIDERS: same keys, paths, units and
steps); each starts at the value the saved plan has. A post changes only the drivers moved
away from that value, so a PUE left alone stays modelled.
"""

import copy
import math
from dataclasses import dataclass

from planner.solver.plan import Plan
from workspace.editor.paths import path_set
from workspace.editor.preview import SLIDERS, Slider

GPU_RANGE = 4
"""The GPU slider spans a quarter to four times the saved GPUs."""


@dataclass(frozen=True)
class WhatIfSlider:
    slider: Slider
    value: float
    minimum: float
    maximum: float
    step: float

    @property
    def key(self) -> str:
        return self.slider.key

    @property
    def label(self) -> str:
        return self.slider.label

    @property
    def unit(self) -> str:
        return self.slider.unit

    @property
    def input_id(self) -> str:
        return f"what-if-{self.slider.key}"

    @property
    def value_text(self) -> str:
        return f"{self.value:,.{self.slider.decimals}f}"


def what_if_sliders(document: dict, plan: Plan) -> list[WhatIfSlider]:
    """The sliders for a saved revision (its document and the plan of it), each at its saved
    value. GPUs only for one cluster whose size is given and not built in phases (a site's pools
    or a workload's days size the GPUs otherwise, and the last phase must give the scenario's
    size), in steps of one system; PUE only when the plan has its power."""
    spec = plan.inputs
    saved = {
        "rack-kw": spec.racks.power_budget_kw,
        "pue": plan.power.pue if plan.power is not None else None,
        "price": spec.facility.electricity_usd_per_kwh,
        "years": spec.finance.years,
    }
    compute = document.get("compute")
    if isinstance(compute, dict) and ("gpus" in compute or "nodes" in compute) and not document.get("phases"):
        saved["gpus"] = plan.compute.gpus
    sliders = []
    for slider in SLIDERS:
        value = saved.get(slider.key)
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            continue
        minimum, maximum, step = slider.minimum, slider.maximum, slider.step
        if slider.key == "gpus":
            step = plan.compute.gpus_per_node or 1
            minimum = max(step, math.floor(value / GPU_RANGE / step) * step)
            maximum = math.ceil(value * GPU_RANGE / step) * step
        sliders.append(WhatIfSlider(slider, float(value), min(minimum, value), max(maximum, value), step))
    return sliders


def what_if_document(document: dict, posted, sliders: list[WhatIfSlider]) -> tuple[dict, list[str]]:
    """The saved document with the drivers the post moved, and what was moved in words
    ("PUE 1.30 → 1.45"). A value that cannot be read, or that is not moved, is left as saved."""
    changed = copy.deepcopy(document)
    moved = []
    for item in sliders:
        try:
            value = float(str(posted.get(item.key, "")).replace(",", ""))
        except ValueError:
            continue
        if not math.isfinite(value) or abs(value - item.value) < item.step / 2:
            continue
        value = min(max(value, item.minimum), item.maximum)
        path = item.slider.path
        if item.key == "gpus":
            if "nodes" in document["compute"] and "gpus" not in document["compute"]:
                # the GPU slider steps one system
                path, value = "compute.nodes", math.ceil(value / item.step)
                shown = f"{value:,} systems"
            else:
                value = round(value)
                shown = f"{value:,} GPUs"
        else:
            value = round(value) if item.slider.decimals == 0 else round(value, item.slider.decimals)
            shown = f"{value:,.{item.slider.decimals}f}" + (f" {item.unit}" if item.unit else "")
        path_set(changed, path, value)
        moved.append(f"{item.label}: {item.value_text} → {shown}")
    return changed, moved
