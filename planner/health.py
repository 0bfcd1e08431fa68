"""/healthz: whether this server can serve plans (for load balancers and monitoring)."""

from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from planner.models import System


@never_cache
def healthz(request):
    """200 when the database answers and the catalog has GPU systems, else 503 saying which."""
    checks = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
        systems = System.objects.count()
        checks["catalog"] = f"{systems} systems" if systems else "empty: run manage.py loadcatalog"
        healthy = systems > 0
    except Exception as error:  # noqa: BLE001 (any failure is the answer)
        checks.setdefault("database", f"unavailable: {type(error).__name__}")
        healthy = False
    return JsonResponse({"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503)
