"""Read-only API views of catalog models, one per part kind, looked up by slug."""

from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny

from catalog.part_models import EDIT_RECORD_FIELDS


def catalog_viewset(model: type) -> type:
    """A read-only viewset listing every field of `model` (edits go through the admin)."""
    meta = type("Meta", (), {"model": model, "exclude": ["id", *EDIT_RECORD_FIELDS]})
    serializer = type(f"{model.__name__}Serializer", (serializers.ModelSerializer,), {"Meta": meta})
    return type(
        f"{model.__name__}ViewSet",
        (viewsets.ReadOnlyModelViewSet,),
        {
            "__doc__": f"The {model._meta.verbose_name_plural} of the catalog, with their sources.",
            "queryset": model.objects.all(),
            "serializer_class": serializer,
            "lookup_field": "slug",
            # A NUL cannot reach the database (PostgreSQL refuses it): such a slug is a 404.
            "lookup_value_regex": r"[^/\x00]+",
            "permission_classes": [AllowAny],
            "pagination_class": None,
        },
    )
