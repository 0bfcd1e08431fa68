"""The site's own pages around the workspace: styled 404 and 500 with navigation, a favicon,
the home page's catalog table."""

import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import RequestFactory
from django.urls import reverse
from django.views.defaults import server_error


def test_a_missing_page_is_the_sites_404_with_its_navigation(client, user):
    client.force_login(user)
    assert settings.DEBUG is False
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Nothing at this address" in html
    assert 'class="topbar"' in html and f'href="{reverse("workspace:scenario-list")}"' in html
    assert 'rel="icon"' in html


def test_a_scenario_of_no_one_is_the_same_404(client, user):
    client.force_login(user)
    response = client.get(reverse("workspace:scenario-detail", args=[987654]))
    assert response.status_code == 404
    assert "Nothing at this address" in response.content.decode()


def test_a_server_error_is_the_sites_500_with_its_navigation():
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html
    assert 'class="topbar"' in html and f'href="{reverse("home")}"' in html


def test_the_favicon_is_served_from_the_sites_static_files():
    path = finders.find("favicon.svg")
    assert path and Path(path).read_text(encoding="utf-8").startswith("<svg")


def test_catalog_prices_are_grouped_whole_dollars_and_the_table_says_it_scrolls(client, db):
    html = client.get(reverse("home")).content.decode()
    prices = re.findall(r'<td class="num">([\d,.]+)</td>\s*<td>', html)
    assert prices and all(re.fullmatch(r"\d{1,3}(,\d{3})+", price) for price in prices), prices
    assert "scroll the table sideways" in html
