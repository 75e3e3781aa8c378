"""Find a ``redis-server`` (and an ``nginx``) for the tests, installing them if need be, and run
throwaway Redis servers.

In order: an explicit setting (``WIBBLE_REDIS_SERVER``, ``WIBBLE_NGINX``), one on PATH, and on
Debian as root ``apt-get install``; else a clear message. Tests never skip for want of
them: ``python -m tests.redis_server`` runs the search (the test command runs it before
pytest) and prints what it found.

``RedisServer`` starts a real server on a free loopback port in a folder of its own (with
AOF if asked), waits until it answers, and can be paused, killed and restarted on the same
port and folder, as the fault tests need. ``RedisCluster`` starts a real Redis Cluster of such
servers (three masters and a replica each, by default) with ``redis-cli --cluster create``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


class NoRedis(RuntimeError):
    pass


def _log(message: str) -> None:
    print(f"[redis] {message}", file=sys.stderr, flush=True)


def find_program(name: str, setting: str, package: str, check: list[str] | None = None) -> str:
    """``name``'s path: the environment variable ``setting`` if set, else on PATH (or in
    /usr/sbin), else Debian's ``package`` installed with apt-get as root; ``NoRedis`` with
    advice if none works."""
    check = check or ["--version"]

    def works(path: str) -> bool:
        try:
            done = subprocess.run([path, *check], capture_output=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0

    def on_path() -> str | None:
        path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/local/sbin")
        return path if path and works(path) else None

    explicit = os.environ.get(setting)
    if explicit:
        if not works(explicit):
            raise NoRedis(f"{setting}={explicit!r} does not run ({explicit} {' '.join(check)} failed)")
        return explicit
    found = on_path()
    if found:
        return found
    if _apt_install(package):
        found = on_path()
        if found:
            return found
    raise NoRedis(
        f"No {name} for the tests. Install it (Debian: `apt-get install {package}`), "
        f"or set {setting} to a {name} executable."
    )


def _apt_install(package: str) -> bool:
    if not Path("/etc/debian_version").exists() or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    if not shutil.which("apt-get"):
        return False
    _log(f"installing Debian's {package} with apt-get (once)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", package]
    # Try the package lists as they are first; refresh them only if the install fails.
    for commands in ([install], [["apt-get", "update", "-qq"], install]):
        results = [
            subprocess.run(command, capture_output=True, text=True, env=env, timeout=900, check=False)
            for command in commands
        ]
        if results[-1].returncode == 0:
            # Debian starts a service of its own (redis on 6379, nginx on 80): the tests run their own.
            subprocess.run(["service", package, "stop"], capture_output=True, check=False)
            return True
    _log(f"apt-get install {package} failed: {results[-1].stderr.strip()[-500:]}")
    return False


def find_redis_server() -> str:
    """The path of a working ``redis-server``; raises ``NoRedis`` with advice."""
    return find_program("redis-server", "WIBBLE_REDIS_SERVER", "redis-server")


def find_redis_cli() -> str:
    """The path of a working ``redis-cli`` (it creates and reshards a cluster); Debian ships it
    beside redis-server, in redis-tools."""
    return find_program("redis-cli", "WIBBLE_REDIS_CLI", "redis-tools")


def find_nginx() -> str:
    """The path of a working ``nginx`` (for the test of several processes behind it)."""
    return find_program("nginx", "WIBBLE_NGINX", "nginx", ["-v"])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """One real redis-server on loopback, in ``folder``; ``url`` names it."""

    def __init__(
        self,
        folder: Path,
        aof: bool = False,
        executable: str | None = None,
        fsync: str = "always",
        options: tuple[str, ...] = (),
        bus: bool = False,
    ) -> None:
        self.executable = executable or find_redis_server()
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.aof = aof
        self.fsync = fsync
        self.options = options
        """More of redis-server's options (a cluster node's, say)."""
        self.port = free_port()
        self.bus_port = free_port() if bus else None
        """A cluster node's bus port: by default Redis takes the port + 10,000, which an ephemeral
        port can push past 65,535 (or onto a port in use), so it is chosen like the port."""
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20.0) -> RedisServer:
        """Start it, and wait until it answers. A free port is only free when it was asked for:
        something else (another test's connection) may bind it before redis-server does. So at
        its first start a server refused its ports takes new ones, a few times; started again
        (after a kill) it keeps its own, which its cluster knows it by."""
        for attempt in range(5):
            try:
                return self._start(timeout)
            except NoRedis as exc:
                if self.started or attempt == 4 or "Address already in use" not in str(exc):
                    raise
                self.port = free_port()
                self.bus_port = free_port() if self.bus_port is not None else None
        raise AssertionError("unreachable")  # pragma: no cover

    def _start(self, timeout: float) -> RedisServer:
        bus = () if self.bus_port is None else ("--cluster-port", str(self.bus_port))
        args = [
            self.executable,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.folder),
            "--save", "",
            "--appendonly", "yes" if self.aof else "no",
            "--appendfsync", self.fsync,
            "--daemonize", "no",
            "--loglevel", "warning",
            "--logfile", str(self.folder / "redis.log"),
            *self.options,
            *bus,
        ]  # fmt: skip
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None:
                log = (self.folder / "redis.log").read_text(errors="replace")[-800:]
                raise NoRedis(f"redis-server exited at start-up ({self.process.returncode}): {log}")
            if time.monotonic() > deadline:
                raise NoRedis(f"redis-server did not answer on port {self.port} within {timeout} s")
            time.sleep(0.02)  # polling a condition (the server answers), not a fixed wait
        self.started = True
        return self

    def _answers(self) -> bool:
        """Whether this server answers on its port: this one, by its process id (a redis-server
        another test started may hold the port this one was refused)."""
        assert self.process is not None
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"INFO server\r\n")
                reply = conn.makefile("rb")
                head = reply.readline()
                if not head.startswith(b"$"):
                    return False
                info = reply.read(int(head[1:]))
                return f"process_id:{self.process.pid}\r\n".encode() in info
        except (OSError, ValueError):
            return False

    def signal(self, signum: int) -> None:
        assert self.process is not None
        self.process.send_signal(signum)

    def pause(self) -> None:
        self.signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.signal(signal.SIGCONT)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a paused server dies as well
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


CLUSTER_NODE_TIMEOUT_MS = 2000
"""How long a cluster master may be unreachable before its replica takes over (Redis's default
is 15 s: the fault tests would wait that long for each failover)."""


class RedisCluster:
    """A real Redis Cluster on loopback: ``masters`` redis-servers in cluster mode, each with
    ``replicas`` of its own, joined by ``redis-cli --cluster create``; ``url`` names one node
    (any node will do: the client asks it for the rest)."""

    def __init__(
        self,
        folder: Path,
        masters: int = 3,
        replicas: int = 1,
        aof: bool = True,
        node_timeout_ms: int = CLUSTER_NODE_TIMEOUT_MS,
    ) -> None:
        self.folder = Path(folder)
        self.cli = find_redis_cli()
        self.replicas = replicas
        options = (
            "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(node_timeout_ms),
            "--repl-diskless-sync-delay", "0",  # (Redis waits 5 s for more replicas by default)
        )  # fmt: skip
        self.nodes = []
        for n in range(masters * (1 + replicas)):
            node = RedisServer(self.folder / f"node{n}", aof=aof, fsync="everysec", options=options, bus=True)
            self.nodes.append(node)

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def start(self, timeout: float = 60.0) -> RedisCluster:
        for node in self.nodes:
            node.start()
        addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
        create = [self.cli, "--cluster", "create", *addresses]
        create += ["--cluster-replicas", str(self.replicas), "--cluster-yes"]
        done = subprocess.run(create, capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise NoRedis(f"redis-cli --cluster create failed: {(done.stdout + done.stderr)[-800:]}")
        self.wait_ready(timeout)
        return self

    def cli_call(self, *args: str, node: RedisServer | None = None, timeout: float = 30.0) -> str:
        """One redis-cli command on ``node`` (the first live one if none), its output."""
        node = node or next(n for n in self.nodes if n.process and n.process.poll() is None)
        command = [self.cli, "-p", str(node.port), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        return done.stdout

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every live node says the cluster is ok and every live replica has its master's data
        (it was made, or a failover has settled; a replica that never synced cannot take over),
        polling (not a fixed wait)."""
        deadline = time.monotonic() + timeout
        while True:
            live = [n for n in self.nodes if n.process and n.process.poll() is None]
            states = [self.cli_call("cluster", "info", node=n) for n in live]
            replication = [self.cli_call("info", "replication", node=n) for n in live]
            synced = all("role:master" in r or "master_link_status:up" in r for r in replication)
            if synced and all("cluster_state:ok" in state for state in states):
                return
            if time.monotonic() > deadline:
                raise NoRedis(f"the Redis Cluster was not ready within {timeout} s: {states[:1]}")
            time.sleep(0.1)

    def masters(self) -> list[RedisServer]:
        """The live nodes that are masters now (a failover changes which)."""
        live = [n for n in self.nodes if n.process and n.process.poll() is None]
        return [n for n in live if "role:master" in self.cli_call("info", "replication", node=n)]

    def master_of(self, key: str) -> RedisServer:
        """The node that serves ``key``'s slot now, as the cluster says (``CLUSTER NODES``)."""
        slot = int(self.cli_call("cluster", "keyslot", key).strip())
        for line in self.cli_call("cluster", "nodes").splitlines():
            _, address, flags, *_, link = line.split()[:8]
            if "master" not in flags.split(",") or "fail" in flags or link != "connected":
                continue
            for span in line.split()[8:]:
                first, _, last = span.partition("-")
                if first.isdigit() and int(first) <= slot <= int(last or first):
                    port = int(address.split("@")[0].rsplit(":", 1)[1])
                    return next(node for node in self.nodes if node.port == port)
        raise NoRedis(f"no master serves slot {slot} now")

    def node_id(self, node: RedisServer) -> str:
        return self.cli_call("cluster", "myid", node=node).strip()

    def move_slots(self, source: RedisServer, target: RedisServer, timeout: float = 120.0) -> None:
        """Move every slot ``source`` serves to ``target`` (``redis-cli --cluster reshard``), keys
        and all, while the cluster serves."""
        slots = sum(
            int(last or first) - int(first) + 1
            for line in self.cli_call("cluster", "nodes").splitlines()
            if line.split()[0] == self.node_id(source)
            for first, _, last in (span.partition("-") for span in line.split()[8:] if span[0].isdigit())
        )
        reshard = [
            self.cli, "--cluster", "reshard", f"127.0.0.1:{target.port}",
            "--cluster-from", self.node_id(source), "--cluster-to", self.node_id(target),
            "--cluster-slots", str(slots), "--cluster-yes", "--cluster-pipeline", "100",
        ]  # fmt: skip
        done = subprocess.run(reshard, capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise NoRedis(f"redis-cli --cluster reshard failed: {(done.stdout + done.stderr)[-800:]}")
        self.wait_ready()

    def flush(self) -> None:
        for node in self.masters():
            self.cli_call("flushall", node=node)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


if __name__ == "__main__":
    try:
        print(find_redis_server())
        print(find_redis_cli())
        print(find_nginx())
    except NoRedis as exc:
        _log(str(exc))
        sys.exit(1)
