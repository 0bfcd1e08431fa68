import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from catalog.rows import catalog_snapshot_from_files


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Every test database holds the seeded catalog, as a new installation does."""
    with django_db_blocker.unblock():
        call_command("loadcatalog", verbosity=0)


@pytest.fixture(scope="session")
def catalog():
    """The catalog as the seed files give it, for solver tests that need no database."""
    return catalog_snapshot_from_files()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("ada", password="analytical-engine")


@pytest.fixture
def user_api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture(autouse=True)
def _empty_cache():
    """Throttles and sign-in failures count in the cache: each test starts from none."""
    from django.core.cache import cache

    cache.clear()
