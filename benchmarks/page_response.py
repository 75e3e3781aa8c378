"""The page on a phone: release → score shown, and how long the page takes to open.

Starts ``wibble serve`` and a headless Chromium with a phone's screen (390×844, touch) and its
CPU slowed 4× (CDP ``Emulation.setCPUThrottlingRate``), plays many words of the endless game by
dragging across the tiles, and times each from the finger's release (``pointerup``, seen
before the page's own handlers) to the score's text changing (a MutationObserver) and to the
next animation frame after it (when the new score is painted). Words found on the board with
the test suite's search; the first few are a warm-up and not counted.

Then opens the page afresh on a slow phone network (CDP ``Network.emulateNetworkConditions``:
150 ms round trip, 1.6 Mb/s down, as Chrome's "Fast 3G") and the same slowed CPU: the first
visit (nothing cached), then a second one in a new tab (the browser's caches and the service
worker), each to the board ready to play.

With ``--trace FILE``, the timed words are also recorded as a devtools trace (FILE, to open in
Chrome's Performance panel) and summarised: for each release, the page's main thread from the
release to the painted frame, in script, style recalculation (and how many elements), layout
(and how many objects, how many dirty) and paint; medians over the words. Tracing slows the
page a little: read those wall-clock figures beside each other, not beside an untraced run.

    .venv/bin/python -m benchmarks.page_response [--words 80] [--throttle 4] [--loads 3] [--trace FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.browser import find_chromium
from tests.e2e.wibble_page import WibblePage
from tests.support import LiveServer, shipped_list

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
FAST_3G = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}

# Before the page's scripts: the release's time, and each score change's delay after it.
TIMING = """
window.__samples = [];
window.__released = null;
let total = null;
let before = null;
addEventListener("pointerup", () => {
  window.__released = performance.now();
  performance.mark("release"); // for --trace
  before = total?.textContent;
}, true);
document.addEventListener("DOMContentLoaded", () => {
  total = document.querySelector('[data-testid="total-score"]');
  new MutationObserver(() => {
    const released = window.__released;
    if (released === null || total.textContent === before) return; // written again, not changed
    window.__released = null;
    const shown = performance.now();
    const frame = () => {
      performance.mark("painted");
      window.__samples.push({ dom: shown - released, frame: performance.now() - released });
    };
    requestAnimationFrame(frame);
  }).observe(total, { childList: true, characterData: true, subtree: true });
});
"""


def slowed(context: BrowserContext, page: Page, rate: float, network: dict[str, Any] | None = None) -> None:
    session = context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    if network:
        session.send("Network.enable")
        session.send("Network.emulateNetworkConditions", network)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# The trace's events on the page's main thread, summed per release (release -> painted frame).
TRACED = {
    "script": ("FunctionCall", "EventDispatch", "TimerFire", "FireAnimationFrame", "RunMicrotasks"),
    "style": ("UpdateLayoutTree",),
    "layout": ("Layout",),
    "paint": ("PrePaint", "Paint", "Layerize", "Commit"),
}
TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.stack",
    "blink.user_timing",
]


def trace_summary(trace: bytes) -> list[dict[str, float]]:
    """Per release: ms of script, style, layout and paint on the main thread until the painted
    frame, the elements restyled and the layout objects laid out (dirty, and in all)."""
    loaded = json.loads(trace)
    events = sorted(
        loaded["traceEvents"] if isinstance(loaded, dict) else loaded, key=lambda e: e.get("ts", 0)
    )
    releases = [e for e in events if e.get("name") == "release"]
    if not releases:
        return []
    main = (releases[0]["pid"], releases[0]["tid"])
    painted = [e["ts"] for e in events if e.get("name") == "painted"]
    work = [e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"]
    kind = {name: key for key, names in TRACED.items() for name in names}
    rows = []
    for release in releases:
        start = release["ts"]
        end = next((t for t in painted if t > start), None)
        if end is None:
            continue
        row: dict[str, float] = defaultdict(float)
        row["painted"] = (end - start) / 1000
        until: dict[str, float] = defaultdict(float)  # an event inside one counted already is in it
        for event in work:
            if not start <= event["ts"] <= end or event["name"] not in kind:
                continue
            key = kind[event["name"]]
            if event["ts"] < until[key]:
                continue
            until[key] = event["ts"] + event.get("dur", 0)
            row[key] += event.get("dur", 0) / 1000
            args = event.get("args", {})
            if event["name"] == "UpdateLayoutTree":
                row["elements"] += args.get("elementCount", 0)
            if event["name"] == "Layout":
                row["dirty"] += args.get("beginData", {}).get("dirtyObjects", 0)
                row["objects"] += args.get("beginData", {}).get("totalObjects", 0)
        rows.append(dict(row))
    return rows


def release_to_score(
    context: BrowserContext,
    url: str,
    words: int,
    rate: float,
    warmup: int = 5,
    trace: tuple[Browser, str] | None = None,
) -> list[dict[str, float]]:
    trie = shipped_list("en").trie
    page = context.new_page()
    page.add_init_script(TIMING)
    game = WibblePage(page).open(url, wordlist="en")
    slowed(context, page, rate)
    found: list[str] = []
    for n in range(words + warmup):
        if trace and n == warmup:
            trace[0].start_tracing(page=page, path=trace[1], categories=TRACE_CATEGORIES)
        try:
            word, path = game.a_word(trie, avoid=found)
        except AssertionError:  # nothing left on this board
            game.new_game()
            found.clear()
            word, path = game.a_word(trie)
        found.append(word)
        game.drag(path, steps=1)
        # Polled every 250 ms, not every frame (Playwright's default): the test's own polling would
        # otherwise run on the page's main thread, slowed 4× too, while the reply is awaited.
        page.wait_for_function(f"() => window.__samples.length > {n}", polling=250, timeout=30_000)
        game.wait_idle()
    samples: list[dict[str, float]] = page.evaluate("() => window.__samples")
    if trace:
        print_trace(trace[0].stop_tracing())
    page.close()
    return samples[warmup:]


def print_trace(trace: bytes) -> None:
    rows = trace_summary(trace)
    if not rows:
        return
    print(f"traced releases n={len(rows)}, medians from the release to the painted frame, main thread:")
    median = {key: statistics.median(row.get(key, 0.0) for row in rows) for key in (*TRACED, "painted")}
    counts = {
        key: statistics.median(row.get(key, 0.0) for row in rows) for key in ("elements", "dirty", "objects")
    }
    print(
        f"  painted {median['painted']:.1f} ms: script {median['script']:.1f} ms,"
        f" style {median['style']:.1f} ms"
        f" ({counts['elements']:.0f} elements), layout {median['layout']:.1f} ms"
        f" ({counts['dirty']:.0f} of {counts['objects']:.0f} objects dirty), paint {median['paint']:.1f} ms"
    )


def page_loads(context: BrowserContext, url: str, rate: float) -> tuple[float, float]:
    """Seconds to the board ready: a first visit, then a second in a new tab of the same browser."""
    times = []
    for _ in range(2):
        page = context.new_page()
        slowed(context, page, rate, FAST_3G)
        started = time.perf_counter()
        page.goto(url)
        WibblePage(page).wait_idle()
        times.append(time.perf_counter() - started)
        # The service worker keeps the files once it is installed (a release without one: skipped).
        if len(times) == 1 and page.evaluate(
            "async () => !!(await navigator.serviceWorker.getRegistration())"
        ):
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
        page.close()
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--words", type=int, default=80, help="words timed (after 5 not counted)")
    parser.add_argument("--throttle", type=float, default=4.0, help="how many times slower the CPU runs")
    parser.add_argument(
        "--loads", type=int, default=3, help="first and second visits timed, each in a new browser"
    )
    parser.add_argument(
        "--trace", metavar="FILE", help="record the timed words' devtools trace here, and sum it up"
    )
    args = parser.parse_args()

    server = LiveServer("--data-dir", "")  # games in memory: no file of anyone's is touched
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=find_chromium())
            context = browser.new_context(**PHONE)
            trace = (browser, args.trace) if args.trace else None
            samples = (
                release_to_score(context, server.url, args.words, args.throttle, trace=trace)
                if args.words
                else []
            )
            context.close()
            for label, key in (("score's text written", "dom"), ("next frame (painted)", "frame")) * bool(
                samples
            ):
                values = [s[key] for s in samples]
                print(
                    f"release -> {label:22} n={len(values)}  p50 {statistics.median(values):6.1f} ms"
                    f"  p90 {percentile(values, 0.9):6.1f} ms  max {max(values):6.1f} ms"
                    f"  (CPU {args.throttle:g}x slower, phone screen)"
                )
            firsts, seconds = [], []
            for _ in range(args.loads):  # (--loads 0: none)
                context = browser.new_context(**PHONE)
                first, second = page_loads(context, server.url, args.throttle)
                context.close()
                firsts.append(first)
                seconds.append(second)
            if firsts:
                print(
                    f"open to board ready, Fast 3G, CPU {args.throttle:g}x slower ({args.loads} browsers):"
                    f" first visit median {statistics.median(firsts) * 1000:.0f} ms"
                    f" ({', '.join(f'{t * 1000:.0f}' for t in firsts)}),"
                    f" second visit median {statistics.median(seconds) * 1000:.0f} ms"
                    f" ({', '.join(f'{t * 1000:.0f}' for t in seconds)})"
                )
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
