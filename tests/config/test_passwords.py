"""Passwords are hashed with Argon2id at OWASP's minimum, and a hash made before with Django's
PBKDF2 signs in and is rehashed (config/passwords.py)."""

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.hashers import identify_hasher, make_password

pytestmark = pytest.mark.django_db


def test_a_new_password_is_argon2id_with_19_mib_2_iterations_and_1_lane():
    encoded = make_password("analytical-engine")
    # $argon2id$v=19$m=19456,t=2,p=1$salt$hash: memory in KiB, time cost, parallelism
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert identify_hasher(encoded).algorithm == "argon2"


def test_a_pbkdf2_hash_of_before_still_signs_in_and_is_rehashed():
    user = get_user_model().objects.create(username="ada")
    user.password = make_password("analytical-engine", hasher="pbkdf2_sha256")
    user.save()
    assert authenticate(username="ada", password="wrong-password") is None
    assert authenticate(username="ada", password="analytical-engine") == user
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
