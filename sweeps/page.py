"""A done sweep as the sweep page shows it: the refusals in words, the Pareto scatter (a plotly
figure dict: the first objective against the second, the front highlighted, the designs a
constraint refused faint beneath, each point's hover giving the design's axis values and key
figures), the tables of the front and of the feasible designs with human column labels, and
the best design per objective. Built from the job's result (sweeps/jobs.py), never from the
database."""

import re
from dataclasses import dataclass
from html import escape
from typing import Any

from core.plot_theme import COLORS, FONT, PALETTE
from sweeps.forms import SweepField, plan_key_label
from sweeps.solver.spec import KEY_FIGURES
from workspace.editor.labels import in_sentence
from workspace.words import words_of

FRONT_COLOR = PALETTE[1]
OTHER_COLOR = COLORS["other"]
CONSTRAINT_COLOR = "#b42318"
"""The constraint lines: where the refused designs begin."""
REFUSED_COLOR = "#8a939c"
REFUSED_OPACITY = 0.35
"""Refused designs are drawn grey and faint: there to see where the limits cut, not to pick."""
BEST_WORDS = {"minimise": "Lowest", "maximise": "Highest"}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def figure_text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float) and abs(value) < 1000 and not value.is_integer():
        return f"{value:,.2f}" if abs(value) >= 1 else f"{value:,.3g}"
    return f"{value:,.0f}" if isinstance(value, (int, float)) else str(value)


@dataclass
class Column:
    key: str
    label: str
    numeric: bool


@dataclass
class Cell:
    text: str
    sort: str
    """What the column sorts by: the number, or the text."""


@dataclass
class DesignRow:
    design: int
    cells: list[Cell]
    on_front: bool


@dataclass
class Refusal:
    path: str
    label: str
    designs: int
    example: str

    @property
    def designs_text(self) -> str:
        return f"{self.designs:,}"


class SweepResultView:
    def __init__(self, result: dict, fields: dict[str, SweepField]):
        self.result = result
        self.fields = fields
        self.axis_keys = list(result["axes"])
        self.objectives = result["objectives"]
        objective_keys = [objective["key"] for objective in self.objectives]
        figure_keys = {key for design in result["front"] for key in design["figures"]}
        self.figure_keys = list(dict.fromkeys([*objective_keys, *KEY_FIGURES,
                                               *sorted(figure_keys - set(KEY_FIGURES))]))
        self.front_numbers = {design["design"] for design in result["front"]}
        self.columns = [Column("design", "Design", True)]
        self.columns += [Column(key, self.axis_label(key), self._numeric_axis(key)) for key in self.axis_keys]
        self.columns += [Column(key, plan_key_label(key), True) for key in self.figure_keys]

    def axis_label(self, key: str) -> str:
        sweep_field = self.fields.get(key)
        return sweep_field.full_label if sweep_field else " › ".join(map(words_of, key.split(".")))

    def labelled_values(self, design: dict) -> list[tuple[str, str]]:
        """A design's axis values in words: (the field's label, the value's)."""
        return [(self.axis_label(key), self.value_label(key, value)) for key, value in design["values"].items()]

    def value_label(self, key: str, value: Any) -> str:
        sweep_field = self.fields.get(key)
        return sweep_field.value_label(value) if sweep_field else str(value)

    def _numeric_axis(self, key: str) -> bool:
        return all(_is_number(value) for value in self.result["axes"][key])

    # -- counts and refusals

    @property
    def designs(self) -> int:
        return self.result["designs"]

    @property
    def feasible(self) -> int:
        return self.result["feasible"]

    @property
    def counts_text(self) -> tuple[str, str, str]:
        """The feasible designs, all of them, and those on the front, grouped by thousands."""
        return f"{self.feasible:,}", f"{self.designs:,}", f"{len(self.result['front']):,}"

    @property
    def refusals(self) -> list[Refusal]:
        return [Refusal(item["path"], self.refusal_label(item["path"]), item["designs"], item["example"])
                for item in self.result["refusals"]]

    def refusal_label(self, path: str) -> str:
        """constraints.power.facility_kw.max -> "Facility power (kW): above the maximum"; a
        scenario path by its field's words."""
        match = re.fullmatch(r"constraints\.(.+?)(?:\.(min|max))?", path)
        if match:
            side = {"min": ": below the minimum", "max": ": above the maximum"}.get(match.group(2) or "", "")
            return f"{plan_key_label(match.group(1))}{side}"
        if path in self.fields:
            return self.fields[path].full_label
        return " › ".join(words_of(part) for part in re.split(r"\.", path) if part)

    # -- tables

    def rows(self, designs: list[dict]) -> list[DesignRow]:
        rows = []
        for design in designs:
            cells = [Cell(str(design["design"]), str(design["design"]))]
            for key in self.axis_keys:
                value = design["values"].get(key)
                label = self.value_label(key, value)
                cells.append(Cell(label, repr(value) if _is_number(value) else label))
            for key in self.figure_keys:
                value = design["figures"].get(key)
                cells.append(Cell(figure_text(value), "" if value is None else repr(value)))
            rows.append(DesignRow(design["design"], cells, design["design"] in self.front_numbers))
        return rows

    @property
    def front_rows(self) -> list[DesignRow]:
        first = self.objectives[0]
        sign = 1 if first["goal"] == "minimise" else -1
        front = sorted(self.result["front"], key=lambda design: sign * (design["figures"].get(first["key"]) or 0))
        return self.rows(front)

    @property
    def feasible_rows(self) -> list[DesignRow]:
        return self.rows(self.result.get("feasible_designs", []))

    @property
    def feasible_capped(self) -> bool:
        return len(self.result.get("feasible_designs", [])) < self.feasible

    @property
    def refused_capped(self) -> bool:
        """Fewer designs refused by a constraint kept than there are."""
        refused = sum(item["designs"] for item in self.result["refusals"] if item["path"].startswith("constraints."))
        return len(self.result.get("refused_designs", [])) < refused

    @property
    def best(self) -> list[dict]:
        best = []
        for item in self.result["best"]:
            design = item["design"]
            if design is None:
                continue
            best.append({
                "label": f"{BEST_WORDS[item['goal']]} {in_sentence(plan_key_label(item['key']))}",
                "value": figure_text(design["figures"].get(item["key"])),
                "design": design["design"],
                "values": self.labelled_values(design),
            })
        return best

    # -- the scatter

    def hover(self, design: dict) -> str:
        lines = [f"<b>Design {design['design']}</b>"]
        if design.get("refused_at"):
            refused = f"Refused by a limit: {self.refusal_label(design['refused_at'])}"
            reason = design.get("reason")
            lines.append(f"<i>{escape(f'{refused} ({reason})' if reason else refused)}</i>")
        lines += [escape(f"{label}: {value}") for label, value in self.labelled_values(design)]
        lines += [escape(f"{plan_key_label(key)}: {figure_text(design['figures'].get(key))}")
                  for key in self.figure_keys]
        return "<br>".join(lines)

    def scatter(self) -> dict | None:
        """The first objective against the second (against the design number when there is one
        objective): the designs refused by a constraint faint at the bottom, the feasible designs
        kept, the front on top. Without a feasible design, the refused alone: how far the limits
        are."""
        refused = self.result.get("refused_designs", [])
        if not self.result["front"] and not refused:
            return None
        keys = [objective["key"] for objective in self.objectives[:2]]

        def point(design: dict) -> tuple:
            if len(keys) > 1:
                return design["figures"].get(keys[0]), design["figures"].get(keys[1])
            return design["design"], design["figures"].get(keys[0])

        def trace(designs: list[dict], name: str, color: str, size: int, opacity: float = 1.0) -> dict:
            # Designs with equal figures are one point, with their count: a front of ten equal
            # designs is one design ten ways.
            points: dict[tuple, list[dict]] = {}
            for design in designs:
                points.setdefault(point(design) if len(keys) > 1 else (design["design"],), []).append(design)
            groups = list(points.values())
            xs = [point(group[0])[0] for group in groups]
            ys = [point(group[0])[1] for group in groups]
            return {
                "type": "scatter", "mode": "markers", "name": name, "x": xs, "y": ys,
                "customdata": [group[0]["design"] for group in groups],
                "text": [self.hover(group[0]) + (
                    f"<br><i>{len(group)} designs with these figures: {', '.join(str(d['design']) for d in group[:12])}"
                    f"{' …' if len(group) > 12 else ''}</i>" if len(group) > 1 else "") for group in groups],
                "hoverinfo": "text",
                "marker": {"color": color, "size": [size + min(8, 2 * (len(group) - 1)) for group in groups],
                           "opacity": opacity, "line": {"width": 1, "color": "#ffffff"}},
            }

        others = [design for design in self.result.get("feasible_designs", [])
                  if design["design"] not in self.front_numbers]
        front = sorted(self.result["front"], key=lambda design: design["figures"].get(keys[0]) or 0)
        front_trace = trace(front, "Pareto front", FRONT_COLOR, 11)
        if len(keys) > 1:
            front_trace["mode"] = "lines+markers"
            front_trace["line"] = {"color": FRONT_COLOR, "width": 1, "dash": "dot", "shape": "hv"}
        # The constraints on the plotted figures as lines: where the refused designs begin.
        axes = {keys[0]: "x", keys[1]: "y"} if len(keys) > 1 else {keys[0]: "y"}
        shapes, notes = [], []
        for constraint in self.result.get("constraints", []):
            axis = axes.get(constraint["key"])
            for side in ("min", "max"):
                if axis is None or constraint.get(side) is None:
                    continue
                value = constraint[side]
                line = {"type": "line", "line": {"color": CONSTRAINT_COLOR, "width": 1.5, "dash": "dash"}}
                if axis == "x":
                    line.update(xref="x", x0=value, x1=value, yref="paper", y0=0, y1=1)
                else:
                    line.update(yref="y", y0=value, y1=value, xref="paper", x0=0, x1=1)
                shapes.append(line)
                notes.append({
                    "text": f"{side} {figure_text(value)}", "showarrow": False, "font": {"size": 10, "color": CONSTRAINT_COLOR},
                    **({"x": value, "xref": "x", "y": 1, "yref": "paper", "yanchor": "bottom"} if axis == "x"
                       else {"y": value, "yref": "y", "x": 1, "xref": "paper", "xanchor": "right", "yanchor": "bottom"}),
                })
        x_title = plan_key_label(keys[0]) if len(keys) > 1 else "Design"
        y_title = plan_key_label(keys[1] if len(keys) > 1 else keys[0])
        # Plotly draws its traces in order: the refused first, beneath the designs one may pick.
        data = [trace(refused, "Refused by a limit", REFUSED_COLOR, 6, REFUSED_OPACITY)] if refused else []
        if front:
            data += [trace(others, "Other feasible designs", OTHER_COLOR, 8), front_trace]
        return {
            "data": data,
            "layout": {
                "font": FONT, "height": 420, "margin": {"l": 72, "r": 16, "t": 16, "b": 56},
                "paper_bgcolor": "#ffffff", "plot_bgcolor": "#ffffff", "hovermode": "closest",
                "shapes": shapes, "annotations": notes,
                "legend": {"orientation": "h", "y": -0.2},
                "xaxis": {"title": {"text": x_title}, "gridcolor": "#e9edf1", "zeroline": False},
                "yaxis": {"title": {"text": y_title}, "gridcolor": "#e9edf1", "zeroline": False},
            },
        }
