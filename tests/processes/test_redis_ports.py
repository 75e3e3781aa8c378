"""The tests' own redis-server starter: a port chosen free can be taken before redis-server binds
it (another test's connection, another process); a first start then takes new ports, and the
cluster fault tests stop failing at set-up for a reason that is not theirs."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.redis_server import RedisServer


def test_a_server_whose_ports_were_taken_meanwhile_starts_on_others(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "node", bus=True, options=("--cluster-enabled", "yes"))
    taken = [server.port, server.bus_port]
    holders = []
    for port in taken:
        holder = socket.socket()
        holder.bind(("127.0.0.1", port))
        holder.listen()
        holders.append(holder)
    try:
        server.start()
        assert server.port not in taken
        assert server.bus_port not in taken
    finally:
        server.stop()
        for holder in holders:
            holder.close()
