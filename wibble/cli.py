"""The ``wibble`` command: ``wibble serve`` runs the game, ``wibble wordlists`` checks the lists."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wibble", description="Wibble, a word-chain game.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the game server for players")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for everyone)"
    )
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    serve.add_argument("--words", default=None, help="default word list by name (default en)")
    serve.add_argument(
        "--words-dir", type=Path, default=None, help="folder of word lists (default: the bundled words/)"
    )
    serve.add_argument("--access-log", action="store_true", help="log every HTTP request")

    lists = sub.add_parser("wordlists", help="load and check every word list, then list them")
    lists.add_argument("--words-dir", type=Path, default=None)

    args = parser.parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    return _check_lists(args.words_dir)


def _serve(args: argparse.Namespace) -> int:
    # Patch before anything imports threading or socket: every connection is a
    # greenlet, so thousands of idle websockets cost memory, not OS threads.
    from gevent import monkey

    monkey.patch_all()

    import socket
    import time

    import gevent

    from .core import WordListError
    from .web import ConfigError, create_app
    from .web.server import make_server

    overrides = {}
    if args.words_dir is not None:
        overrides["WORDS_DIR"] = str(args.words_dir)
    if args.words is not None:
        overrides["DEFAULT_WORDLIST"] = args.words
    try:
        app = create_app(overrides)
        lobby = app.extensions["wibble.lobby"]
        # Loading a big list takes seconds of CPU: do it on a native thread so the
        # event loop keeps serving everyone else's games meanwhile.
        pool = gevent.get_hub().threadpool
        lobby.wordlists.offload = lambda load_list, path: pool.apply(load_list, (path,))
        started = time.perf_counter()
        words = lobby.wordlists.get()  # load the default now: a bad file fails here, not mid-game
        print(
            f"Loaded word list {words.name!r} ({len(words.trie):,} words) "
            f"in {time.perf_counter() - started:.2f}s",
            flush=True,
        )
    except (WordListError, ConfigError) as exc:
        print(f"wibble: {exc.message}", file=sys.stderr)
        return 2
    _raise_open_file_limit()
    server = make_server(app, args.host, args.port, sys.stderr if args.access_log else None)
    try:
        server.start()
    except OSError as exc:  # port in use, no such address, no permission
        reason = exc.strerror or str(exc)
        print(
            f"wibble: cannot listen on {args.host}:{args.port}: {reason} (try another --port)",
            file=sys.stderr,
        )
        return 2
    port = server.server_port
    everyone = args.host in ("0.0.0.0", "::", "")
    host = "localhost" if everyone or args.host == "127.0.0.1" else args.host
    print(f"Wibble is running at http://{host}:{port}/  (Ctrl+C to stop)", flush=True)
    if everyone:
        print(f"Other devices on your network: http://{socket.gethostname()}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop(timeout=2)
    return 0


def _raise_open_file_limit(wanted: int = 65536) -> None:
    """Every player holds a socket open: lift the soft limit (often 1024) towards the hard one."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass


def _check_lists(words_dir: Path | None) -> int:
    from .core import WordListError
    from .wordlists import DEFAULT_DIR, WordLists, load

    directory = words_dir or DEFAULT_DIR
    try:
        lists = WordLists(directory)
    except WordListError as exc:
        print(f"wibble: {exc.message}", file=sys.stderr)
        return 2
    status = 0
    for name in lists.names():
        try:
            words = load(directory / f"{name}.txt")
        except WordListError as exc:
            print(f"{name}: ERROR {exc.message}")
            status = 1
            continue
        letters = " ".join(f"{letter.face}{letter.score}" for letter in words.letters)
        print(f"{name}: {words.title} [{words.language or '?'}] {len(words.trie):,} words,", end=" ")
        print(f"min length {words.min_length}; tiles {letters}")
    return status


if __name__ == "__main__":
    sys.exit(main())
