"""/healthz: whether this server can serve plans (for load balancers and monitoring).

`ok`: everything answers. `degraded` (still 200, the site serves): no job worker has been seen
for JOB_WORKER_SILENT_AFTER_S, so heavy exports and sweeps wait in the queue. `unavailable`
(503): the database does not answer, the catalog is empty, or the disk under var/ is full.
"""

import shutil
import time
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from jobs.worker import worker_alive_file
from planner.models import System

MEGABYTE = 1024 * 1024


def disk_check() -> tuple[bool, str]:
    """Whether the disk of var/ has room for saves and caches, and its free space in words."""
    try:
        free = shutil.disk_usage(Path(settings.VAR_DIR)).free
    except OSError as error:
        return False, f"unreadable: {type(error).__name__}"
    if free < settings.DISK_FREE_MIN_BYTES:
        return False, f"full: {free / MEGABYTE:,.0f} MB free, under the {settings.DISK_FREE_MIN_BYTES / MEGABYTE:,.0f} MB needed"
    return True, f"{free / MEGABYTE:,.0f} MB free"


def job_worker_check() -> tuple[bool, str]:
    """Whether a job worker gave a sign of life lately."""
    try:
        silent_s = time.time() - worker_alive_file().stat().st_mtime
    except OSError:
        return False, "not running: heavy exports and sweeps wait in the queue"
    if silent_s > settings.JOB_WORKER_SILENT_AFTER_S:
        return False, f"not seen for {silent_s:,.0f} s: heavy exports and sweeps wait in the queue"
    return True, "ok"


@never_cache
def healthz(request):
    """200 when the database answers, the catalog has GPU systems and the disk has room (status
    `degraded` while no job worker runs), else 503 saying which."""
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
    disk_ok, checks["disk"] = disk_check()
    worker_ok, checks["job_worker"] = job_worker_check()
    healthy = healthy and disk_ok
    status = "unavailable" if not healthy else "ok" if worker_ok else "degraded"
    return JsonResponse({"status": status, **checks}, status=200 if healthy else 503)
