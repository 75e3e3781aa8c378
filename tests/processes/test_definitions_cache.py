"""Definitions books in a cache folder shared by processes: processes that compile and read a
list's definitions at once, while the host edits its file, each answer from a whole book of one
version or the other, none fails, and the folder ends with the newest (real processes, racing)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.support import ROOT

ASKER = """
import sys
from pathlib import Path
from wibble.definitions import Definitions
from wibble.wordlists import WordLists
folder, cache = Path(sys.argv[1]), Path(sys.argv[2])
for _ in range(40):  # each time a fresh start: the book read from the folder, or compiled
    answer = Definitions(WordLists(folder), cache).define("casero", "casas")
    print(answer.meanings[0].senses[0] if answer.meanings else "-", flush=True)
"""
ASKERS = 4
FILLER = [f"pal{chr(97 + n // 26)}{chr(97 + n % 26)}" for n in range(300)]  # a compile takes a while


def write(folder: Path, version: int) -> None:
    lines = [f"casa\tsustantivo\tversión {version}", "casas\t=\tcasa"]
    lines += [f"{word}\tsustantivo\trelleno {version}" for word in FILLER]
    # Whole, as an editor that saves by renaming does (one that writes in place is read half-written
    # now and then, and refused until its write ends: tests/definitions/test_books.py).
    fresh = folder / "casero.definitions.tsv.new"
    fresh.write_text("\n".join(lines) + "\n", "utf-8")
    fresh.replace(folder / "casero.definitions.tsv")


def test_processes_compiling_and_reading_at_once_while_the_file_changes_all_answer(tmp_path: Path) -> None:
    folder, cache = tmp_path / "words", tmp_path / "cache"
    folder.mkdir()
    (folder / "casero.txt").write_text("\n".join(["casa", "casas", *FILLER]) + "\n", "utf-8")
    write(folder, 0)
    askers = [
        subprocess.Popen(
            [sys.executable, "-c", ASKER, str(folder), str(cache)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(ASKERS)
    ]
    version = 0
    while any(asker.poll() is None for asker in askers):  # a new version every few ms, all along
        version += 1
        write(folder, version)
        time.sleep(0.005)
    written = {f"versión {v}" for v in range(version + 1)}
    for asker in askers:
        out, err = asker.communicate(timeout=60)
        assert asker.returncode == 0, err
        assert set(out.split("\n")) - {""} <= written, err
        assert "Traceback" not in err
    latest = subprocess.run(
        [sys.executable, "-c", ASKER, str(folder), str(cache)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert set(latest.stdout.split("\n")) - {""} == {f"versión {version}"}
