"""What a server worker does once, as it boots, so that no user's request pays for it.

Measured in a fresh process (issue 27's load test): a worker's first plan took 165 ms more than
its next (the catalog read from the database and its data files), its first dashboard 130 ms
(Django compiling the templates) and its first workbook 190 ms (openpyxl's first). With five
workers that is one request in three of a short load test, and the slowest 1 % of all of them.
"""

import logging

from django.db import DatabaseError
from django.template.loader import get_template

from catalog.rows import catalog_snapshot
from core.solver.errors import ScenarioError
from handoff.exports import plan_export_of
from planner.services import plan_document

logger = logging.getLogger(__name__)

WARM_UP_DOCUMENT = {"name": "Warm-up", "compute": {"system": "dgx-b300", "gpus": 64}}
PAGES = ("planner/scenario_detail.html", "planner/scenario_list.html", "planner/home.html")


def warm_up() -> None:
    """Reads the catalog, plans and exports a small cluster and compiles the main pages'
    templates. With the database down, or a catalog without the warm-up's system (not loaded
    yet), the worker boots cold: a warm-up never keeps a worker from serving."""
    try:
        catalog = catalog_snapshot()
        plan_export_of(plan_document(WARM_UP_DOCUMENT, catalog), "xlsx", catalog=catalog)
    except (DatabaseError, ScenarioError) as error:
        logger.warning("the worker boots without its warm-up: %s", error)
    for page in PAGES:
        get_template(page)
