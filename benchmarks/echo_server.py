"""A bare websocket echo server (asyncio ``websockets``): the floor ``benchmarks.load`` compares against.

Every text frame is sent straight back; nothing else happens. Prints its URL once
it listens, like ``wibble serve`` does, so a benchmark can start it on port 0.

    .venv/bin/python -m benchmarks.echo_server [--port 0]
"""

from __future__ import annotations

import argparse
import asyncio
import resource

from websockets.asyncio.server import ServerConnection, serve


async def echo(ws: ServerConnection) -> None:
    async for message in ws:
        await ws.send(message)


async def run(host: str, port: int) -> None:
    # Same frame limit and ping interval as Wibble's defaults; no compression, as Wibble offers none.
    async with serve(
        echo, host, port, compression=None, max_size=4096, ping_interval=25, backlog=1024
    ) as server:
        bound = next(iter(server.sockets)).getsockname()[1]
        print(f"echo running at ws://{host}:{bound}/", flush=True)
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        asyncio.run(run(args.host, args.port))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
