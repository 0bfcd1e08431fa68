import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# Resolving a path imports the URLconf, so every view, and numpy, scipy, DRF and the rest behind
# them, while the worker boots (gunicorn starts accepting requests after this) rather than during
# its first request, which would otherwise take about 2 s (the slowest 1 % of a load test's).
resolve("/healthz")

from config.warmup import warm_up  # noqa: E402 (after Django is set up)

warm_up()
# What the worker loaded (Django, the views, the catalog, the compiled templates) stays for its
# life: frozen, it is left out of every full garbage collection, which walked it in 80-90 ms,
# the slowest request's extra once every few hundred plans (measured at 1k-100k GPUs).
gc.collect()
gc.freeze()
