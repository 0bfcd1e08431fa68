"""Browser journeys in real headless Chromium (Debian's package), driven by Playwright.

Never `playwright install`: the tests launch /usr/bin/chromium, which scripts/test installs
from Debian's packages when it is missing.
"""

import os
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

# The sync Playwright API runs an event loop in the test's thread; Django's ORM calls made by
# fixtures in that thread are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "analytical-engine"
WIDTHS = {"desktop": 1440, "phone": 390}


def screenshot(target, name: str, *, full_page: bool = False) -> None:
    """Keeps what a person looks at (a page or an element) as $UX_SCREENSHOTS/<name>.png, when
    UX_SCREENSHOTS names a folder; otherwise nothing."""
    folder = os.environ.get("UX_SCREENSHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    options = {"full_page": True} if full_page else {}
    target.screenshot(path=str(Path(folder) / f"{name}.png"), **options)


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Debian's chromium is not installed (scripts/test installs it)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def catalog_rows(transactional_db):
    """A transactional test's database is emptied after each test: seed the catalog again."""
    call_command("loadcatalog", verbosity=0)


@pytest.fixture
def architect(catalog_rows, django_user_model):
    return django_user_model.objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def signed_in(page, live_server, architect):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", architect.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{live_server.url}/scenarios/")
    return page


@pytest.fixture(autouse=True)
def plain_static_names(settings):
    """The live server serves static files from the apps' folders by their plain names; the
    hashed names of a collected manifest (scripts/setup) are whitenoise's, under gunicorn."""
    settings.STORAGES = {
        **settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(params=sorted(WIDTHS))
def width(request, signed_in):
    """The test runs on a desktop and on a phone."""
    signed_in.set_viewport_size({"width": WIDTHS[request.param], "height": 900})
    return request.param
