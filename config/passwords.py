"""The password hasher: Argon2id at the minimum the OWASP Password Storage Cheat Sheet
recommends (19 MiB of memory, 2 iterations, 1 degree of parallelism;
https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html).

Why not Django's default: PBKDF2 at 1,000,000 iterations costs about 550 ms of CPU per check on
the project's 2-core machine, this about 35 ms. Every failed sign-in checks a password, an
unknown name included (Django's backend hashes a dummy password so that names cannot be told
apart by time), so guesses on random names spent the server's cores on hashing while users
waited (issue 27: 60 concurrent guesses cost 14.8 s of CPU). Argon2id's memory hardness keeps an
offline attack on a stolen hash at least as costly as PBKDF2's did.
"""

from django.contrib.auth.hashers import Argon2PasswordHasher


class OwaspArgon2PasswordHasher(Argon2PasswordHasher):
    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
