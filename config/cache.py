"""The cache of the server's workers: Django's file cache, with `add` and `incr` atomic across
processes, as they are in memcached and Redis.

Django's file cache reads and then writes in both, so 40 concurrent wrong passwords all read a
count below the lockout's limit before any wrote theirs (issue 27: 14 were checked where 10
should have been). Here each runs under an exclusive lock on one of a few lock files (by key),
and `incr` keeps the key's expiry, as memcached does, where Django's resets it to the default.
"""

import fcntl
import hashlib
import os
import pickle
import time
import zlib
from contextlib import contextmanager

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

LOCK_FILES = 64
"""Keys share this many lock files: enough that unrelated counts rarely wait for each other, few
enough that a flood of random user names cannot fill the disk with locks."""
LOCKS_DIRECTORY = "locks"


class LockingFileBasedCache(FileBasedCache):
    @contextmanager
    def _locked(self, key, version):
        stripe = int(hashlib.sha256(self.make_and_validate_key(key, version).encode()).hexdigest(), 16) % LOCK_FILES
        folder = os.path.join(self._dir, LOCKS_DIRECTORY)
        os.makedirs(folder, 0o700, exist_ok=True)
        with open(os.path.join(folder, f"{stripe}.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        with self._locked(key, version):
            return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        with self._locked(key, version):
            try:
                with open(self._key_to_file(key, version), "rb") as file:
                    expiry = pickle.load(file)
                    value = pickle.loads(zlib.decompress(file.read()))
            except FileNotFoundError:
                raise ValueError(f"Key '{key}' not found") from None
            remaining_s = None if expiry is None else expiry - time.time()
            if remaining_s is not None and remaining_s <= 0:
                raise ValueError(f"Key '{key}' not found")
            value += delta
            self.set(key, value, remaining_s, version)
            return value
