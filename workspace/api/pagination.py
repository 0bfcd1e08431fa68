"""Pagination of the API's lists: `limit` and `offset` checked, not clipped or passed through."""

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_PAGE_SIZE = 1_000
MAX_OFFSET = 2**31 - 1


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """DRF's limit/offset pagination, with a `limit` of 1 to MAX_PAGE_SIZE and an `offset` of 0
    to MAX_OFFSET; anything else (text, an empty value, a negative or huge number) is 400 naming
    the parameter,
    where DRF would pass a huge one on to the database."""

    max_limit = MAX_PAGE_SIZE

    def get_limit(self, request):
        return _bounded(request, self.limit_query_param, 1, MAX_PAGE_SIZE, self.default_limit)

    def get_offset(self, request):
        return _bounded(request, self.offset_query_param, 0, MAX_OFFSET, 0)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        bounds = {self.limit_query_param: (1, MAX_PAGE_SIZE), self.offset_query_param: (0, MAX_OFFSET)}
        for parameter in parameters:
            if parameter["name"] in bounds:
                low, high = bounds[parameter["name"]]
                parameter["schema"].update(minimum=low, maximum=high)
        return parameters


def _bounded(request, name: str, low: int, high: int, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw) if len(raw) <= 20 else None
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise ValidationError({name: [f"must be a whole number from {low:,} to {high:,}"]})
    return value
