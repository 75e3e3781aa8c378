"""A host's deployment, as docs/deploy.md describes it, for the tests: several ``wibble serve
--redis`` processes behind nginx from Debian, configured with ``docs/deploy/nginx.conf`` itself
(only its ports changed), so that a guide that stops working fails a test."""

from __future__ import annotations

import os
import re
import subprocess
import time
import urllib.request
from pathlib import Path

from tests.redis_server import find_nginx, free_port
from tests.support import ROOT, WS_PATH, LiveServer

NGINX_MAIN = """
{user}
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {site};
}}
"""


# A run of the guide's `server 127.0.0.1:800N ...;` lines in its upstream block, parameters and all.
SERVER_LINES = re.compile(r"(?:    server 127\.0\.0\.1:800\d(?: [^;\n]*)?;\n)+")


def one_line_per_process(lines: str, ports: list[str]) -> str:
    """The guide's run of ``server`` lines for its example processes, as lines for ``ports``: one
    line per process for each set of parameters the run gives (in order), the parameters kept."""
    kinds = dict.fromkeys(re.findall(r"server 127\.0\.0\.1:800\d((?: [^;\n]*)?);", lines))
    return "".join(f"    server 127.0.0.1:{port}{kind};\n" for kind in kinds for port in ports)


class Deployment:
    """``processes`` Wibble processes over the Redis at ``redis_url``, behind nginx: ``url`` and
    ``ws_url`` are nginx's, as a player's browser sees the site."""

    def __init__(self, redis_url: str, folder: Path, processes: int = 2, env: dict[str, str] | None = None):
        behind = {"WIBBLE_TRUSTED_PROXIES": "127.0.0.1", **(env or {})}
        self.servers = [LiveServer("--redis", redis_url, env=behind) for _ in range(processes)]
        port = free_port()
        site = (ROOT / "docs" / "deploy" / "nginx.conf").read_text()
        ports = [server.url.rsplit(":", 1)[1] for server in self.servers]
        site, runs = SERVER_LINES.subn(lambda lines: one_line_per_process(lines[0], ports), site)
        assert runs, "no `server 127.0.0.1:800N` line in docs/deploy/nginx.conf's upstream block"
        site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
        (folder / "site.conf").write_text(site)
        user = "user root;" if os.geteuid() == 0 else ""
        main = NGINX_MAIN.format(user=user, folder=folder, site=folder / "site.conf")
        (folder / "nginx.conf").write_text(main)
        self.nginx = subprocess.Popen([find_nginx(), "-p", str(folder), "-c", str(folder / "nginx.conf")])
        self.url = f"http://localhost:{port}"
        self.ws_url = f"ws://localhost:{port}{WS_PATH}"
        self._wait_until_up()

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2):
                    return
            except OSError:
                assert self.nginx.poll() is None, "nginx exited at start-up"
                assert time.monotonic() < deadline, "nginx never answered"
                time.sleep(0.05)  # polling a condition (nginx answers), not a fixed wait

    def stop(self) -> None:
        if self.nginx.poll() is None:
            self.nginx.terminate()
            self.nginx.wait(10)
        for server in self.servers:
            server.stop()
