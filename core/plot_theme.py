"""The look every figure shares: font, colours by BOM category, the palette, the layout."""

from typing import Any

FONT = {
    "family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
    "size": 12,
    "color": "#1d2733",
}
COLORS = {
    "compute": "#0b6bcb",
    "network": "#7a4fd1",
    "optics": "#b04fc0",
    "cables": "#c27c0e",
    "storage": "#1b8a5a",
    "management": "#5b6b7c",
    "racks": "#8a6d3b",
    "power": "#c0392b",
    "cooling": "#138d9c",
    "free": "#e9edf1",
    "facility": "#a04000",
    "other": "#7f8c8d",
}
PALETTE = ["#0b6bcb", "#e67e22", "#1b8a5a", "#7a4fd1", "#c0392b", "#138d9c"]


def base_layout(title: str = "", height: int = 360, **extra: Any) -> dict:
    layout = {
        "font": FONT,
        "height": height,
        "margin": {"l": 56, "r": 16, "t": 36 if title else 12, "b": 40},
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "hoverlabel": {"font": {"family": FONT["family"]}},
    }
    if title:
        layout["title"] = {"text": title, "x": 0, "xanchor": "left", "font": {"size": 14}}
    layout.update(extra)
    return layout
