"""What a host sees of the word-list cache: a restart loads from it, and it can be moved or turned off."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.support import Client, LiveServer


def loaded_line(server: LiveServer) -> str:
    return next(line for line in server.output if line.startswith("Loaded word list"))


def test_a_restart_loads_the_list_from_the_cache(
    start_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    first = start_server("--words", "en-easy", "--cache-dir", str(cache))
    first.stop()

    second = start_server("--words", "en-easy", "--cache-dir", str(cache))

    assert "from cache" not in loaded_line(first)
    assert f"from cache {cache}" in loaded_line(second)
    assert [path.name.split("-")[:2] for path in cache.glob("*.dawg")] == [["en", "easy"]]
    client = Client(second.ws_url)
    try:
        snapshot = client.ask({"type": "new_game", "wordlist": "en-easy"})
    finally:
        client.close()
    assert snapshot["type"] == "game"
    assert snapshot["wordlist"] == "en-easy"


def test_a_damaged_cache_file_is_rebuilt_not_trusted(
    start_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    start_server("--words", "en-easy", "--cache-dir", str(cache)).stop()
    [stored] = cache.glob("*.dawg")
    data = bytearray(stored.read_bytes())
    data[len(data) // 2] ^= 0xFF
    stored.write_bytes(bytes(data))

    server = start_server("--words", "en-easy", "--cache-dir", str(cache))

    assert "from cache" not in loaded_line(server)
    assert any("not usable" in line and "rebuilding" in line for line in server.output)
    assert Path(stored).read_bytes() != bytes(data)  # replaced by a good copy


def test_an_empty_cache_dir_turns_the_cache_off(
    start_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    server = start_server("--words", "en-easy", "--cache-dir", "", env={"XDG_CACHE_HOME": str(tmp_path)})

    assert "(no cache)" in loaded_line(server)
    assert list(tmp_path.rglob("*.dawg")) == []
