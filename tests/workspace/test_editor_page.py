"""The editor page as people read it: labels and choices in words, findable errors, percent
fields, no empty alerts."""

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from planner.models import Scenario

RAW_KEY = re.compile(r"\b[a-z]+_[a-z]+")
NOT_READ = {"script", "style", "textarea", "code", "datalist"}
"""Elements whose text is not the page's words: the YAML view shows the keys on purpose."""


class VisibleText(HTMLParser):
    """The text a reader sees (outside the YAML box) and the label of every option."""

    def __init__(self):
        super().__init__()
        self.hidden_depth = 0
        self.texts: list[str] = []
        self.options: list[str] = []
        self.ids: set[str] = set()
        self.alerts: list[str] = []
        self._in_option = False
        self._alert_depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag in NOT_READ:
            self.hidden_depth += 1
        if tag == "option":
            self._in_option = True
            self.options.append("")
        if attrs.get("role") == "alert" and tag == "div":
            self.alerts.append("")
            self._alert_depth = 1
        elif self._alert_depth and tag == "div":
            self._alert_depth += 1

    def handle_endtag(self, tag):
        if tag in NOT_READ:
            self.hidden_depth -= 1
        if tag == "option":
            self._in_option = False
        if tag == "div" and self._alert_depth:
            self._alert_depth -= 1

    def handle_data(self, data):
        if self._in_option:
            self.options[-1] += data
        elif not self.hidden_depth:
            self.texts.append(data)
        if self._alert_depth:
            self.alerts[-1] += data


def editor_post(**fields) -> dict[str, str]:
    """What the editor posts: its hidden document and the fields typed (`compute__gpus`)."""
    document = {"name": "Typed", "compute": {"system": "dgx-h100", "gpus": 64}}
    data = {"document": json.dumps(document), "base_revision": "0"}
    data.update({name.replace("__", "."): value for name, value in fields.items()})
    return data


def read(html: str) -> VisibleText:
    parser = VisibleText()
    parser.feed(html)
    return parser


@pytest.fixture
def ada_client(client, user):
    client.force_login(user)
    return client


def test_no_raw_key_in_the_labels_and_choices_of_a_new_scenario(ada_client):
    page = read(ada_client.get(reverse("workspace:scenario-new")).content.decode())
    assert len(page.options) > 50, "the page has the editor's dropdowns"
    assert [text for text in page.texts if RAW_KEY.search(text)] == []
    assert [option for option in page.options if RAW_KEY.search(option)] == []
    assert "Middle of row" in page.options and "A/B feeds" in page.options


def test_the_editor_has_no_empty_alert(ada_client):
    page = read(ada_client.get(reverse("workspace:scenario-new")).content.decode())
    assert [alert for alert in page.alerts if not alert.strip()] == []


def test_a_share_is_shown_in_percent_and_saved_as_a_fraction(ada_client):
    html = ada_client.get(reverse("workspace:scenario-new")).content.decode()
    assert 'id="f-workload-mfu" name="workload.mfu" value="40"' in html
    data = editor_post(
        workload__mfu="38%",
        workload__parameters_billion="405",
        workload__tokens_trillion="15",
        compute__gpus="1,024",
        finance__discount_rate="7.5",
    )
    data["include:workload"] = "on"
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 302, response.context["editor"].error_summary()
    document = Scenario.objects.get().document
    assert document["workload"]["mfu"] == pytest.approx(0.38)
    assert document["compute"]["gpus"] == 1024
    assert document["finance"]["discount_rate"] == pytest.approx(0.075)


def test_a_refused_save_lists_each_error_with_a_link_to_its_field(ada_client):
    data = editor_post(compute__gpus="1,02,4", facility__ups_efficiency="120", racks__usable_u="-3")
    response = ada_client.post(reverse("workspace:scenario-new"), data)
    assert response.status_code == 400
    page = read(response.content.decode())
    banner = re.search(
        r'<div id="error-summary" class="error-summary" role="alert">(.*?)</div>', response.content.decode(), re.DOTALL
    )
    assert banner, "the refused save has a banner at the top of the form"
    links = re.findall(r'<li><a href="#([^"]+)">([^<]+)</a>: ([^<]+)</li>', banner.group(1))
    assert "Not saved: 3 problems to fix" in banner.group(1)
    assert [(anchor, where) for anchor, where, _ in links] == [
        ("f-compute-gpus", "Compute › GPUs"),
        ("f-racks-usable-u", "Racks and cooling › Usable U"),
        ("f-facility-ups-efficiency", "Facility › UPS efficiency"),
    ]
    assert all(anchor in page.ids for anchor, _, _ in links), "every link leads to its input"
    messages = {anchor: message for anchor, _, message in links}
    assert "“1,02,4” is not a number" in messages["f-compute-gpus"]
    assert messages["f-facility-ups-efficiency"] == "must be between 50 % and 100 %"
    assert 'value="1,02,4"' in response.content.decode(), "the typed text is shown again"
    assert not Scenario.objects.exists()
