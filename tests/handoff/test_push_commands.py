"""`manage.py push_netbox` and `push_nautobot` share one command (handoff/management/commands/
_push.py): a wrong URL or a refused option is one line and an exit status, never a traceback."""

import json

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

SMALL = {"name": "Small pod", "compute": {"system": "dgx-b200", "nodes": 4}, "fabrics": {"compute": {"switch": "qm9700"}}}
UNREACHABLE = "http://127.0.0.1:9"


@pytest.fixture
def document(tmp_path) -> str:
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL))
    return str(path)


@pytest.mark.parametrize(("command", "tool"), [("push_netbox", "NetBox"), ("push_nautobot", "Nautobot")])
def test_an_unreachable_tool_is_one_line_and_status_1(command, tool, document, capsys):
    with pytest.raises(SystemExit) as exit:
        call_command(command, document, "--url", UNREACHABLE, "--token", "t" * 40)
    assert exit.value.code == 1
    assert capsys.readouterr().err.strip().startswith(f"{command}: {tool} at {UNREACHABLE} cannot be reached")


def test_a_refused_device_prefix_is_a_scenario_problem_status_2(document, capsys):
    with pytest.raises(SystemExit) as exit:
        call_command("push_netbox", document, "--url", UNREACHABLE, "--token", "t" * 40, "--device-prefix", "a b")
    assert exit.value.code == 2
    assert "device_prefix" in capsys.readouterr().err
