"""Catalog models made from the solver's part dataclasses.

A part dataclass (`SwitchSpec`, ...) is the one schema of a part: its fields become the model's
columns, and every row is checked by reading it back into the dataclass, in the seed loader, in
the admin (`clean`) and when the solver's snapshot is taken.
"""

import dataclasses
import types
import typing
from typing import Any, Literal, get_args, get_origin

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models

from core.solver.errors import ScenarioError
from core.solver.schema import read_spec, spec_fields

EDIT_RECORD_FIELDS = ("seed_values", "edited_by", "edited_at")
"""The columns of a catalog row that are not fields of its part (kept out of the public API)."""


class CatalogPart(models.Model):
    """A catalog row; subclasses are made by `catalog_part_model`.

    Besides the part's own fields, a row remembers the seed file's values it was last loaded
    with and who last edited it in the admin, so that `loadcatalog` can tell a staff edit from
    a seed change and report the fields where both changed instead of reverting the edit.
    """

    spec_class: type

    seed_values = models.JSONField(
        null=True, editable=False,
        help_text="The seed file's values as last loaded (null: not loaded from a seed file).",
    )
    edited_by = models.CharField(max_length=150, blank=True, editable=False)
    edited_at = models.DateTimeField(
        null=True, editable=False, help_text="When staff last edited the part (null: never)."
    )

    class Meta:
        abstract = True
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def spec_values(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self.spec_class)}

    def as_spec(self) -> Any:
        return read_spec(self.spec_class, self.spec_values())

    def clean(self) -> None:
        try:
            self.as_spec()
        except ScenarioError as error:
            by_field: dict[str, list[str]] = {}
            for problem in error.errors:
                name = problem.path.split(".")[0].split("[")[0]
                key = name if name in self.spec_values() else NON_FIELD_ERRORS
                by_field.setdefault(key, []).append(f"{problem.path}: {problem.message}")
            raise ValidationError(by_field) from None


def catalog_part_model(name: str, spec_class: type, module: str, plural: str) -> type:
    """A Django model whose columns are the fields of `spec_class`."""
    attributes = {
        "__module__": module,
        "spec_class": spec_class,
        "Meta": type("Meta", (CatalogPart.Meta,), {"verbose_name_plural": plural}),
        **{info.name: _model_field(info) for info in spec_fields(spec_class)},
    }
    return type(name, (CatalogPart,), attributes)


def _model_field(info) -> models.Field:
    annotation, nullable = info.annotation, False
    if get_origin(annotation) in (typing.Union, types.UnionType):
        annotation = next(arg for arg in get_args(annotation) if arg is not type(None))
        nullable = True
    help_text = " ".join(filter(None, [info.help, f"[{info.unit}]" if info.unit else ""]))
    options: dict[str, Any] = {"help_text": help_text, "null": nullable, "blank": nullable}
    if not info.required and info.default is not None and not isinstance(info.default, tuple):
        options["default"] = info.default
    if info.name == "slug":
        return models.SlugField(max_length=80, unique=True, help_text=help_text)
    if get_origin(annotation) is Literal:
        choices = [(choice, str(choice)) for choice in get_args(annotation)]
        if isinstance(choices[0][0], int):
            return models.IntegerField(choices=choices, **options)
        return models.CharField(max_length=40, choices=choices, **options)
    if get_origin(annotation) is tuple:
        if info.default == ():
            options.update(default=list, blank=True)
        return models.JSONField(**options)
    if annotation is str:
        options["blank"] = not info.required
        if info.name in ("notes",):
            return models.TextField(**options)
        return models.CharField(max_length=500 if info.name == "source_url" else 200, **options)
    if annotation is bool:
        return models.BooleanField(**options)
    if annotation is int:
        return models.IntegerField(**options)
    if annotation is float:
        return models.FloatField(**options)
    raise TypeError(f"no model field for {info.name}: {info.annotation!r}")
