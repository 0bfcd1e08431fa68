"""Hypothesis profiles of the property tests.

- `ci` (the default): derandomized, so every run checks the same scenarios; no deadline (a
  plan's cabling rows take from milliseconds to a second); enough examples that the invariant
  tests together check more than 2,000 planned scenarios in about three minutes on two cores.
- `thorough`: ten times the examples, still derandomized (HYPOTHESIS_PROFILE=thorough).
- `dev`: random examples, for hunting new failures (HYPOTHESIS_PROFILE=dev; the cabling tests
  keep their shared seed).
- `quick`: 30 examples and no shrinking, for a first look (HYPOTHESIS_PROFILE=quick);
  `unshrunk`: the ci examples without shrinking, to see a failure fast.

    env -u DATABASE_URL .venv/bin/python -m pytest -q -p no:cacheprovider tests/properties
    HYPOTHESIS_PROFILE=thorough env -u DATABASE_URL .venv/bin/python -m pytest -q tests/properties

An invariant the current engine breaks is marked xfail(strict=True) with its minimal scenario
as an @example (which fails first, so the run does not search and shrink); the same scenarios
are plain tests in test_known_violations.py.
"""

import os

from hypothesis import HealthCheck, Phase, settings

CI_EXAMPLES = 400
"""Planned scenarios per invariant test under the ci profile."""

_COMMON = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
    database=None,
)
settings.register_profile("ci", max_examples=CI_EXAMPLES, derandomize=True, **_COMMON)
settings.register_profile("thorough", max_examples=10 * CI_EXAMPLES, derandomize=True, **_COMMON)
settings.register_profile("dev", max_examples=CI_EXAMPLES, derandomize=False, **_COMMON)
settings.register_profile(
    "quick", max_examples=30, derandomize=True, phases=[Phase.explicit, Phase.generate], **_COMMON
)
settings.register_profile(
    "unshrunk", max_examples=CI_EXAMPLES, derandomize=True, phases=[Phase.explicit, Phase.generate], **_COMMON
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
