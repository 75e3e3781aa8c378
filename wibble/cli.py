"""The ``wibble`` command: ``wibble serve`` runs the game, ``wibble wordlists`` checks the lists,
``wibble solve`` lists every word a board allows."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import Board, WordList


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
    serve.add_argument(
        "--cache-dir",
        default=None,
        help="folder for compiled word lists (default ~/.cache/wibble; '' turns the cache off)",
    )
    serve.add_argument(
        "--min-words",
        type=_whole_number,
        default=None,
        metavar="N",
        help="words every board must allow, or it is drawn again (default 30; 0 turns the check off)",
    )
    serve.add_argument(
        "--data-dir",
        default=None,
        metavar="DIR",
        help="folder where games are saved (default ~/.local/share/wibble; '' keeps them in memory only)",
    )
    serve.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="keep everything in Redis (redis://HOST:PORT/DB), shared by as many processes as you start "
        "(default: WIBBLE_REDIS_URL if set, else the SQLite file of --data-dir); see docs/deploy.md",
    )
    serve.add_argument("--access-log", action="store_true", help="log every HTTP request")

    again = sub.add_parser(
        "replay", help="replay a game's or a match's record and check it reaches the same final state"
    )
    again.add_argument(
        "record", metavar="FILE_OR_URL", help="a record (JSON file, or http://…/games/ID/record)"
    )
    again.add_argument(
        "--words-dir", type=Path, default=None, help="folder of word lists (default: the bundled words/)"
    )

    lists = sub.add_parser("wordlists", help="load and check every word list, then list them")
    lists.add_argument(
        "--words-dir", type=Path, default=None, help="folder of word lists (default: the bundled words/)"
    )
    lists.add_argument(
        "--min-words",
        type=_whole_number,
        default=30,
        metavar="N",
        help="the words every board is drawn to hold, as given to wibble serve (default 30): a list "
        "with fewer words that can score is named",
    )

    define = sub.add_parser(
        "definitions",
        help="compile every word list's definitions (WordNet for English lists, and the host's "
        "NAME.definitions.tsv files), checking each file",
    )
    define.add_argument(
        "--words-dir", type=Path, default=None, help="folder of word lists (default: the bundled words/)"
    )
    define.add_argument(
        "--cache-dir",
        default=None,
        help="where to put them: the folder `wibble serve --cache-dir` reads (default: WIBBLE_CACHE_DIR "
        "if set, else ~/.cache/wibble)",
    )

    solve = sub.add_parser("solve", help="list every word a board allows, best first")
    solve.add_argument("board", metavar="BOARD", help="the 25 letters row by row ('/' between rows allowed)")
    solve.add_argument("--words", default="en", metavar="NAME", help="word list by name (default en)")
    solve.add_argument(
        "--words-dir", type=Path, default=None, help="folder of word lists (default: the bundled words/)"
    )
    solve.add_argument("--json", action="store_true", help="print a JSON list of {word, score, path}")

    copy = sub.add_parser(
        "copy",
        help="copy every game, match and room with its record from one store to another "
        "(SQLite to Redis, or back)",
    )
    copy.add_argument("source", metavar="FROM", help="a data folder (with wibble.db) or redis://HOST:PORT/DB")
    copy.add_argument("destination", metavar="TO", help="a data folder or redis://HOST:PORT/DB")

    args = parser.parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    try:
        if args.command == "solve":
            return _solve(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "copy":
            return _copy(args.source, args.destination)
        if args.command == "definitions":
            return _compile_definitions(args.words_dir, args.cache_dir)
        return _check_lists(args.words_dir, args.min_words)
    except BrokenPipeError:
        # `wibble solve ... | head` closed our output early: not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _copy(source: str, destination: str) -> int:
    from .engines.store import StoreOpenError, open_store
    from .engines.store.copy import copy_documents
    from .engines.store.sqlite import FolderInUse, lock_folder

    locks: list[int] = []  # each folder's lock, held for the whole copy: no server starts on it meanwhile
    stores: list[Any] = []

    def opened(where: str, must_exist: bool) -> Any:
        if where.startswith(("redis://", "rediss://", "unix://")):
            from .engines.store.redis import RedisStore

            stores.append(RedisStore(where))
            return stores[-1]
        folder = Path(where).expanduser()
        if must_exist and not (folder / "wibble.db").is_file():
            raise StoreOpenError(f"{where} holds no wibble.db to copy from")
        try:
            fd = lock_folder(folder)
        except FolderInUse:
            # A copy of a running server's folder misses every move it saves after (or, into it, is
            # never seen by it): the copy would quietly be out of date.
            raise StoreOpenError(
                f"a Wibble server is serving games from {where}: stop it first, then copy"
            ) from None
        if fd is not None:
            locks.append(fd)
        stores.append(open_store(where))
        return stores[-1]

    try:
        try:
            src = opened(source, must_exist=True)
            dst = opened(destination, must_exist=False)
        except StoreOpenError as exc:
            print(f"wibble: {exc}", file=sys.stderr)
            return 2
        copied = copy_documents(src, dst)
    finally:
        for store in stores:
            store.close()
        for fd in locks:
            os.close(fd)
    print(f"From {src.description} to {dst.description}: {copied}.")
    return 1 if copied.differing else 0


def _whole_number(text: str) -> int:
    """An argparse type: a whole number, 0 or more."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number, 0 or more, not {text!r}")
    return number


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The settings ``wibble serve``'s options give (over the defaults and WIBBLE_* variables)."""
    options = {
        "WORDS_DIR": None if args.words_dir is None else str(args.words_dir),
        "DEFAULT_WORDLIST": args.words,
        "MIN_BOARD_WORDS": args.min_words,
        "CACHE_DIR": args.cache_dir,
        "DATA_DIR": args.data_dir,
        "REDIS_URL": args.redis,
    }
    return {key: value for key, value in options.items() if value is not None}


def _log_to_stderr() -> None:
    """Wibble's own log lines go to stderr with their time and level, the informational ones too
    (a handshake refused, old games deleted, the daily key made): with no handler, Python would
    print only warnings and errors, bare, and drop the rest."""
    import logging

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%Y-%m-%d %H:%M:%S"))
    wibble = logging.getLogger("wibble")
    wibble.addHandler(handler)
    wibble.setLevel(logging.INFO)
    wibble.propagate = False


def _serve(args: argparse.Namespace) -> int:
    # Patch before anything imports threading or socket: every connection is a
    # greenlet, so thousands of idle websockets cost memory, not OS threads.
    from gevent import monkey

    monkey.patch_all()

    import signal
    import socket

    import gevent
    import gevent.event

    from .core import WordListError
    from .engines.store import StoreOpenError
    from .web import ConfigError, create_app
    from .web.app import trust_listening_name
    from .web.server import make_server, stop_gracefully
    from .web.serving import Chores, get_ready

    def say(line: str) -> None:
        print(line, flush=True)

    def warn(line: str) -> None:
        print(f"Warning: {line}", file=sys.stderr, flush=True)

    _log_to_stderr()
    try:
        app = create_app(_overrides(args))
        get_ready(app, say, warn)
    except (WordListError, ConfigError) as exc:
        print(f"wibble: {exc.message}", file=sys.stderr)
        return 2
    except StoreOpenError as exc:
        print(f"wibble: {exc}", file=sys.stderr)
        return 2
    trust_listening_name(app.config, args.host)
    everyone = args.host in ("0.0.0.0", "::", "")
    if everyone:
        # Listening for other devices: the machine's own name is printed below, so it must work.
        trust_listening_name(app.config, socket.gethostname())
    store = app.extensions["wibble.store"]
    server = make_server(app, args.host, args.port, sys.stderr if args.access_log else None)
    try:
        server.start()
    except OSError as exc:  # port in use, no such address, no permission
        reason = exc.strerror or str(exc)
        print(
            f"wibble: cannot listen on {args.host}:{args.port}: {reason} "
            "(another --port, or a --host address this machine has)",
            file=sys.stderr,
        )
        store.close()
        return 2
    # Before the address is printed: the chores take the data folder's lock (``hold_folder``), and
    # whoever is told this server runs may start another on the same folder at once.
    chores = Chores(app)
    chores.start()
    port = server.server_port
    host = "localhost" if everyone or args.host == "127.0.0.1" else args.host
    print(f"Wibble is running at http://{host}:{port}/  (Ctrl+C to stop)", flush=True)
    if everyone:
        others = [f"http://{name}:{port}/" for name in [*local_addresses(), socket.gethostname()]]
        print(f"Other devices on your network: {'  '.join(others)}", flush=True)
    stop = gevent.event.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        gevent.signal_handler(signum, stop.set)
    stop.wait()
    print("Stopping: telling players the server is restarting…", flush=True)
    chores.stop()
    stop_gracefully(server, app)
    app.extensions["wibble.engines"].stop()
    print("Stopped.", flush=True)
    return 0


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses that other devices may reach it by (not loopback): each network
    interface's (Linux), else what its name resolves to."""
    import socket

    found: set[str] = set()
    try:
        import fcntl
        import struct

        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  # only asked about interfaces: sends nothing
        try:
            for _, name in socket.if_nameindex():
                try:
                    answer = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
                except OSError:  # an interface with no IPv4 address
                    continue
                found.add(socket.inet_ntoa(answer[20:24]))  # SIOCGIFADDR's sockaddr_in
        finally:
            probe.close()
    except (ImportError, OSError):
        pass
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
            found = {str(info[4][0]) for info in infos}
        except OSError:
            pass
    return sorted(a for a in found if not a.startswith("127."))


def _check_lists(words_dir: Path | None, floor: int) -> int:
    from .cache import from_setting
    from .core import WordListError
    from .core.wordlist import left_out_warning, scoring_warning
    from .definitions import FILE_SUFFIX
    from .wordlists import DEFAULT_DIR, WordLists, load

    directory = words_dir or DEFAULT_DIR
    try:
        lists = WordLists(directory)
    except WordListError as exc:
        print(f"wibble: {exc.message}", file=sys.stderr)
        return 2
    cache = from_setting(os.environ.get("WIBBLE_CACHE_DIR"))
    status = 0
    for name in lists.names():
        try:
            words = load(directory / f"{name}.txt", cache)
        except WordListError as exc:
            print(f"{name}: ERROR {exc.message}")
            status = 1
            continue
        letters = " ".join(f"{letter.face}{letter.score}" for letter in words.letters)
        print(f"{name}: {words.title} [{words.language or '?'}] {len(words.trie):,} words,", end=" ")
        print(f"min length {words.min_length}; tiles {letters}")
        for warning in (left_out_warning(words), scoring_warning(words, floor)):
            if warning:
                print(f"  warning: {warning}")
        if not _check_definitions(directory / f"{name}{FILE_SUFFIX}", words):
            status = 1
    return status


def _check_definitions(path: Path, words: WordList) -> bool:
    """A host's definitions file beside a list, checked as the server reads it; whether it is good."""
    from .core import WordListError
    from .core.definitions import parse_definitions

    if not path.is_file():
        return True
    try:
        book = parse_definitions(path.read_text(encoding="utf-8-sig"), str(path), words.trie.__contains__)
    except UnicodeDecodeError:
        print(f"  {path.name}: ERROR {path}: is not UTF-8 text")
        return False
    except WordListError as exc:
        print(f"  {path.name}: ERROR {exc.message}")
        return False
    print(f"  {path.name}: {len(book):,} words defined")
    return True


def _compile_definitions(words_dir: Path | None, cache_dir: str | None = None) -> int:
    """Compile each list's book now (``make play`` does, so the first player to ask waits for none)."""
    import time

    from .cache import from_setting
    from .core import WordListError
    from .definitions import Definitions
    from .wordlists import DEFAULT_DIR, WordLists
    from .wordnet import SETTING, find

    try:
        lists = WordLists(words_dir or DEFAULT_DIR)
        folder = find(os.environ.get(SETTING))
    except (WordListError, FileNotFoundError) as exc:
        print(f"wibble: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    if folder is None:
        print(
            "WordNet's database was not found, so English lists have no definitions "
            f"(Debian: apt install wordnet-base; or set {SETTING} to its folder)"
        )
    cache = from_setting(cache_dir if cache_dir is not None else os.environ.get("WIBBLE_CACHE_DIR"))
    definitions = Definitions(lists, None if cache is None else cache.directory, folder)
    status = 0
    for name in lists.names():
        started = time.perf_counter()
        try:
            book = definitions.book(name)
        except WordListError as exc:
            print(f"{name}: ERROR {exc.message}")
            status = 1
            continue
        if book is None:
            print(f"{name}: no definitions (add {name}.definitions.tsv beside {name}.txt: words/README.md)")
            continue
        if book.path is None and cache is not None:  # compiled, but could not be kept (the log says why)
            print(f"{name}: ERROR its definitions could not be written in {cache.directory}")
            status = 1
            book.close()
            continue
        size = f", {book.path.stat().st_size / 1e6:.1f} MB in {book.path.parent}" if book.path else ""
        print(
            f"{name}: {book.words():,} words defined from {' and '.join(book.sources)}"
            f"{size} ({time.perf_counter() - started:.2f}s)"
        )
        book.close()
    return status


def _solve(args: argparse.Namespace) -> int:
    import json

    from .cache import from_setting
    from .core import WordListError, path_doc, solve
    from .wordlists import DEFAULT_DIR, WordLists

    directory = args.words_dir or DEFAULT_DIR
    try:
        # The compiled-list cache, as ``wibble wordlists`` uses: a second solve loads in milliseconds.
        lists = WordLists(directory, cache=from_setting(os.environ.get("WIBBLE_CACHE_DIR")))
        words = lists.get(args.words)
    except WordListError as exc:
        print(f"wibble: {exc.message}", file=sys.stderr)
        return 2
    except KeyError:
        known = ", ".join(lists.names()) or "none"
        print(f"wibble: no word list {args.words!r} in {directory} (lists: {known})", file=sys.stderr)
        return 2
    try:
        board = _parse_board(args.board, words)
    except ValueError as exc:
        print(f"wibble: {exc}", file=sys.stderr)
        return 2
    found = solve(board, words)
    if args.json:
        rows = [{"word": f.word, "score": f.score, "path": path_doc(f.path)} for f in found]
        print(json.dumps(rows))
        return 0
    if not found:
        print("no words")
        return 0
    word_width = max(len(f.word) for f in found)
    score_width = max(len(str(f.score)) for f in found)
    for f in found:
        path = " ".join(f"{p.row},{p.col}" for p in f.path)
        print(f"{f.word:<{word_width}}  {f.score:>{score_width}}  {path}")
    best = found[0]
    count = "1 word" if len(found) == 1 else f"{len(found)} words"
    print(f"{count}, best {best.word} ({best.score} points)")
    return 0


def _replay(args: argparse.Namespace) -> int:
    """Rebuild a game or a match from its record; 0 if it ends as the record says, 1 with the first
    difference, 2 if there is nothing to replay (no record, no such list, a match still being played)."""
    import json
    import urllib.request

    from .core import Record, RecordError, WordListError, differences, replay
    from .core.match import MatchRecord, match_differences, replay_match
    from .wordlists import DEFAULT_DIR, WordLists

    source: str = args.record
    try:
        if source.startswith(("http://", "https://")):
            with urllib.request.urlopen(source, timeout=30) as response:
                text = response.read().decode("utf-8")
        else:
            text = Path(source).read_text(encoding="utf-8")
        doc = json.loads(text)
        record: Record | MatchRecord = (
            MatchRecord.from_doc(doc)
            if isinstance(doc, dict) and doc.get("kind") == "match"
            else Record.from_doc(doc)
        )
    except (OSError, ValueError) as exc:
        print(f"wibble: cannot read a record from {source}: {exc}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"wibble: {source}: {exc.message}", file=sys.stderr)
        return 2
    if isinstance(record, MatchRecord) and record.seed is None:
        print(
            f"wibble: {source}: this match is still being played; its record keeps the seed "
            "secret until it is over, so it can be replayed only then",
            file=sys.stderr,
        )
        return 2
    directory = args.words_dir or DEFAULT_DIR
    try:
        words = WordLists(directory).get(record.wordlist)
    except KeyError:
        print(f"wibble: no word list {record.wordlist!r} in {directory}", file=sys.stderr)
        return 2
    except WordListError as exc:
        print(f"wibble: {exc.message}", file=sys.stderr)
        return 2
    moves = len(record.moves)
    replayed = f"replayed {moves} move{'s' * (moves != 1)}"
    try:
        if isinstance(record, MatchRecord):
            match = replay_match(record, words)
            difference = match_differences(match, record.final)
        else:
            game = replay(record, words)
            difference = differences(game, record.final)
    except RecordError as exc:
        print(f"wibble: {exc.message}", file=sys.stderr)
        return 1
    if difference is not None:
        print(f"wibble: the replay differs: {difference}", file=sys.stderr)
        return 1
    if isinstance(record, MatchRecord):
        scores = ", ".join(f"{seat.name} {seat.score}" for seat in match.seats)
        turns = len(match.history)
        print(f"{replayed} ({turns} turn{'s' * (turns != 1)}): {scores}, same final state as the record")
    else:
        print(f"{replayed}: total {game.total}, same final state as the record")
    return 0


def _parse_board(text: str, words: WordList) -> Board:
    """The board ``text`` spells (rows optionally split by '/'); ValueError says what is wrong."""
    from .core import SIZE, Board
    from .core.wordlist import normalise

    text = normalise("".join(text.split()))
    rows = text.split("/")
    if len({len(row) for row in rows}) > 1:
        lengths = ", ".join(str(len(row)) for row in rows)
        raise ValueError(f"the rows of the board have different lengths ({lengths})")
    letters = "".join(rows)
    if len(letters) != SIZE * SIZE:
        given = len(letters)
        raise ValueError(f"a board is {SIZE * SIZE} letters ({SIZE} rows of {SIZE}); {given} were given")
    if len(rows) not in (1, SIZE):
        raise ValueError(f"a board is {SIZE} rows of {SIZE} letters; {len(rows)} rows were given")
    for letter in letters:
        if letter not in words.letters:
            known = " ".join(tile.symbol for tile in words.letters)
            raise ValueError(f"{letter!r} is not a tile of the list {words.name!r} (tiles: {known})")
    tiles = [words.letters[letter] for letter in letters]
    return Board([tiles[row * SIZE : (row + 1) * SIZE] for row in range(SIZE)])


if __name__ == "__main__":
    sys.exit(main())
