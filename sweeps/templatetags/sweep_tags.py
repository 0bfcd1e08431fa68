"""Template filters of the sweep page: a mapping's value by key, an input's name in a row."""

from django import template

register = template.Library()


@register.filter
def get(mapping, key):
    """`errors|get:"values"`: the value at key, or nothing (a dict's own `values` or `items`
    method is never what the page means)."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def input_name(row, part: str) -> str:
    return row.name(part)
