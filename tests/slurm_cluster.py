"""A real single-node Slurm cluster in a temporary directory, for the cluster tests.

It starts ``munged`` with a fresh key, then ``slurmctld`` and ``slurmd`` with a ``slurm.conf`` written
here (loopback only, ports chosen free, no cgroups, no accounting), and gives the environment in which
``sbatch``, ``squeue`` and ``scancel`` talk to it. Everything it starts is stopped by :meth:`stop`.
It needs Debian's ``slurm-wlm`` and ``munge`` and root (the daemons run as root here).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "squeue", "scancel", "sinfo")


def missing() -> str | None:
    """Why a cluster cannot be started here, or None."""
    absent = [name for name in (*DAEMONS, *CLIENTS) if shutil.which(name) is None]
    if absent:
        return f"slurm-wlm and munge are not installed (no {', '.join(absent)})"
    if os.geteuid() != 0:
        return "the Slurm daemons need root"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Cluster:
    def __init__(self, base: pathlib.Path) -> None:
        self.base = base
        self.procs: list[subprocess.Popen[bytes]] = []
        self.host = socket.gethostname().split(".")[0]
        self.conf = base / "slurm.conf"
        self.socket = base / "munge" / "munge.socket.2"
        self.env = {**os.environ, "SLURM_CONF": str(self.conf)}

    def start(self, cpus: int = 2) -> None:
        munge = self.base / "munge"
        munge.mkdir(mode=0o700)
        key = munge / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        self._daemon(
            "munged",
            "-F",
            "--force",
            f"--socket={self.socket}",
            f"--key-file={key}",
            f"--log-file={munge / 'munged.log'}",
            f"--pid-file={munge / 'munged.pid'}",
            f"--seed-file={munge / 'munged.seed'}",
        )
        self._wait(self.socket.exists, "munged's socket")
        for folder in ("state", "spool"):
            (self.base / folder).mkdir()
        self.conf.write_text(self._conf(cpus), encoding="utf-8")
        self._daemon("slurmctld", "-D", "-f", str(self.conf))
        self._daemon("slurmd", "-D", "-f", str(self.conf), "-N", self.host)
        self._wait(self._idle, "the node to be idle")

    def _conf(self, cpus: int) -> str:
        base = self.base
        return "\n".join(
            [
                "ClusterName=rookarena-test",
                f"SlurmctldHost={self.host}(127.0.0.1)",
                f"SlurmctldPort={_free_port()}",
                f"SlurmdPort={_free_port()}",
                "SlurmUser=root",
                "SlurmdUser=root",
                "AuthType=auth/munge",
                "CredType=cred/munge",
                f"AuthInfo=socket={self.socket}",
                f"StateSaveLocation={base / 'state'}",
                f"SlurmdSpoolDir={base / 'spool'}",
                f"SlurmctldPidFile={base / 'slurmctld.pid'}",
                f"SlurmdPidFile={base / 'slurmd.pid'}",
                f"SlurmctldLogFile={base / 'slurmctld.log'}",
                f"SlurmdLogFile={base / 'slurmd.log'}",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_CPU",
                "SchedulerType=sched/backfill",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "MpiDefault=none",
                "ReturnToService=2",
                "KillWait=10",
                "MinJobAge=5",
                f"NodeName={self.host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=2000 State=UNKNOWN",
                "PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4",
                "",
            ]
        )

    def _daemon(self, *command: str) -> None:
        with (self.base / f"{command[0]}.out").open("wb") as log:  # the daemon keeps its own copy
            self.procs.append(
                subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True)
            )

    def _idle(self) -> bool:
        out = self.run("sinfo", "-h", "-o", "%T", check=False).stdout.strip()
        return out in ("idle", "mixed", "allocated")

    def _wait(self, ready: Callable[[], bool], what: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            for name, proc in zip(DAEMONS, self.procs, strict=False):
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode}: {self.logs()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}: {self.logs()}")
            time.sleep(0.2)

    def run(
        self, *command: str, check: bool = True, cwd: pathlib.Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, capture_output=True, text=True, env=self.env, check=check, cwd=cwd, timeout=60)

    def jobs(self, job: str) -> list[str]:
        """The states of the tasks of ``job`` still known to the controller."""
        out = self.run("squeue", "-h", "-j", job, "-o", "%i %T", check=False).stdout
        return [line for line in out.splitlines() if line.strip()]

    def wait_done(self, job: str, timeout: float = 600) -> None:
        self._wait(lambda: not self.jobs(job), f"job {job} to end", timeout)

    def logs(self) -> str:
        tails = []
        for path in sorted(self.base.glob("*.log")) + sorted(self.base.glob("*.out")):
            tails.append(f"--- {path.name}\n" + path.read_text(errors="replace")[-1500:])
        return "\n".join(tails)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
