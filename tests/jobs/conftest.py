import subprocess
import sys

import pytest

TEST_KINDS = {
    "write_text": "tests.jobs.kinds.write_text",
    "refuse": "tests.jobs.kinds.refuse",
    "crash": "tests.jobs.kinds.crash",
    "stop_worker_midway": "tests.jobs.kinds.stop_worker_midway",
}


@pytest.fixture(autouse=True)
def jobs_dir(settings, tmp_path):
    """Each test's job files in a folder of its own, and the test kinds beside the real ones."""
    settings.JOBS_DIR = tmp_path / "jobs"
    settings.JOB_KINDS = {**settings.JOB_KINDS, **TEST_KINDS}
    return settings.JOBS_DIR


@pytest.fixture
def dead_pid() -> str:
    """The process id of a process that has ended (as a worker that died leaves it)."""
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    return finished.stdout.strip()
