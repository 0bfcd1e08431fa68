"""scripts/run, the README's command, serves the planner with gunicorn and starts the job worker
beside it; HUP reloads both, Ctrl-C stops both (issue 11, point 1). Slow: it sets up a fresh
database (15 to 30 s on a busy 2-core machine)."""

import base64
import hashlib
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT = {"name": "Pod", "compute": {"system": "dgx-b200", "nodes": 8}, "fabrics": {"compute": {"switch": "qm9700"}}}
START_S = 120
JOB_S = 30
GROUP_GONE_S = 5


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def packages_installed_stamp() -> None:
    """scripts/setup installs the packages when pyproject.toml changed since its stamp; this
    test runs in that environment, so they are there: no install (and no network) here."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    (ROOT / ".venv" / f".installed-{digest}").touch()


def request(url: str, *, password: str | None = None, body: dict | None = None):
    headers = {"Accept": "application/json"}
    if password:
        headers["Authorization"] = "Basic " + base64.b64encode(f"admin:{password}".encode()).decode()
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=30) as response:
        return response.status, response.headers, response.read()


def job_worker_pid(script_pid: int) -> int:
    """The job worker the run script started: its child running `manage.py runworker`."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == script_pid and b"runworker" in command:
            return int(stat.parent.name)
    raise AssertionError("the run script has no job worker")


@pytest.mark.slow
def _signals_not_ignored():
    """As from a terminal or systemd: a shell cannot trap a signal it inherits ignored, and a
    suite run in the background (`nohup scripts/test &`) hands its children SIGINT and SIGHUP
    ignored."""
    for number in (signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


def test_the_run_script_serves_runs_jobs_and_stops_both_on_ctrl_c(tmp_path):
    if not (ROOT / ".venv" / "bin" / "gunicorn").exists():
        pytest.skip("no .venv with gunicorn in this checkout")
    packages_installed_stamp()
    var = tmp_path / "var"
    var.mkdir()
    if Path(settings.STATIC_ROOT).is_dir():
        # Collected already: collectstatic then only checks what changed.
        shutil.copytree(settings.STATIC_ROOT, var / "staticfiles")
    port = free_port()
    environment = {**os.environ, "PLANNER_VAR_DIR": str(var), "PORT": str(port), "WORKERS": "1",
                   "PLANNER_HEAVY_EXPORT_CABLES": "0"}
    environment.pop("DATABASE_URL", None)
    server = subprocess.Popen(["scripts/run"], cwd=ROOT, env=environment, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, start_new_session=True,
                              preexec_fn=_signals_not_ignored)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_S
        while True:
            assert server.poll() is None, server.stdout.read().decode()[-3000:]
            try:
                if request(f"{base}/healthz")[0] == 200:
                    break
            except (urllib.error.URLError, ConnectionError):
                pass
            assert time.monotonic() < deadline, "the server did not answer /healthz"
            time.sleep(0.5)
        password = (var / "first-user.txt").read_text().split("password: ")[1].split()[0]
        status, _, body = request(f"{base}/api/v1/scenarios/", password=password, body={"document": DOCUMENT})
        assert status == 201
        scenario = json.loads(body)["id"]
        status, headers, _ = request(f"{base}/api/v1/scenarios/{scenario}/export.cabling", password=password)
        assert status == 202
        deadline = time.monotonic() + JOB_S
        while (job := json.loads(request(headers["Location"], password=password)[2]))["status"] != "done":
            assert job["status"] in ("queued", "running"), job
            assert time.monotonic() < deadline, f"the job worker did not run the job: {job}"
            time.sleep(0.3)
        _, _, archive = request(job["download_url"], password=password)
        with zipfile.ZipFile(io.BytesIO(archive)) as files:
            assert files.read("pod.cabling.csv").startswith(b"link,from_rack,from_u,from_device")
        # A reload (systemd's ExecReload): gunicorn reloads, a new job worker runs the next job.
        os.kill(server.pid, signal.SIGHUP)
        status, headers, _ = request(f"{base}/api/v1/scenarios/{scenario}/export.xlsx", password=password)
        assert status == 200
        job = json.loads(request(f"{base}/api/v1/plan/export.cabling", password=password, body=DOCUMENT)[2])
        deadline = time.monotonic() + JOB_S
        while json.loads(request(job["url"], password=password)[2])["status"] != "done":
            assert time.monotonic() < deadline, "no job worker after the reload"
            time.sleep(0.3)
        # kill -9 of the job worker: the site stays up, and the worker is started again.
        os.kill(job_worker_pid(server.pid), signal.SIGKILL)
        assert request(f"{base}/healthz")[0] == 200
        assert request(f"{base}/api/v1/plan/", body=DOCUMENT)[0] == 200
        job = json.loads(request(f"{base}/api/v1/plan/export.netbox", password=password, body=DOCUMENT)[2])
        deadline = time.monotonic() + JOB_S
        while json.loads(request(job["url"], password=password)[2])["status"] != "done":
            assert time.monotonic() < deadline, "no job worker after kill -9 of the last one"
            time.sleep(0.3)
    finally:
        # Ctrl-C: SIGINT to the terminal's whole foreground process group.
        os.killpg(server.pid, signal.SIGINT)
        try:
            output = server.communicate(timeout=45)[0].decode()
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
    assert server.returncode == 130, output[-3000:]
    assert f"and the job worker (pid {server.pid};" in output
    assert "Handling signal: hup" in output
    assert len(re.findall(r"^Worker \S+ running background jobs", output, re.MULTILINE)) == 3
    # The reload's job worker stops; the last one stops, or is killed past scripts/run's limit.
    stopped = re.findall(r"^Worker \S+ stopped$|^The job worker \(pid \d+\) did not stop in \d+ s: killed$",
                         output, re.MULTILINE)
    assert len(stopped) == 2, output[-3000:]
    assert "ended with status 137: starting it again in 1 s; gunicorn goes on serving" in output
    # Nothing of the group is left: a worker killed last may take a moment to be reaped by init.
    deadline = time.monotonic() + GROUP_GONE_S
    with pytest.raises(ProcessLookupError):
        while time.monotonic() < deadline:
            os.killpg(server.pid, 0)
            time.sleep(0.1)
