"""The dictionary (our DAWG) beside the alternatives: build, load, memory, lookups, chain step.

Every build and load runs in a fresh interpreter (one at a time), so its time,
its traced memory and its RSS growth start from the same clean state. Cold =
built from the parsed words (``load`` also reads, parses and checks the list);
warm = from the compiled form a cold run saved. Structures:

* ours: ``wibble.wordlists.load`` (read + parse + build: what a host waits for),
  and ``Trie(words)`` alone; warm = ``load`` with a ``TrieCache`` a cold run
  filled, and ``Trie.from_bytes`` alone;
* a set of words plus a set of every prefix (words included); warm = ``pickle.loads``;
* a nested-dict trie (a dict per prefix, ``""`` marks a word's end); warm = ``marshal.loads``;
* marisa-trie, if installed (a benchmark-only dependency); warm = ``Trie().load(path)``.

Memory: tracemalloc's bytes still held once only the loaded (warm) structure is
left, and the growth of VmRSS across the cold build and the warm load (which also
counts the allocator's overhead and whatever building left behind).

Lookups and the chain step run in one more fresh interpreter per list. Each run
queries newly made str objects (so no hash is cached, as for a word just received)
and the cost of the bare loop is subtracted. "hot" is the best of runs back to
back (the queries' cache lines stay cached); "cold" is the best of runs each
after flushing the CPU caches. Measuring both matters: run one structure after
another on the same queries and the second finds the first's strings and slots
cached, and looks several times faster than it is. Hot figures move (up to 3x for
a big set) with whatever else shares the machine's last-level cache; cold ones
repeat to a few percent, so compare those first.

    .venv/bin/python -m benchmarks.dictionary [--lists en es] [--runs 3]
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.util
import json
import marshal
import os
import pickle
import platform
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from wibble.cache import TrieCache
from wibble.core import Trie, parse_words
from wibble.wordlists import load

ROOT = Path(__file__).resolve().parent.parent
WORDS = ROOT / "words"
HAVE_MARISA = importlib.util.find_spec("marisa_trie") is not None
STRUCTURES = ["load", "trie", "sets", "nested"] + (["marisa"] if HAVE_MARISA else [])
LABELS = {
    "load": "ours: load() -> WordList",
    "trie": "ours: Trie",
    "sets": "set + prefix set (methods)",
    "inline": "set, inline `in` (floor)",
    "nested": "nested-dict trie",
    "marisa": "marisa-trie",
}
SAMPLE = 10_000  # words from the list; as many random strings that are not words
CHAIN_SAMPLE = 5_000  # words of each length group walked tile by tile
ROUNDS = 5  # lookups: rounds over all cases, spread in time (best of all)
HOT_REPS = 3  # per round: runs back to back, after a warm-up
COLD_REPS = 2  # per round: runs each after flushing the caches


# -- the alternatives ------------------------------------------------------------


class SetDictionary:
    """The simplest dictionary: a set of words and a set of every prefix (words included)."""

    def __init__(self, words: set[str], prefixes: set[str]) -> None:
        self.words, self.prefixes = words, prefixes

    @classmethod
    def build(cls, words: Iterable[str]) -> SetDictionary:
        unique = set(words)
        # w[:len(w)] is w itself, so a word's string is shared by both sets.
        return cls(unique, {w[:i] for w in unique for i in range(1, len(w) + 1)})

    def contains(self, word: str) -> bool:
        return word in self.words

    def has_prefix(self, prefix: str) -> bool:
        return prefix in self.prefixes


class NestedTrie:
    """The obvious trie: one dict per prefix, letter -> child, ``""`` present where a word ends."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root

    @classmethod
    def build(cls, words: Iterable[str]) -> NestedTrie:
        root: dict[str, Any] = {}
        for word in words:
            node = root
            for ch in word:
                nxt = node.get(ch)
                if nxt is None:
                    nxt = node[ch] = {}
                node = nxt
            node[""] = True
        return cls(root)

    def _find(self, text: str) -> dict[str, Any] | None:
        node = self.root
        for ch in text:
            nxt = node.get(ch)
            if nxt is None:
                return None
            node = nxt
        return node

    def __contains__(self, word: str) -> bool:
        node = self._find(word)
        return node is not None and "" in node

    def has_prefix(self, prefix: str) -> bool:
        return self._find(prefix) is not None


# -- the children: one measurement each, in a fresh interpreter ---------------------


def rss_kb(field: str = "VmRSS") -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field}")


def list_path(name: str) -> Path:
    return WORDS / f"{name}.txt"


def parsed_words(name: str) -> list[str]:
    path = list_path(name)
    return parse_words(path.read_text(encoding="utf-8-sig"), str(path))


def artifact(work: Path, name: str, structure: str) -> Path:
    suffix = {"trie": "dawg-bytes", "sets": "pickle", "nested": "marshal", "marisa": "marisa"}[structure]
    return work / f"{name}.{suffix}"


def child_cold(name: str, structure: str, work: Path, save: bool) -> dict[str, Any]:
    """One cold build; RSS growth counts from before the list is read to when only the structure is left."""
    path = list_path(name)
    if structure == "marisa":
        import marisa_trie
    gc.collect()
    rss0 = rss_kb()
    if structure == "load":
        started = time.perf_counter_ns()
        built: Any = load(path)
        elapsed = time.perf_counter_ns() - started
    else:
        words = parsed_words(name)
        started = time.perf_counter_ns()
        if structure == "trie":
            built = Trie(words)
        elif structure == "sets":
            built = SetDictionary.build(words)
        elif structure == "nested":
            built = NestedTrie.build(words)
        else:
            built = marisa_trie.Trie(words)
        elapsed = time.perf_counter_ns() - started
        del words
    gc.collect()
    rss1 = rss_kb()
    if save:  # what the warm runs load
        if structure == "load":
            load(path, TrieCache(work / "cache"))  # a cold run with a cache, as a host's first start
        elif structure == "trie":
            artifact(work, name, "trie").write_bytes(built.to_bytes())
        elif structure == "sets":
            data = pickle.dumps((built.words, built.prefixes), pickle.HIGHEST_PROTOCOL)
            artifact(work, name, "sets").write_bytes(data)
        elif structure == "nested":
            artifact(work, name, "nested").write_bytes(marshal.dumps(built.root))
        else:
            built.save(str(artifact(work, name, "marisa")))
    return {"s": elapsed / 1e9, "rss_mb": (rss1 - rss0) / 1024, "peak_mb": rss_kb("VmHWM") / 1024}


def load_warm(name: str, structure: str, work: Path, timed: list[int] | None = None) -> Any:
    """The structure from its compiled form; only the call that decodes it is timed."""
    if structure == "load":
        started = time.perf_counter_ns()
        result: Any = load(list_path(name), TrieCache(work / "cache"))
    elif structure == "marisa":
        import marisa_trie

        started = time.perf_counter_ns()
        result = marisa_trie.Trie().load(str(artifact(work, name, "marisa")))
    else:
        data = artifact(work, name, structure).read_bytes()
        started = time.perf_counter_ns()
        if structure == "trie":
            result = Trie.from_bytes(data)
        elif structure == "sets":
            result = SetDictionary(*pickle.loads(data))
        else:
            result = NestedTrie(marshal.loads(data))
        del data
    if timed is not None:
        timed.append(time.perf_counter_ns() - started)
    return result


def child_warm(name: str, structure: str, work: Path) -> dict[str, Any]:
    if structure == "marisa":
        import marisa_trie  # noqa: F401  (imported before the first RSS reading)
    gc.collect()
    rss0 = rss_kb()
    timed: list[int] = []
    loaded = load_warm(name, structure, work, timed)
    gc.collect()
    rss1 = rss_kb()
    del loaded
    return {"s": timed[0] / 1e9, "rss_mb": (rss1 - rss0) / 1024}


def traced_bytes(make: Callable[[], Any]) -> int:
    """Bytes allocated by ``make`` and still held by what it returns."""
    gc.collect()
    tracemalloc.start()
    kept = make()
    gc.collect()
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept
    return held


def child_traced(name: str, work: Path) -> dict[str, Any]:
    """tracemalloc of each warm-loaded structure (blind to marisa's C++ heap), and of ours built cold."""
    result = {s: traced_bytes(partial(load_warm, name, s, work)) / 2**20 for s in STRUCTURES if s != "marisa"}
    result["trie_cold"] = traced_bytes(lambda: Trie(parsed_words(name))) / 2**20
    return result


def fresh(batch: list[str]) -> list[str]:
    """New str objects with the same text, so every lookup computes its hash as a new word would."""
    return ["".join(list(w)) for w in batch]


def loop_empty(batch: list[str]) -> int:
    started = time.perf_counter_ns()
    for _ in batch:
        pass
    return time.perf_counter_ns() - started


def loop_in(container: Any, batch: list[str]) -> int:
    started = time.perf_counter_ns()
    for w in batch:
        w in container  # noqa: B015  (the lookup is the point)
    return time.perf_counter_ns() - started


def loop_call(method: Callable[[str], bool], batch: list[str]) -> int:
    started = time.perf_counter_ns()
    for w in batch:
        method(w)
    return time.perf_counter_ns() - started


def chain_empty(words: list[str]) -> int:
    root = None
    started = time.perf_counter_ns()
    for w in words:
        node = root
        for _ in w:
            pass
    del node
    return time.perf_counter_ns() - started


def chain_child(trie: Trie, words: list[str]) -> int:
    """As a chain does: one ``child`` step per tile from the node it holds."""
    root = trie.root
    started = time.perf_counter_ns()
    for w in words:
        node: Any = root
        for ch in w:
            node = trie.child(node, ch)
    return time.perf_counter_ns() - started


def chain_get(root: dict[str, Any], words: list[str]) -> int:
    started = time.perf_counter_ns()
    for w in words:
        node: Any = root
        for ch in w:
            node = node.get(ch)
    return time.perf_counter_ns() - started


def chain_set(prefixes: set[str], words: list[str]) -> int:
    """The set's equivalent: extend the chain's string by the tile, then look the new string up."""
    started = time.perf_counter_ns()
    for w in words:
        s = ""
        for ch in w:
            s = s + ch
            s in prefixes  # noqa: B015
    return time.perf_counter_ns() - started


# One timed case: its key, what makes its input (untimed), the timed run, how many operations it does.
Case = tuple[tuple[str, str], Callable[[], list[str]], Callable[[list[str]], int], int]
_EVICT: bytearray | None = None


def evict_caches() -> None:
    """Read a buffer 3x the last-level cache, so the next run finds none of its data cached."""
    global _EVICT
    if _EVICT is None:
        size = 3 * 32 * 2**20
        try:
            text = Path("/sys/devices/system/cpu/cpu0/cache/index3/size").read_text().strip()
            size = 3 * int(text.rstrip("K")) * 1024
        except (OSError, ValueError):
            pass
        _EVICT = bytearray(b"\x01") * size  # written, so every page is real memory (not the zero page)
    _EVICT.find(b"\x00")


def time_cases(cases: list[Case]) -> dict[str, dict[tuple[str, str], float]]:
    """Best ns per operation of each case, hot and cold.

    Hot: the case runs HOT_REPS times back to back after a warm-up, so what it touches is cached
    (as when the same few thousand words are asked again and again). Cold: the caches are flushed
    before each of COLD_REPS runs (as for a word nobody asked lately). Without the split, whichever
    structure runs second on the same queries finds the first one's cache lines (the strings, the
    set's slots) and looks several times faster than it is. Both are repeated in ROUNDS spread over
    the whole child, cases interleaved: this machine's caches are shared, and another process can
    slow every lookup for a few hundred milliseconds at a time.
    """
    hot: dict[tuple[str, str], float] = {}
    for _ in range(ROUNDS):
        for key, make, run, ops in cases:
            run(make())
            best = min(run(make()) for _ in range(HOT_REPS)) / ops
            hot[key] = min(hot.get(key, best), best)
    cold: dict[tuple[str, str], float] = {}
    for _ in range(ROUNDS * COLD_REPS):
        for key, make, run, ops in cases:
            evict_caches()
            data = make()
            cold[key] = min(cold.get(key, float("inf")), run(data) / ops)
    return {"hot": hot, "cold": cold}


def net_ns(timed: dict[str, dict[tuple[str, str], float]]) -> dict[str, Any]:
    """{hot|cold: {group: {name: ns}}}, the bare loop of each group subtracted (and kept as "loop")."""
    result: dict[str, Any] = {}
    for mode, best in timed.items():
        groups: dict[str, dict[str, float]] = {}
        for (group, name), ns in best.items():
            groups.setdefault(group, {})[name] = ns if name == "empty" else ns - best[group, "empty"]
        for values in groups.values():
            values["loop"] = values.pop("empty")
        result[mode] = groups
    return result


def random_string(rng: random.Random, alphabet: list[str], length: int, bad: Callable[[str], bool]) -> str:
    """Random letters, ``length`` long (or longer if none that short will do), for which ``bad`` is false."""
    while True:
        for _ in range(200):
            s = "".join(rng.choice(alphabet) for _ in range(length))
            if not bad(s):
                return s
        length += 1


def child_lookups(name: str, work: Path) -> dict[str, Any]:
    # marisa-trie 1.x deprecates has_keys_with_prefix (iterkeys costs about the same); timed as is.
    warnings.filterwarnings("ignore", "Trie.has_keys_with_prefix is deprecated", DeprecationWarning)
    words = parsed_words(name)
    unique = sorted(set(words))
    trie: Trie = load_warm(name, "trie", work)
    sets: SetDictionary = load_warm(name, "sets", work)
    nested: NestedTrie = load_warm(name, "nested", work)
    marisa = load_warm(name, "marisa", work) if HAVE_MARISA else None

    rng = random.Random(20240607)
    alphabet = sorted(set("".join(unique)))
    hits = rng.sample(unique, SAMPLE)
    misses = [random_string(rng, alphabet, len(w), sets.words.__contains__) for w in hits]
    word_batch = hits + misses
    rng.shuffle(word_batch)
    prefix_hits = [w[: rng.randint(1, len(w))] for w in hits]
    prefix_misses = [
        random_string(rng, alphabet, max(len(p), 2), sets.prefixes.__contains__) for p in prefix_hits
    ]
    prefix_batch = prefix_hits + prefix_misses
    rng.shuffle(prefix_batch)

    # Every structure must give the same answers, or its timings mean nothing.
    expected = [w in sets.words for w in word_batch]
    others: list[Any] = [trie, nested] + ([marisa] if marisa is not None else [])
    for other in others:
        assert [w in other for w in word_batch] == expected, type(other)
    expected = [p in sets.prefixes for p in prefix_batch]
    assert [trie.has_prefix(p) for p in prefix_batch] == expected
    assert [nested.has_prefix(p) for p in prefix_batch] == expected
    if marisa is not None:
        assert [marisa.has_keys_with_prefix(p) for p in prefix_batch] == expected

    cases: list[tuple[tuple[str, str], Callable[[list[str]], int]]] = [
        (("contains", "inline"), lambda b: loop_in(sets.words, b)),
        (("contains", "sets"), lambda b: loop_call(sets.contains, b)),
        (("contains", "trie"), lambda b: loop_in(trie, b)),
        (("contains", "nested"), lambda b: loop_in(nested, b)),
        (("has_prefix", "inline"), lambda b: loop_in(sets.prefixes, b)),
        (("has_prefix", "sets"), lambda b: loop_call(sets.has_prefix, b)),
        (("has_prefix", "trie"), lambda b: loop_call(trie.has_prefix, b)),
        (("has_prefix", "nested"), lambda b: loop_call(nested.has_prefix, b)),
    ]
    if marisa is not None:
        cases += [
            (("contains", "marisa"), lambda b: loop_in(marisa, b)),
            (("has_prefix", "marisa"), lambda b: loop_call(marisa.has_keys_with_prefix, b)),
        ]
    batches = {"contains": word_batch, "has_prefix": prefix_batch}
    lookup_cases: list[Case] = [
        ((op, "empty"), partial(fresh, batch), loop_empty, len(batch)) for op, batch in batches.items()
    ]
    lookup_cases += [(key, partial(fresh, batches[key[0]]), run, len(batches[key[0]])) for key, run in cases]
    lookups = net_ns(time_cases(lookup_cases))

    groups = {
        "3-5": rng.sample([w for w in unique if 3 <= len(w) <= 5], CHAIN_SAMPLE),
        "10+": rng.sample([w for w in unique if len(w) >= 10], CHAIN_SAMPLE),
    }
    steps: list[tuple[str, Callable[[list[str]], int]]] = [
        ("empty", chain_empty),
        ("child", lambda g: chain_child(trie, g)),
        ("get", lambda g: chain_get(trie.root, g)),
        ("nested", lambda g: chain_get(nested.root, g)),
        ("sets", lambda g: chain_set(sets.prefixes, g)),
    ]
    chain_cases: list[Case] = [
        ((group, step), partial(list, words), run, sum(map(len, words)))
        for group, words in groups.items()
        for step, run in steps
    ]
    chain = net_ns(time_cases(chain_cases))
    return {
        "lookups": lookups,
        "chain": chain,
        "nodes": trie.node_count(),
        "words": len(trie),
    }


# -- the parent: runs the children one at a time and prints the tables --------------


def run_child(*args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.dictionary", "--child", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        sys.exit(f"child {' '.join(args)} failed:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def measure_list(name: str, runs: int, work: Path) -> dict[str, Any]:
    figures: dict[str, Any] = {"cold": {}, "warm": {}}
    for phase in ("cold", "warm"):
        for structure in STRUCTURES:
            results = []
            for i in range(runs):
                extra = ["--save"] if phase == "cold" and i == 0 else []
                results.append(
                    run_child(phase, "--list", name, "--structure", structure, "--work", str(work), *extra)
                )
            figures[phase][structure] = {
                "s": min(r["s"] for r in results),
                "rss_mb": median([r["rss_mb"] for r in results]),
                "peak_mb": max(r.get("peak_mb", 0.0) for r in results),
            }
        if phase == "cold" and not list((work / "cache").glob(f"{name}-*.dawg")):
            sys.exit(f"the cold run left no compiled {name} in {work / 'cache'}")
    figures["traced"] = run_child("traced", "--list", name, "--work", str(work))
    figures.update(run_child("lookups", "--list", name, "--work", str(work)))
    figures["sizes"] = {
        "trie": artifact(work, name, "trie").stat().st_size,
        "sets": artifact(work, name, "sets").stat().st_size,
        "nested": artifact(work, name, "nested").stat().st_size,
    }
    if HAVE_MARISA:
        figures["sizes"]["marisa"] = artifact(work, name, "marisa").stat().st_size
    return figures


def cell(value: float | None, fmt: str) -> str:
    """``value`` formatted, or a dash as wide, for a figure a structure does not have."""
    return "-".rjust(int(fmt.split(".")[0])) if value is None else format(value, fmt)


def hot_cold(f: dict[str, Any], group: str, name: str) -> str:
    """``hot/cold`` ns of one lookup, or "-" for a structure without it."""
    if name not in f["lookups"]["hot"][group]:
        return "-"
    return f"{f['lookups']['hot'][group][name]:.0f}/{f['lookups']['cold'][group][name]:.0f}"


def print_list(name: str, f: dict[str, Any]) -> None:
    print(f"\n{name}: {f['words']:,} words, our DAWG has {f['nodes']:,} nodes")
    header = (
        f"{'structure':28} {'cold s':>7} {'warm s':>7} {'traced MB':>9} {'RSS+ cold':>9} {'RSS+ warm':>9}"
        f" {'contains ns':>12} {'has_prefix ns':>13}"
    )
    print(header)
    print(
        f"{'':28} {'build':>7} {'load':>7} {'(warm)':>9} {'MB':>9} {'MB':>9}"
        f" {'hot/cold':>12} {'hot/cold':>13}"
    )
    print("-" * len(header))
    for structure in ["load", "trie", "sets", "inline", "nested", "marisa"]:
        if structure == "marisa" and not HAVE_MARISA:
            continue
        cold = f["cold"].get(structure)
        warm = f["warm"].get(structure)
        traced = f["traced"].get(structure)  # none for marisa: tracemalloc cannot see its C++ heap
        print(
            f"{LABELS[structure]:28} {cell(cold and cold['s'], '7.3f')} {cell(warm and warm['s'], '7.4f')}"
            f" {cell(traced, '9.1f')} {cell(cold and cold['rss_mb'], '9.1f')}"
            f" {cell(warm and warm['rss_mb'], '9.1f')} {hot_cold(f, 'contains', structure):>12}"
            f" {hot_cold(f, 'has_prefix', structure):>13}"
        )
    mb = {k: v / 2**20 for k, v in f["sizes"].items()}
    print(
        f"  compiled form on disk: ours {mb['trie']:.1f} MB, sets pickle {mb['sets']:.1f} MB, "
        f"nested marshal {mb['nested']:.1f} MB"
        + (f", marisa {mb['marisa']:.1f} MB" if "marisa" in mb else "")
    )
    peak = {s: v["peak_mb"] for s, v in f["cold"].items()}
    print("  peak RSS of a cold build: " + ", ".join(f"{s} {v:.0f} MB" for s, v in peak.items()))
    print(
        f"  ours traced when built cold: {f['traced']['trie_cold']:.1f} MB "
        f"(warm-loaded: {f['traced']['trie']:.1f} MB)"
    )
    print(f"  bare loop per lookup (subtracted above): {hot_cold(f, 'contains', 'loop')} ns")

    print(f"\n{name}: chain step, ns per tile walking {CHAIN_SAMPLE:,} words letter by letter (hot / cold)")
    steps = [
        ("child", "ours: trie.child(node, ch)"),
        ("get", "ours: node.get(ch) (raw)"),
        ("nested", "nested dicts: node.get(ch)"),
        ("sets", "sets: s = s + ch; s in prefixes"),
    ]
    print(f"{'step':34} {'words 3-5':>15} {'words 10+':>15} {'10+/3-5':>11}")
    for key, label in steps:
        (short_hot, long_hot), (short_cold, long_cold) = (
            (f["chain"][mode]["3-5"][key], f["chain"][mode]["10+"][key]) for mode in ("hot", "cold")
        )
        print(
            f"{label:34} {short_hot:7.1f}/{short_cold:<7.1f} {long_hot:7.1f}/{long_cold:<7.1f}"
            f" {long_hot / short_hot:5.2f}/{long_cold / short_cold:<5.2f}"
        )
    loops = " / ".join(
        f"{f['chain'][mode]['3-5']['loop']:.0f} and {f['chain'][mode]['10+']['loop']:.0f} ns {mode}"
        for mode in ("hot", "cold")
    )
    print(f"  bare loop per tile, 3-5 and 10+ (subtracted above): {loops}")


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def print_targets(figures: dict[str, dict[str, Any]]) -> None:
    print("\ntargets (ours):")
    limits = {"en": (1.0, 0.1, 20.0), "es": (None, 0.3, 60.0)}
    for name, f in figures.items():
        cold_limit, warm_limit, mb_limit = limits.get(name, (None, None, None))
        cold, warm = f["cold"]["load"]["s"], f["warm"]["load"]["s"]
        if cold_limit is not None:
            print(f"  {name} cold load() {cold:.3f} s <= {cold_limit} s: {verdict(cold <= cold_limit)}")
        if warm_limit is not None:
            print(f"  {name} warm load() {warm:.3f} s <= {warm_limit} s: {verdict(warm <= warm_limit)}")
        if mb_limit is not None:
            traced, rss = f["traced"]["trie"], f["warm"]["trie"]["rss_mb"]
            print(
                f"  {name} memory: traced {traced:.1f} MB, RSS +{rss:.1f} MB <= {mb_limit:.0f} MB: "
                f"{verdict(max(traced, rss) <= mb_limit)}"
            )
        for op in ("contains", "has_prefix"):
            for mode in ("hot", "cold"):
                ours, floor, method = (f["lookups"][mode][op][s] for s in ("trie", "inline", "sets"))
                print(
                    f"  {name} {op} ({mode}) {ours:.0f} ns <= 2x set: {ours / floor:.1f}x the inline set "
                    f"lookup ({floor:.0f} ns), {ours / method:.1f}x a set behind a method "
                    f"({method:.0f} ns): {verdict(ours <= 2 * floor)}"
                )
        for mode in ("hot", "cold"):
            short, long = f["chain"][mode]["3-5"]["child"], f["chain"][mode]["10+"]["child"]
            print(
                f"  {name} child() per tile ({mode}) {short:.0f} ns (3-5 letters) vs {long:.0f} ns (10+): "
                f"constant within 1.5x: {verdict(long <= 1.5 * short)}"
            )


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def load_average() -> str:
    """The 1-minute load average: other work on the machine slows lookups (shared caches) and builds."""
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", nargs="+", default=["en", "es"])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per build/load figure (best of)")
    parser.add_argument("--child", choices=["cold", "warm", "traced", "lookups"], help=argparse.SUPPRESS)
    parser.add_argument("--list", help=argparse.SUPPRESS)
    parser.add_argument("--structure", choices=STRUCTURES, help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--save", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.child == "cold":
            result = child_cold(args.list, args.structure, args.work, args.save)
        elif args.child == "warm":
            result = child_warm(args.list, args.structure, args.work)
        elif args.child == "traced":
            result = child_traced(args.list, args.work)
        else:
            result = child_lookups(args.list, args.work)
        print(json.dumps(result))
        return

    started = time.perf_counter()
    print(f"machine: {os.cpu_count()} cores, {cpu_model()}")
    print(
        f"Python {platform.python_version()}, {datetime.date.today().isoformat()}, "
        f"load average {load_average()}"
    )
    print(
        "cold build: ours load() = read + parse + build + letters; every other row builds from the parsed "
        "words. warm load: load() with a filled TrieCache, Trie.from_bytes, pickle.loads of the two sets, "
        "marshal.loads of the nested dicts, marisa Trie().load(file)"
    )
    if HAVE_MARISA:
        from importlib.metadata import version

        print(f"marisa-trie {version('marisa-trie')}")
    else:
        print("marisa-trie is not installed (pip install marisa-trie, or the 'bench' extra): skipped")
    print(
        f"build/load: best of {args.runs} fresh processes (RSS: median). lookups: {SAMPLE:,} words + "
        f"{SAMPLE:,} non-words as new str objects (hash not cached), bare loop subtracted; hot = best "
        f"of {ROUNDS}x{HOT_REPS} runs back to back, cold = best of {ROUNDS}x{COLD_REPS} runs each after "
        "flushing the CPU caches"
    )
    figures: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="wibble-bench-") as tmp:
        for name in args.lists:
            figures[name] = measure_list(name, args.runs, Path(tmp))
            print_list(name, figures[name])
    print_targets(figures)
    print(f"\n(whole run {time.perf_counter() - started:.0f} s; load average now {load_average()})")


if __name__ == "__main__":
    main()
