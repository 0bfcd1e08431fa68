import stat
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_creates_a_first_superuser_with_a_private_password_file(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    out = StringIO()
    call_command("ensurefirstuser", stdout=out)
    user = get_user_model().objects.get()
    assert user.is_superuser and user.is_staff and user.username == "admin"
    password_file = tmp_path / "first-user.txt"
    assert stat.S_IMODE(password_file.stat().st_mode) == 0o600
    password = password_file.read_text().split("password: ")[1].split()[0]
    assert user.check_password(password)
    assert "/accounts/login/" in out.getvalue() and str(password_file) in out.getvalue()
    assert password not in out.getvalue()


def test_does_nothing_when_a_user_exists(settings, tmp_path, user):
    settings.VAR_DIR = tmp_path
    call_command("ensurefirstuser", stdout=StringIO())
    assert get_user_model().objects.count() == 1
    assert not (tmp_path / "first-user.txt").exists()
