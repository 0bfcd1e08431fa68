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
from workspace.editor.paths import path_get, path_set
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


def _gpus_per_system(document: dict, catalog) -> int:
    system = path_get(document, "compute.system")
    part = getattr(catalog, "systems", {}).get(system) if system else None
    gpus = getattr(part, "gpus", None)
    return gpus if isinstance(gpus, int) and gpus > 0 else 1


def what_if_sliders(document: dict, plan: Plan, spec, catalog) -> list[WhatIfSlider]:
    """The sliders for a saved revision (its document, the plan of it and the scenario spec),
    each at its saved value. GPUs only for one cluster whose size is given and not built in
    phases (a site's pools or a workload's days size the GPUs otherwise, and the last phase must
    give the scenario's size); PUE only when the plan has its power."""
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
            step = _gpus_per_system(document, catalog)
            minimum = max(step, math.floor(value / GPU_RANGE / step) * step)
            maximum = math.ceil(value * GPU_RANGE / step) * step
        sliders.append(WhatIfSlider(slider, float(value), min(minimum, value), max(maximum, value), step))
    return sliders


def what_if_document(document: dict, posted, sliders: list[WhatIfSlider], catalog) -> tuple[dict, list[str]]:
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
            per_system = _gpus_per_system(document, catalog)
            if "nodes" in document["compute"] and "gpus" not in document["compute"]:
                path, value = "compute.nodes", math.ceil(value / per_system)
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
