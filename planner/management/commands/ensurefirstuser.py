"""Create the first user when there is none, and say how to sign in."""

import os
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

FIRST_USER_NAME = "admin"
PASSWORD_FILE_NAME = "first-user.txt"
PASSWORD_BYTES = 18


class Command(BaseCommand):
    help = (
        "When no user exists, create a staff superuser with a random password kept in "
        "var/first-user.txt (readable by its owner only) and print how to sign in."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default=FIRST_USER_NAME)
        parser.add_argument("--url", default="http://127.0.0.1:8000/accounts/login/")

    def handle(self, *args, username, url, **options):
        users = get_user_model()
        if users.objects.exists():
            return
        password = secrets.token_urlsafe(PASSWORD_BYTES)
        users.objects.create_superuser(username=username, email="", password=password)
        path = settings.VAR_DIR / PASSWORD_FILE_NAME
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(f"user: {username}\npassword: {password}\nsign in at: {url}\n")
        self.stdout.write(
            f"Created the first user '{username}' (staff, may edit the catalog).\n"
            f"Sign in at {url} as '{username}' with the password in {path}."
        )
