"""Debian's slurmctld reads the generated topology.conf: `scontrol show topology` lists every
switch and node with the parents and levels the file gives (issue 15, point 5).

A throw-away controller: its own directory, port, state and pid file; auth/none (no munge);
`NodeName=... State=FUTURE` nodes, which the controller knows without any slurmd. Debian 12 has
Slurm 22.05: the tree only (blocks and topology.yaml came in 23.11 and 25.05; they are checked
by content in test_slurm.py). Skipped where slurmctld is not installed, except in CI.
"""

import os
import pwd
import shutil
import socket
import subprocess
import time
from collections import defaultdict

import pytest

from handoff.formats import slurm_topology_conf
from handoff.solver.hostlist import hostlist_expand
from handoff.solver.slurm import slurm_nodes, slurm_pattern, tree_switches
from planner.solver.pipeline import plan_scenario
from tests.handoff.conftest import example_document
from tests.handoff.solver.test_slurm import H100_3_TIER, HGX_TOP_OF_RACK
from tests.handoff.test_site_handoff import SMALL_SITE

SLURMCTLD = shutil.which("slurmctld") or "/usr/sbin/slurmctld"
SCONTROL = shutil.which("scontrol") or "/usr/bin/scontrol"
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")
START_TIMEOUT_S = 20

pytestmark = pytest.mark.skipif(
    not (os.access(SLURMCTLD, os.X_OK) and os.access(SCONTROL, os.X_OK)) and not IN_CI,
    reason="Debian's slurmctld and slurm-client are not installed (scripts/test installs them; CI must run this)",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def slurm_conf(folder, nodes: str) -> str:
    port = free_port()
    return "\n".join([
        "ClusterName=handoff",
        "SlurmctldHost=localhost",
        f"SlurmctldPort={port}",
        f"SlurmdPort={free_port()}",
        "AuthType=auth/none",
        "CredType=cred/none",
        f"SlurmUser={pwd.getpwuid(os.getuid()).pw_name}",
        f"StateSaveLocation={folder / 'state'}",
        f"SlurmdSpoolDir={folder / 'spool'}",
        f"SlurmctldPidFile={folder / 'slurmctld.pid'}",
        f"SlurmctldLogFile={folder / 'slurmctld.log'}",
        "MailProg=/bin/true",
        "MpiDefault=none",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SelectType=select/cons_tres",
        "TopologyPlugin=topology/tree",
        f"NodeName={nodes} NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=1 State=FUTURE",
        "PartitionName=all Nodes=ALL Default=YES",
        "",
    ])


def scontrol_topology(folder, topology: str, nodes: str) -> list[dict[str, str]]:
    """Start a controller on the files, ask `scontrol show topology`, stop it."""
    (folder / "state").mkdir()
    (folder / "spool").mkdir()
    conf = folder / "slurm.conf"
    conf.write_text(slurm_conf(folder, nodes))
    (folder / "topology.conf").write_text(topology)
    environment = {**os.environ, "SLURM_CONF": str(conf)}
    log = (folder / "stdout.log").open("wb")
    daemon = subprocess.Popen([SLURMCTLD, "-D", "-i", "-f", str(conf)], env=environment,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            shown = subprocess.run([SCONTROL, "-o", "show", "topology"], check=False, env=environment,
                                   capture_output=True, text=True, timeout=10)
            if shown.returncode == 0 and shown.stdout.strip():
                break
            if daemon.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"slurmctld did not answer: {shown.stderr}\n{(folder / 'stdout.log').read_text()[-3000:]}")
            time.sleep(0.2)
    finally:
        daemon.terminate()
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
        log.close()
    return [dict(field.split("=", 1) for field in line.split()) for line in shown.stdout.splitlines() if line]


@pytest.mark.parametrize("document", [
    None, H100_3_TIER, HGX_TOP_OF_RACK, SMALL_SITE, example_document("two-pool-site.yaml"),
    example_document("mixed-generation-expansion.yaml"),
], ids=["4su", "3-tier-16k", "top-of-rack", "site-of-pool-fabrics", "two-pool-site", "site-of-shared-fabric"])
def test_slurmctld_reads_every_switch_and_node_with_its_parent_and_level(document, plan_4su, catalog, tmp_path):
    """For a site, one tree per compute fabric side by side, each pool's nodes under its name."""
    plan = plan_4su if document is None else plan_scenario(document, catalog)
    count = slurm_nodes(plan, catalog).count
    pattern = slurm_pattern(None, slurm_nodes(plan, catalog))
    switches = tree_switches(plan, catalog)
    shown = {entry["SwitchName"]: entry for entry in
             scontrol_topology(tmp_path, slurm_topology_conf(plan, catalog).decode(), pattern.hostlist(range(count)))}
    assert sorted(shown) == sorted(switch.name for switch in switches)
    parents = defaultdict(list)
    for switch in switches:
        entry = shown[switch.name]
        assert int(entry["Level"]) == switch.level
        if switch.nodes:
            assert hostlist_expand(entry["Nodes"]) == [pattern.name(index) for index in switch.nodes]
            for node in hostlist_expand(entry["Nodes"]):
                parents[node].append(switch.name)
        else:
            assert sorted(hostlist_expand(entry["Switches"])) == sorted(switch.switches)
    assert sorted(parents) == sorted(pattern.name(index) for index in range(count))
    assert all(len(found) == 1 for found in parents.values())
