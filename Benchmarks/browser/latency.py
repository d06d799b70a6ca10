"""`make bench`: how long an event takes from the hook port to the inspector page, in a real browser.

A session of N coordinators (a 4-ary tree) is streamed to `coordlens listen` over TCP, the page shows it (in its default
view, where a tree above 300 coordinators draws what has no leak as counted summaries), then probes
follow, each after a quiet moment: one `add` line is written to the hook socket, and the page records when the
picture that includes that event has been put in the document and painted (the next animation frame). Both clocks
are this machine's wall clock. Prints the median and 90th percentile per size against the targets.
"""
import contextlib
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

TARGETS = {1_000: 100, 5_000: 250}
PROBES = 11
# Also measured with every node drawn (the page's Show all), fewer probes, against the Show all targets: size -> (probes,
# target in ms).
ALL_VIEW = {1_000: (5, 250), 5_000: (3, 1_000)}


def start_listen(binary):
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    process = subprocess.Popen([binary, "listen", "--port", "0", "--http-port", "0"], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    while time.time() < deadline:
        text = open(log.name).read()
        hook = re.search(r"coordlens listening on \S+:(\d+)", text)
        page = re.search(r"Inspector: (http://\S+)", text)
        if hook and page:
            return process, int(hook.group(1)), page.group(1)
        time.sleep(0.05)
    raise SystemExit("coordlens listen did not start:\n" + open(log.name).read())


def line(seq, body):
    return (json.dumps({"seq": seq, "t": seq * 0.001, **body}) + "\n").encode()


def measure(browser, binary, size, show_all=False, probes=PROBES):
    process, hook, url = start_listen(binary)
    try:
        connection = socket.create_connection(("127.0.0.1", hook))
        run = f"latency-{size}"
        batch = [(json.dumps({"event": "session", "v": 1, "app": "LatencyBench", "run": run}) + "\n").encode()]
        types = ["FeedCoordinator", "ProfileCoordinator", "SettingsCoordinator", "CheckoutCoordinator"]
        for ident in range(1, size + 1):
            body = {"event": "add", "id": ident, "type": types[ident % 4] if ident > 1 else "AppCoordinator",
                    "file": "App/Coordinators.swift", "line": 10 + ident % 50}
            if ident > 1:
                body["parent"] = (ident - 2) // 4 + 1
            batch.append(line(ident, body))
        connection.sendall(b"".join(batch))
        seq = size

        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(url)
        page.wait_for_selector(f"#tree[data-seq='{seq}']", timeout=60_000)
        if show_all:
            page.check("#show-all")
            page.wait_for_selector("#tree svg .summary", state="detached", timeout=60_000)
        page.evaluate("""() => {
            window.lensTiming = [];
            window.__seen = {};
            const tree = document.getElementById('tree');
            new MutationObserver(() => {
                const seq = tree.dataset.seq;
                if (!(seq in window.__seen)) requestAnimationFrame(() => { window.__seen[seq] = Date.now(); });
            }).observe(tree, { attributes: true, attributeFilter: ['data-seq'] });
        }""")
        latencies = []
        for probe in range(probes):
            time.sleep(0.3)
            seq += 1
            ident = size + 1 + probe
            sent = time.time() * 1000
            connection.sendall(line(seq, {"event": "add", "id": ident, "type": "ProbeCoordinator", "parent": 1}))
            deadline = time.time() + 10
            seen = None
            while seen is None and time.time() < deadline:
                seen = page.evaluate(f"window.__seen['{seq}'] ?? null")
                if seen is None:
                    time.sleep(0.002)
            if seen is None:
                raise SystemExit(f"the page never showed event {seq} at {size} coordinators")
            latencies.append(seen - sent)
            if os.environ.get("LATENCY_PHASES"):
                phases = page.evaluate("window.lensTiming.splice(0)")
                start = phases[0][1] if phases else 0
                print(f"  {seen - sent:.0f} ms:", ", ".join(f"{label} +{at - start:.0f}" for label, at in phases))
        connection.close()
        page.close()
        return latencies
    finally:
        process.terminate()
        process.wait(10)


LIFETIMES = {5_000: 1000}


def measure_lifetimes(browser, binary, size, runs=5):
    """The lifetimes view of a recorded session of `size` coordinators (`coordlens view`): milliseconds from asking
    lifetimes.js to lay out and draw the model the page holds to the next painted frame, per run."""
    recording = tempfile.NamedTemporaryFile("wb", suffix=".ndjson", delete=False)
    recording.write(b'{"event":"session","v":1,"app":"Bench","run":"lifetimes"}\n')
    for number in range(1, size + 1):
        add = {"event": "add", "id": number, "type": f"Coordinator{number % 7}"}
        if number > 1:
            add["parent"] = (number - 2) // 4 + 1
        recording.write(line(number * 2 - 1, add))
        if number % 3 == 0:
            recording.write(line(number * 2, {"event": "dismiss", "id": number}))
    recording.close()
    process, url = start_view(binary, recording.name)
    try:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(url)
        page.wait_for_function(f"() => state.model && state.model.nodes.length === {size}", timeout=60000)
        return [page.evaluate("() => window.lensLifetimesBench(state.model)") for _ in range(runs)]
    finally:
        process.terminate()
        process.wait(10)
        os.unlink(recording.name)


def start_view(binary, recording):
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    process = subprocess.Popen([binary, "view", "--http-port", "0", recording], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        with open(log.name) as text:
            found = re.search(r"Inspector: (http://\S+)", text.read())
        if found:
            return process, found.group(1)
        time.sleep(0.05)
    raise SystemExit("coordlens view did not start:\n" + open(log.name).read())


def daily_recording(size):
    """A recorded session of `size` coordinators in a 4-ary tree, every 997th dismissed and kept (a leak)."""
    recording = tempfile.NamedTemporaryFile("wb", suffix=".ndjson", delete=False)
    recording.write(b'{"event":"session","v":1,"app":"Bench","run":"daily"}\n')
    seq = 0
    types = ["FeedCoordinator", "ProfileCoordinator", "SettingsCoordinator", "ShareCoordinator"]
    for number in range(1, size + 1):
        seq += 1
        add = {"event": "add", "id": number, "type": types[number % 4] if number > 1 else "AppCoordinator",
               "file": "App/Coordinators.swift", "line": 10 + number % 50}
        if number > 1:
            add["parent"] = (number - 2) // 4 + 1
        recording.write(line(seq, add))
        if number % 997 == 0:
            seq += 1
            recording.write(line(seq, {"event": "dismiss", "id": number}))
    seq += 1
    recording.write((json.dumps({"seq": seq, "t": seq * 0.001 + 10, "event": "end"}) + "\n").encode())
    recording.close()
    return recording.name


# The page as a daily tool at 100,000 coordinators (milliseconds): first paint (outline and default picture), a pick in
# the outline to its details, a search over all of them; and Show all at 20,000 with the busy indicator shown.
DAILY = {"first paint": 1_500, "pick": 100, "search": 200, "show all": 3_000}


@contextlib.contextmanager
def serving(binary, recording):
    """`coordlens view` over `recording`; yields the page's address."""
    process, url = start_view(binary, recording)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(10)


@contextlib.contextmanager
def viewing(binary, size):
    """`coordlens view` over a daily recording of `size` coordinators; yields the page's address."""
    recording = daily_recording(size)
    try:
        with serving(binary, recording) as url:
            yield url
    finally:
        os.unlink(recording)


def next_frame(page):
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")


def measure_daily_use(browser, binary, size=100_000, show_all_size=20_000, runs=5):
    figures = {}
    with viewing(binary, size) as url:
        paints = []
        for _ in range(3):
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            started = time.time()
            page.goto(url)
            page.wait_for_selector("#outline [role=treeitem]", timeout=120_000)
            page.wait_for_selector("#tree svg", timeout=120_000)
            next_frame(page)
            paints.append((time.time() - started) * 1000)
            page.close()
        figures["first paint"] = paints
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(url)
        page.wait_for_selector("#outline [role=treeitem]", timeout=120_000)
        page.locator("#outline").focus()
        page.keyboard.press("Home")
        # Each: the key handled, the details drawn and the next frame painted, timed in the page.
        figures["pick"] = [page.evaluate("""() => new Promise((done) => {
            const started = performance.now();
            document.getElementById('outline').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
            requestAnimationFrame(() => done(performance.now() - started));
        })""") for _ in range(runs)]
        figures["search"] = [page.evaluate("""(query) => new Promise((done) => {
            const field = document.getElementById('search');
            const started = performance.now();
            field.value = query;
            field.dispatchEvent(new Event('input'));
            requestAnimationFrame(() => done(performance.now() - started));
        })""", query) for query in ["Share", "Profile", "#4242", "Settings", "Feed"]]
        page.close()
    with viewing(binary, show_all_size) as url:
        times = []
        for _ in range(2):
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(url)
            page.wait_for_selector("#tree svg .summary", timeout=120_000)
            page.evaluate("""() => { window.__busySeen = false;
                new MutationObserver(() => { if (!document.getElementById('busy').hidden) window.__busySeen = true; })
                  .observe(document.getElementById('busy'), { attributes: true }); }""")
            started = time.time()
            page.check("#show-all")
            page.wait_for_selector("#tree svg .summary", state="detached", timeout=120_000)
            next_frame(page)
            times.append((time.time() - started) * 1000)
            if not page.evaluate("window.__busySeen"):
                print("  (Show all finished without the busy indicator showing)")
            page.close()
        figures["show all"] = times
    for name, values in figures.items():
        median = statistics.median(values)
        target = DAILY[name]
        verdict = "met" if median < target else f"missed by {median - target:.0f} ms"
        what = f"{show_all_size:,} coordinators" if name == "show all" else f"{size:,} coordinators"
        print(f"inspector page as a daily tool, {name}, {what}: median {median:.0f} ms (max {max(values):.0f} ms, "
              f"{len(values)} runs)  [target < {target} ms: {verdict}]")


def main():
    binary = sys.argv[1]
    # `latency.py BINARY daily` measures the daily-use figures alone.
    if sys.argv[2:] == ["daily"]:
        chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"] if os.geteuid() == 0 else [])
            measure_daily_use(browser, binary)
            browser.close()
        return
    # `latency.py BINARY 300:100 2000:150` measures other sizes against other targets, for experiments.
    if len(sys.argv) > 2:
        TARGETS.clear()
        TARGETS.update({int(size): int(target) for size, target in (pair.split(":") for pair in sys.argv[2:])})
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        browser = playwright.chromium.launch(executable_path=chromium, args=args)
        for size, target in TARGETS.items():
            latencies = measure(browser, binary, size)
            median = statistics.median(latencies)
            p90 = sorted(latencies)[int(len(latencies) * 0.9)]
            verdict = "met" if median < target else f"missed by {median - target:.0f} ms"
            print(f"inspector page: event on the hook port to the page showing it, {size:,} coordinators: "
                  f"median {median:.0f} ms (p90 {p90:.0f} ms, {len(latencies)} probes)  [target < {target} ms: {verdict}]")
        for size, (probes, target) in ALL_VIEW.items():
            latencies = measure(browser, binary, size, show_all=True, probes=probes)
            median = statistics.median(latencies)
            verdict = "met" if median < target else f"short by {median / target:.2f}×"
            print(f"inspector page with Show all (every node drawn; a canvas above 3,000), {size:,} coordinators: "
                  f"median {median:.0f} ms ({len(latencies)} probes)  [target < {target} ms: {verdict}]")
        measure_daily_use(browser, binary)
        for size, target in LIFETIMES.items():
            times = measure_lifetimes(browser, binary, size)
            median = statistics.median(times)
            verdict = "met" if median < target else f"missed by {median - target:.0f} ms"
            print(f"inspector page, lifetimes view of {size:,} coordinators (rows virtualised): laid out, drawn and "
                  f"painted in median {median:.0f} ms (max {max(times):.0f} ms, {len(times)} runs)  [target < {target} ms: {verdict}]")
        browser.close()


if __name__ == "__main__":
    main()
