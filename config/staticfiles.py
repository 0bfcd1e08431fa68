"""Static files with hashed, compressed names (whitenoise), served for years from cache."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class PlannerStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Falls back to the plain name of a file the manifest does not list, so that a checkout
    where collectstatic has not run (tests, development) still renders its pages; scripts/setup
    runs collectstatic before the server starts."""

    manifest_strict = False
