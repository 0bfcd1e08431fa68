"""Load test: simulated users plan, read dashboards and lists, and export, against the planner
served as the README says (scripts/run: gunicorn), on loopback; prints throughput, latency
percentiles and errors per kind of request.

Run as `.venv/bin/python scripts/loadtest.py [--users 50] [--duration 60] [--p99-ms 1000]`.

Without --url it serves the planner itself with scripts/run on a free loopback port, in a
throw-away folder (PLANNER_VAR_DIR: its own SQLite database, cache and static files; DATABASE_URL
is unset for it unless --use-database-url), with the anonymous planning throttle raised so that
the server is measured, not the throttle. WORKERS and TIMEOUT pass through to scripts/run. It
creates --accounts users, their API tokens and saved scenarios, signs each account in, then runs
the users for the duration and stops the server.

With --url it runs against a server already running there (the README's, say), as the user in
var/first-user.txt or --username with the password in LOADTEST_PASSWORD; its saved scenarios
are deleted at the end. Anonymous plans past that server's PLANNER_ANONYMOUS_PLAN_RATE are 429
errors: --plans-signed-in sends them with a token instead.

Each user is a browser with its own connection: it picks a request by weight (MIX), sends it,
waits for the whole answer, then thinks for a uniform --think-min..--think-max seconds. A
request is an error unless its status is the one expected (200); sign-ins and setup are not
measured. Exits 1 when any request failed or the p99 of all requests is over --p99-ms.

--attackers N adds N attackers beside the users (issue 27): each sends the worst documents and
requests (ATTACKS: a YAML alias bomb, 100 pools, 50 phases, a 10 M-GPU site on 16 planes, the
most racks, HTTP basic-auth guesses on random names) one after another, anonymously, with a
short pause. An attack must be refused or answered (any status below 500, in time); the users'
figures (and the p99 that passes or fails the run) are the users' requests alone.
"""

import argparse
import asyncio
import copy
import json
import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
UNTHROTTLED_RATE = "1000000/min"
SERVER_START_TIMEOUT_S = 300
"""scripts/setup may install packages first (when pyproject.toml changed)."""
REQUEST_TIMEOUT_S = 90
"""Longer than the server's own worker timeout (60 s), so that it is the server that gives up."""


# The documents planned and saved ---------------------------------------------------------------


def cluster_document(gpus: int) -> dict:
    """A DGX B300 cluster on a Quantum-X800 fat tree with storage, in-band and out-of-band
    fabrics (as scripts/benchmark.py plans)."""
    return {
        "name": f"Load test, {gpus:,} GPUs",
        "compute": {"system": "dgx-b300", "gpus": gpus},
        "racks": {"power_budget_kw": 130, "cooling": "direct_liquid"},
        "fabrics": {
            "compute": {"switch": "q3400", "topology": "fat_tree"},
            "storage": {"switch": "q3400"},
            "inband": {"switch": "q3400"},
            "oob": {"switch": "sn2201", "spine_switch": "sn5600"},
        },
    }


def sized_document(nominal_gpus: int, rng: random.Random) -> dict:
    """A cluster of about `nominal_gpus` (half to one and a half times, whole nodes of 8), so
    that no two requests plan quite the same thing."""
    return cluster_document(max(8, round(nominal_gpus * rng.uniform(0.5, 1.5) / 8) * 8))


def example_documents() -> list[dict]:
    return [yaml.safe_load(path.read_text()) for path in sorted(EXAMPLES.glob("*.yaml"))]


def saved_documents(scenarios: str = "all") -> list[dict]:
    """What each account keeps: the README's examples (1k GPUs, an NVL72 facility, a training
    job) and clusters of 10k and 100k GPUs (`small`: the examples alone)."""
    if scenarios == "small":
        return example_documents()
    return [*example_documents(), cluster_document(10_000), cluster_document(100_000)]


# Accounts and users ---------------------------------------------------------------------------


@dataclass
class Account:
    username: str
    password: str
    token: str = ""
    session_cookies: dict = field(default_factory=dict)
    scenario_ids: list[int] = field(default_factory=list)


@dataclass
class User:
    """One simulated person: a browser signed in as `account` for the pages, and a script for
    the API (no session: a signed-in session would need a CSRF token to post), each with its own
    connection."""

    browser: httpx.AsyncClient
    client: httpx.AsyncClient
    account: Account
    rng: random.Random

    @property
    def token_headers(self) -> dict:
        return {"Authorization": f"Token {self.account.token}"}

    def saved_scenario(self) -> int:
        return self.rng.choice(self.account.scenario_ids)


@dataclass(frozen=True)
class Sample:
    kind: str
    latency_s: float
    outcome: str
    """"ok", the unexpected status code, or the client's error (ReadTimeout, ConnectError...)."""


# The mix of requests --------------------------------------------------------------------------

Send = Callable[[User, argparse.Namespace], Awaitable[httpx.Response]]


def plan_of(nominal_gpus: int) -> Send:
    def send(user: User, options: argparse.Namespace) -> Awaitable[httpx.Response]:
        headers = user.token_headers if options.plans_signed_in else {}
        document = sized_document(nominal_gpus, user.rng)
        return user.client.post("/api/v1/plan/", json=document, headers=headers)

    return send


def dashboard(user: User, options) -> Awaitable[httpx.Response]:
    return user.browser.get(f"/scenarios/{user.saved_scenario()}/")


def list_page(user: User, options) -> Awaitable[httpx.Response]:
    return user.browser.get("/scenarios/")


def list_api(user: User, options) -> Awaitable[httpx.Response]:
    return user.client.get("/api/v1/scenarios/", headers=user.token_headers)


def saved_export(export_format: str) -> Send:
    def send(user: User, options) -> Awaitable[httpx.Response]:
        url = f"/api/v1/scenarios/{user.saved_scenario()}/export.{export_format}"
        return user.client.get(url, headers=user.token_headers)

    return send


def small_cabling(user: User, options) -> Awaitable[httpx.Response]:
    """The point-to-point cabling plan (streamed CSV) of a posted 1k-GPU document."""
    headers = user.token_headers if options.plans_signed_in else {}
    document = sized_document(1_000, user.rng)
    return user.client.post("/api/v1/plan/export.cabling", json=document, headers=headers)


MIX: dict[str, tuple[int, Send]] = {
    # kind: (weight, request); anonymous planning is the open door, dashboards the daily work.
    "plan 1k GPUs (anonymous)": (4, plan_of(1_000)),
    "plan 10k GPUs (anonymous)": (2, plan_of(10_000)),
    "plan 100k GPUs (anonymous)": (1, plan_of(100_000)),
    "dashboard page": (4, dashboard),
    "scenario list page": (2, list_page),
    "scenario list API": (2, list_api),
    "BOM CSV export": (1, saved_export("csv")),
    "BOM XLSX export": (1, saved_export("xlsx")),
    "cabling export 1k GPUs": (1, small_cabling),
}


# The attackers -------------------------------------------------------------------------------


def _alias_bomb() -> str:
    """A YAML billion laughs: each level nine aliases of the one before (refused at the first)."""
    lines = ['a0: &a0 ["lol"]']
    lines += [f"a{level}: &a{level} [{', '.join(f'*a{level - 1}' for _ in range(9))}]" for level in range(1, 10)]
    return "name: bomb\n" + "\n".join(lines) + "\ncompute: {system: dgx-b300, gpus: 8}\n"


def pools_document(count: int, gpus: int, planes: int = 1) -> dict:
    """`count` pools of `gpus` GPUs, each on a fabric of its own of `planes` planes."""
    return {"name": "pools attack", "pools": [
        {"name": f"p{index}", "system": "dgx-b300", "gpus": gpus, "fabric": {"switch": "q3400", "planes": planes}}
        for index in range(count)]}


def phases_document(count: int, final_gpus: int) -> dict:
    """The issue's `count` phases growing evenly to `final_gpus`, one pool on one fabric."""
    return {
        "name": "phases attack", "growth": "per_phase", "fabrics": {"compute": {"switch": "q3400"}},
        "pools": [{"name": "compute", "system": "dgx-b300", "gpus": final_gpus}],
        "phases": [{"name": f"f{index}", "start": f"{2026 + index // 12}-{index % 12 + 1:02d}-01",
                    "pools": {"compute": {"gpus": max(8, final_gpus * (index + 1) // count)}}}
                   for index in range(count)],
    }


ONE_GPU_SYSTEM = {"slug": "tiny", "name": "One-GPU box", "gpus": 1, "power_kw": 1, "rack_units": 1,
                  "weight_kg": 10, "price_usd": 1000}


def _post_json(url: str, document: dict) -> Send:
    def send(user: User, options) -> Awaitable[httpx.Response]:
        return user.client.post(url, json=document)

    return send


def _alias_bomb_attack(user: User, options) -> Awaitable[httpx.Response]:
    return user.client.post("/api/v1/plan/", content=_alias_bomb(), headers={"Content-Type": "application/yaml"})


def _basic_auth_guess(user: User, options) -> Awaitable[httpx.Response]:
    name = f"guess-{user.rng.getrandbits(48):012x}"
    return user.client.get("/api/v1/scenarios/", auth=(name, f"pw-{user.rng.getrandbits(32):08x}"))


ATTACKS: dict[str, Send] = {
    "alias bomb": _alias_bomb_attack,
    "100 pools": _post_json("/api/v1/plan/", pools_document(100, 16_000)),
    "50 phases to 240k GPUs": _post_json("/api/v1/plan/", phases_document(50, 240_000)),
    "8 pools x 100k GPUs, 16 planes": _post_json("/api/v1/plan/", pools_document(8, 100_000, planes=16)),
    "10 M GPUs, 16 planes": _post_json("/api/v1/plan/", {
        "name": "huge", "compute": {"system": "dgx-b300", "gpus": 10_000_000},
        "fabrics": {"compute": {"switch": "arista-7800r4-16", "topology": "dragonfly", "planes": 16}}}),
    "10 M GPUs workbook": _post_json("/api/v1/plan/export.xlsx", {
        "name": "huge", "compute": {"system": "dgx-b300", "gpus": 10_000_000}}),
    "2 M racks": _post_json("/api/v1/plan/", {
        "name": "racks", "compute": {"system": "tiny", "gpus": 2_000_001},
        "racks": {"max_nodes_per_rack": 1, "racks_per_row": 40}, "components": {"systems": [ONE_GPU_SYSTEM]}}),
    "basic-auth guess": _basic_auth_guess,
}


async def run_attacker(attacker: User, options, deadline: float, samples: list[Sample]) -> None:
    """Sends the attacks in turn until the deadline, pausing --attack-pause-s between them. A
    refusal is the expected answer: an attack fails the run only with a server error or no
    answer."""
    kinds = list(ATTACKS)
    turn = 0
    while time.monotonic() < deadline:
        kind = kinds[turn % len(kinds)]
        turn += 1
        start = time.perf_counter()
        try:
            response = await ATTACKS[kind](attacker, options)
            outcome = "ok" if response.status_code < 500 else str(response.status_code)
        except httpx.HTTPError as error:
            outcome = type(error).__name__
        samples.append(Sample(kind, time.perf_counter() - start, outcome))
        await asyncio.sleep(options.attack_pause_s)


async def run_user(
    user: User, options, deadline: float, samples: list[Sample], unsent: list[str]
) -> None:
    """Sends requests until the deadline, and past it until every kind has been sent once: first
    the kinds no user has sent yet (`unsent`, shared by the users), so a short run on a busy
    machine still measures every kind; then by weight."""
    kinds = list(MIX)
    weights = [weight for weight, _ in MIX.values()]
    # People arrive over the first think time rather than all in the same millisecond.
    await asyncio.sleep(user.rng.uniform(0, options.think_max))
    while unsent or time.monotonic() < deadline:
        kind = unsent.pop() if unsent else user.rng.choices(kinds, weights)[0]
        start = time.perf_counter()
        try:
            response = await MIX[kind][1](user, options)
            outcome = (
                "ok"
                if response.status_code == 200 and response.content
                else str(response.status_code)
            )
        except httpx.HTTPError as error:
            outcome = type(error).__name__
        samples.append(Sample(kind, time.perf_counter() - start, outcome))
        await asyncio.sleep(user.rng.uniform(options.think_min, options.think_max))


# Setting up: the server, accounts, tokens, sessions, saved scenarios --------------------------


def free_loopback_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnServer:
    """The planner served by scripts/run in a throw-away folder, stopped and removed at exit."""

    def __init__(self, options):
        self.folder = Path(tempfile.mkdtemp(prefix="planner-loadtest-"))
        self.port = free_loopback_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.folder / "server.log"
        self.env = {
            **os.environ,
            "PLANNER_VAR_DIR": str(self.folder / "var"),
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "PLANNER_ANONYMOUS_PLAN_RATE": UNTHROTTLED_RATE,
        }
        if not options.use_database_url:
            self.env.pop("DATABASE_URL", None)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [str(ROOT / "scripts" / "run")],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the server stopped while starting:\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        raise SystemExit(
            f"the server did not answer /healthz in {SERVER_START_TIMEOUT_S} s:\n{self.log_tail()}"
        )

    def create_accounts(self, count: int) -> list[Account]:
        password = "load-" + os.urandom(12).hex()
        names = [f"loadtest-{number:02}" for number in range(1, count + 1)]
        code = (
            "import os\n"
            "from django.contrib.auth import get_user_model\n"
            "for name in os.environ['LOADTEST_USERS'].split(','):\n"
            "    get_user_model().objects.create_user(name, password=os.environ['LOADTEST_PASSWORD'])\n"
        )
        subprocess.run(
            [
                str(ROOT / ".venv" / "bin" / "python"),
                "manage.py",
                "shell",
                "--verbosity",
                "0",
                "-c",
                code,
            ],
            cwd=ROOT,
            env={**self.env, "LOADTEST_USERS": ",".join(names), "LOADTEST_PASSWORD": password},
            check=True,
        )
        return [Account(name, password) for name in names]

    def cpu_s(self) -> float:
        """CPU seconds used so far by the server's processes alive now (gunicorn and its
        workers: the process group scripts/run started)."""
        ticks = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                # Fields after the command's closing parenthesis: state is the 3rd, the process
                # group the 5th, user and system time the 14th and 15th (proc(5)).
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.process.pid:
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")

    def error_lines(self) -> list[str]:
        """Lines of the server's error log that say a request failed or a worker died."""
        pattern = re.compile(r"\b(ERROR|CRITICAL|Traceback|WORKER TIMEOUT)\b")
        return [
            line
            for line in self.log_path.read_text(errors="replace").splitlines()
            if pattern.search(line)
        ]

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            # scripts/run stops gunicorn (its workers gracefully) and the job worker on TERM.
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        subprocess.run(["rm", "-rf", str(self.folder)], check=False)


def first_user_account() -> Account:
    """--url's default account: the user scripts/run made, whose password is in var/."""
    fields = dict(
        line.split(": ", 1)
        for line in (ROOT / "var" / "first-user.txt").read_text().splitlines()
        if ": " in line
    )
    return Account(fields["user"], fields["password"])


async def prepare_account(
    client: httpx.AsyncClient, account: Account, documents: list[dict]
) -> None:
    """A token for the API, a signed-in session for the pages, and the saved scenarios."""
    answer = await client.post(
        "/api/v1/token/", data={"username": account.username, "password": account.password}
    )
    if answer.status_code != 200:
        raise SystemExit(
            f"no API token for {account.username}: {answer.status_code} {answer.text[:300]}"
        )
    account.token = answer.json()["token"]
    headers = {"Authorization": f"Token {account.token}"}

    browser = httpx.AsyncClient(base_url=str(client.base_url), timeout=REQUEST_TIMEOUT_S)
    async with browser:
        await browser.get("/accounts/login/")
        answer = await browser.post(
            "/accounts/login/",
            data={
                "username": account.username,
                "password": account.password,
                "csrfmiddlewaretoken": browser.cookies["csrftoken"],
            },
            headers={"Referer": f"{client.base_url}/accounts/login/"},
        )
        if answer.status_code != 302:
            raise SystemExit(f"{account.username} could not sign in: {answer.status_code}")
        account.session_cookies = dict(browser.cookies)

    for document in documents:
        answer = await client.post(
            "/api/v1/scenarios/", json={"document": document}, headers=headers
        )
        if answer.status_code != 201:
            raise SystemExit(
                f"could not save {document['name']!r}: {answer.status_code} {answer.text[:300]}"
            )
        account.scenario_ids.append(answer.json()["id"])


async def delete_scenarios(client: httpx.AsyncClient, accounts: list[Account]) -> None:
    for account in accounts:
        for scenario_id in account.scenario_ids:
            await client.delete(
                f"/api/v1/scenarios/{scenario_id}/",
                headers={"Authorization": f"Token {account.token}"},
            )


# The run and its report -----------------------------------------------------------------------


@dataclass
class Run:
    samples: list[Sample]
    attack_samples: list[Sample]
    elapsed_s: float
    client_cpu_s: float
    server_cpu_s: float | None
    """None when the server is not this script's."""


async def load(url: str, accounts: list[Account], options, server: "OwnServer | None") -> Run:
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_TIMEOUT_S) as setup_client:
        documents = saved_documents(options.scenarios)
        await asyncio.gather(
            *(prepare_account(setup_client, account, documents) for account in accounts)
        )
        users = []
        one_connection = httpx.Limits(max_connections=1)
        for index in range(options.users):
            account = accounts[index % len(accounts)]
            browser = httpx.AsyncClient(
                base_url=url,
                timeout=REQUEST_TIMEOUT_S,
                limits=one_connection,
                cookies=copy.copy(account.session_cookies),
            )
            client = httpx.AsyncClient(
                base_url=url, timeout=REQUEST_TIMEOUT_S, limits=one_connection
            )
            users.append(User(browser, client, account, random.Random(options.seed * 1000 + index)))
        attackers = [
            User(httpx.AsyncClient(base_url=url, timeout=REQUEST_TIMEOUT_S, limits=one_connection),
                 httpx.AsyncClient(base_url=url, timeout=REQUEST_TIMEOUT_S, limits=one_connection),
                 accounts[0], random.Random(options.seed * 1000 - 1 - index))
            for index in range(options.attackers)
        ]
        samples: list[Sample] = []
        attack_samples: list[Sample] = []
        server_cpu_s = server.cpu_s() if server else None
        client_cpu_s = time.process_time()
        start = time.monotonic()
        unsent = list(MIX)
        try:
            await asyncio.gather(
                *(run_user(user, options, start + options.duration, samples, unsent) for user in users),
                *(run_attacker(attacker, options, start + options.duration, attack_samples)
                  for attacker in attackers),
            )
        finally:
            for user in (*users, *attackers):
                await user.browser.aclose()
                await user.client.aclose()
        run = Run(
            samples,
            attack_samples,
            time.monotonic() - start,
            time.process_time() - client_cpu_s,
            server.cpu_s() - server_cpu_s if server else None,
        )
        if not server:
            await delete_scenarios(setup_client, accounts)
    return run


def percentile(sorted_values: list[float], share: float) -> float:
    """Nearest rank: the smallest value with at least `share` of the values at or below it."""
    return sorted_values[max(0, math.ceil(share * len(sorted_values)) - 1)]


def summary(samples: list[Sample], elapsed_s: float) -> dict:
    latencies_ms = sorted(sample.latency_s * 1000 for sample in samples)
    errors = Counter(sample.outcome for sample in samples if sample.outcome != "ok")
    if not latencies_ms:
        return {"count": 0, "per_s": 0.0, "errors": 0, "errors_by_outcome": {}}
    return {
        "count": len(samples),
        "per_s": len(samples) / elapsed_s,
        "p50_ms": percentile(latencies_ms, 0.50),
        "p95_ms": percentile(latencies_ms, 0.95),
        "p99_ms": percentile(latencies_ms, 0.99),
        "max_ms": latencies_ms[-1],
        "errors": sum(errors.values()),
        "errors_by_outcome": dict(errors),
    }


def report(samples: list[Sample], elapsed_s: float, attack_samples: list[Sample] = ()) -> dict:
    kinds = {kind: summary([s for s in samples if s.kind == kind], elapsed_s) for kind in MIX}
    results = {"elapsed_s": elapsed_s, "kinds": kinds, "total": summary(samples, elapsed_s)}
    if attack_samples:
        results["attacks"] = {kind: summary([s for s in attack_samples if s.kind == kind], elapsed_s)
                              for kind in ATTACKS}
        results["attacks_total"] = summary(list(attack_samples), elapsed_s)
    return results


def print_table(results: dict) -> None:
    header = f"{'request':<28} {'count':>6} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}  errors"
    print(header)
    print("-" * len(header))
    rows = [*results["kinds"].items(), ("all requests", results["total"])]
    if "attacks" in results:
        rows += [("attacks (not in the users' figures)", None), *results["attacks"].items(),
                 ("all attacks", results["attacks_total"])]
    for kind, row in rows:
        if row is None:
            print(f"\n{kind}")
            continue
        if kind in ("all requests", "all attacks"):
            print("-" * len(header))
        if not row["count"]:
            print(f"{kind:<28} {0:>6}")
            continue
        errors = (
            ", ".join(f"{outcome} x{count}" for outcome, count in row["errors_by_outcome"].items())
            or "0"
        )
        print(
            f"{kind:<28} {row['count']:>6} {row['per_s']:>7.1f} {row['p50_ms']:>7.0f} {row['p95_ms']:>7.0f} "
            f"{row['p99_ms']:>7.0f} {row['max_ms']:>7.0f}  {errors}"
        )


def print_machine(results: dict) -> None:
    """Where the CPU went: the figures above depend on what else the machine was doing."""
    count = results["total"]["count"]
    print(
        f"\nCores: {os.cpu_count()}; load average (1 min) {results['load_average_before']:.1f} before the run, "
        f"{results['load_average_after']:.1f} at its end (other processes than these compete for the cores)."
    )
    if results["server_cpu_s"] is not None and count:
        per_request_ms = results["server_cpu_s"] * 1000 / count
        print(
            f"Server: {results['server_cpu_s']:.1f} CPU-s for {count} requests, {per_request_ms:.1f} ms each on "
            f"average: {os.cpu_count()} free cores would serve about {os.cpu_count() * 1000 / per_request_ms:.0f} "
            f"requests/s of this mix. Load test client: {results['client_cpu_s']:.1f} CPU-s."
        )


def options_from(arguments: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--users", type=int, default=50, help="simulated users at once (default 50)"
    )
    parser.add_argument("--duration", type=float, default=60, help="seconds of load (default 60)")
    parser.add_argument(
        "--p99-ms", type=float, default=1000, help="the target p99 of all requests (default 1000)"
    )
    parser.add_argument(
        "--think-min",
        type=float,
        default=1.0,
        help="seconds a user waits between requests, at least",
    )
    parser.add_argument(
        "--think-max", type=float, default=3.0, help="... and at most (default 1 to 3)"
    )
    parser.add_argument(
        "--accounts",
        type=int,
        default=10,
        help="team members the users sign in as, without --url (default 10)",
    )
    parser.add_argument(
        "--url", help="a planner already running there (default: serve one with scripts/run)"
    )
    parser.add_argument(
        "--username",
        help="with --url: the account (default: var/first-user.txt's); password in LOADTEST_PASSWORD",
    )
    parser.add_argument(
        "--plans-signed-in", action="store_true", help="send plans and posted exports with a token"
    )
    parser.add_argument(
        "--use-database-url",
        action="store_true",
        help="the served planner keeps DATABASE_URL (e.g. under scripts/with-postgres)",
    )
    parser.add_argument("--seed", type=int, default=1, help="of the users' choices and sizes")
    parser.add_argument("--attackers", type=int, default=0,
                        help="attackers sending the worst documents beside the users (default 0)")
    parser.add_argument("--attack-pause-s", type=float, default=0.2,
                        help="seconds an attacker waits between attacks (default 0.2)")
    parser.add_argument("--scenarios", choices=("all", "small"), default="all",
                        help="what each account saves first: the examples and 10k and 100k GPUs, or "
                        "the examples alone (a quicker setup)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args(arguments)
    if (
        options.users < 1
        or options.accounts < 1
        or options.duration <= 0
        or not 0 <= options.think_min <= options.think_max
    ):
        parser.error(
            "--users and --accounts must be at least 1, --duration positive, 0 <= --think-min <= --think-max"
        )
    return options


def main(arguments: list[str] | None = None) -> int:
    options = options_from(arguments)
    server = None
    if options.url:
        if options.username:
            account = Account(options.username, os.environ.get("LOADTEST_PASSWORD", ""))
        else:
            account = first_user_account()
        accounts, url = [account], options.url.rstrip("/")
    else:
        server = OwnServer(options)
    try:
        if server:
            print(
                f"Serving the planner with scripts/run on {server.url} (log: {server.log_path}) ...",
                flush=True,
            )
            server.start()
            accounts, url = server.create_accounts(options.accounts), server.url
        workers = os.environ.get("WORKERS", f"{2 * os.cpu_count() + 1} (2 x cores + 1)")
        print(
            f"{options.users} users for {options.duration:g} s against {url}"
            + (f", {workers} gunicorn workers" if server else "")
            + f", {options.think_min:g}-{options.think_max:g} s between requests; "
            f"{len(accounts)} accounts with {len(saved_documents(options.scenarios))} saved scenarios each"
            + (f"; {options.attackers} attackers" if options.attackers else ""),
            flush=True,
        )
        load_average_before = os.getloadavg()[0]
        run = asyncio.run(load(url, accounts, options, server))
        load_average_after = os.getloadavg()[0]
        server_errors = server.error_lines() if server else []
    finally:
        if server:
            server.stop()

    results = report(run.samples, run.elapsed_s, run.attack_samples)
    results.update(
        server_error_log_lines=len(server_errors),
        server_cpu_s=run.server_cpu_s,
        client_cpu_s=run.client_cpu_s,
        load_average_before=load_average_before,
        load_average_after=load_average_after,
    )
    print_table(results)
    print_machine(results)
    if server_errors:
        print(f"\nThe server's log has {len(server_errors)} error lines; the first:")
        print("\n".join(server_errors[:10]))
    if options.json:
        options.json.write_text(json.dumps(results, indent=2))
    total = results["total"]
    attack_errors = results.get("attacks_total", {}).get("errors", 0)
    passed = (
        total["count"] > 0
        and total["errors"] == 0
        and total["p99_ms"] <= options.p99_ms
        and not server_errors
        and not attack_errors
    )
    attacks = f", {attack_errors} attacks answered by a server error or not at all" if options.attackers else ""
    print(
        f"\n{'PASS' if passed else 'FAIL'}: {total['errors']} errors, p99 {total.get('p99_ms', 0):.0f} ms{attacks} "
        f"(target: no errors, p99 under {options.p99_ms:g} ms)"
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
