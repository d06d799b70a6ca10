"""`make bench`: issue 52's big app in the inspector page and in report.html, in a real browser.

The app: AppCoordinator, 10 features, 10 flows each, 10 screen coordinators per flow and 99 leaves per screen
(100,111 coordinators, 20 leaf types), 300 leaves dismissed and kept (retained), recorded and served by `coordlens
view`. Measured at 1440 × 900: the first picture (the page opened until the picture is painted) and how many of the
300 leaks it draws in red (each as itself or in a group that counts them), a pick of the first leak in the Leaks list
until its box is on screen, the search (a query typed, until its matches are shown, less the page's wait for the
typist to pause), Show all (until its canvas is painted, and the renderer's resident memory), and `coordlens render
-o report.html` (time, peak memory, file size).

`big_app.py BINARY` prints each figure against its target.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

from latency import next_frame, serving
from show_all import renderer_mb

LEAKS = 300
# Milliseconds, MB: the first picture as the daily bench's, a pick as the outline's, the search and Show all as issue
# 52 asks; report.html about 1.5 times what it measured when the figure was added (2026-12-02: 5.1 s, 238 MB, 19.7 MB;
# issue 52 found 8.8 s, 639 MB and 77.7 MB), so a regression shows.
TARGETS = {"first picture": 1_500, "pick a leak": 1_500, "search": 100, "show all": 3_000}
SHOW_ALL_MB = 500
REPORT = {"seconds": 10, "MB peak": 400, "MB file": 30}
# The page waits this long after the last key before it searches (search.js QUIET_MS).
QUIET_MS = 120


def recording():
    """Issue 52's app as a recording; returns its path and the ids of its leaks."""
    lines = [{"event": "session", "v": 1, "app": "BigApp", "run": "issue-52"}]
    events = [("add", 1, "AppCoordinator", None)]
    leaves = []
    next_id = 1

    def add(kind, parent):
        nonlocal next_id
        next_id += 1
        events.append(("add", next_id, kind, parent))
        return next_id

    for feature in range(10):
        feature_id = add(f"Feature{feature}Coordinator", 1)
        for flow in range(10):
            flow_id = add(f"Flow{flow}Coordinator", feature_id)
            for screen in range(10):
                screen_id = add(f"Screen{screen}Coordinator", flow_id)
                leaves.extend(add(f"Leaf{leaf % 20}Coordinator", screen_id) for leaf in range(99))
    leaked = leaves[17::len(leaves) // LEAKS][:LEAKS]
    file = tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False)
    file.write(json.dumps(lines[0]) + "\n")
    seq = 0
    for _, number, kind, parent in events:
        seq += 1
        add_line = {"seq": seq, "t": 0.1, "event": "add", "id": number, "type": kind}
        if parent is not None:
            add_line["parent"] = parent
        file.write(json.dumps(add_line) + "\n")
    for number in leaked:
        seq += 1
        file.write(json.dumps({"seq": seq, "t": 1, "event": "dismiss", "id": number}) + "\n")
    file.write(json.dumps({"seq": seq + 1, "t": 10, "event": "end"}) + "\n")
    file.close()
    return file.name, leaked


# The leaks the picture draws in red: each retained box counts one, a group its ×N.
LEAKS_DRAWN = """() => {
    let count = 0;
    for (const node of document.querySelectorAll('#tree svg g.node.verdict-retained')) {
        const group = /×([\\d,]+)/.exec(node.textContent);
        count += group ? Number(group[1].replace(/,/g, '')) : 1;
    }
    return count;
}"""

# Whether the box `id` is inside the picture's frame, with its title at least 9 px high.
ON_SCREEN = """(id) => {
    const box = document.querySelector(`#tree svg g.node#${id}`);
    if (!box) return false;
    const frame = document.getElementById('tree').getBoundingClientRect();
    const title = (box.querySelector('text') || box).getBoundingClientRect();
    return title.height >= 9 && title.left >= frame.left && title.right <= frame.right
        && title.top >= frame.top && title.bottom <= frame.bottom;
}"""


# Installed before the page's own scripts: the time from the navigation's start to the frame that first paints the
# picture, read in the page (a poll from here would wait for whatever the page does next, such as the outline).
FIRST_PICTURE = """new MutationObserver((_, observer) => {
    if (!document.querySelector('#tree svg g.node')) return;
    observer.disconnect();
    requestAnimationFrame(() => { window.__firstPicture = performance.now(); });
}).observe(document, { childList: true, subtree: true });"""


def open_page(browser, url):
    """A new page at `url`, once its picture and its panels are up; and the milliseconds to its first picture."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.add_init_script(FIRST_PICTURE)
    page.goto(url)
    page.wait_for_function("() => window.__firstPicture !== undefined", timeout=300_000)
    page.wait_for_function("() => !state.inflight", timeout=300_000)
    return page, page.evaluate("window.__firstPicture")


def first_pictures(browser, url, runs=3):
    times, drawn = [], []
    for _ in range(runs):
        page, elapsed = open_page(browser, url)
        times.append(elapsed)
        drawn.append(page.evaluate(LEAKS_DRAWN))
        page.close()
    return times, min(drawn)


def picks(browser, url, runs=3):
    times = []
    for _ in range(runs):
        page, _ = open_page(browser, url)
        head = page.locator("#leaks .leak-head").first
        head.wait_for(timeout=300_000)
        started = time.time()
        head.click()
        page.wait_for_selector("#tree g.node.selected", timeout=300_000)
        picked = page.get_attribute("#tree g.node.selected", "id")
        page.wait_for_function(ON_SCREEN, arg=picked, timeout=300_000)
        next_frame(page)
        times.append((time.time() - started) * 1000)
        page.close()
    return times


def searches(browser, url):
    page, _ = open_page(browser, url)
    times = []
    for query in ["Leaf17", "#5000", "Screen3", "Flow9Coordinator#", "Feature"]:
        started = page.evaluate("""(query) => {
            const field = document.getElementById('search');
            field.value = query;
            field.dispatchEvent(new Event('input'));
            return performance.now();
        }""", query)
        page.wait_for_function("(query) => state.search.query === query.toLowerCase() && state.search.model === state.model",
                               arg=query, timeout=60_000)
        shown = page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(performance.now())))")
        times.append(shown - started - QUIET_MS)
        page.evaluate("""() => { const field = document.getElementById('search'); field.value = '';
            field.dispatchEvent(new Event('input')); }""")
        page.wait_for_function("() => state.search.query === ''", timeout=60_000)
    page.close()
    return times


def show_alls(browser, url, runs=2):
    times, memory = [], 0
    for _ in range(runs):
        page, _ = open_page(browser, url)
        started = time.time()
        page.check("#show-all")
        page.wait_for_selector("#tree[data-picture=canvas]", state="attached", timeout=300_000)
        next_frame(page)
        next_frame(page)
        times.append((time.time() - started) * 1000)
        memory = max(memory, renderer_mb())
        page.close()
    return times, memory


def report(binary, path):
    output = path + ".html"
    started = time.time()
    process = subprocess.Popen([binary, "render", path, "-o", output], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.time() - started
    if status != 0:
        raise SystemExit(f"coordlens render -o report.html failed: {process.stderr.read().decode()}")
    size = os.path.getsize(output) / 1_000_000
    os.unlink(output)
    return seconds, usage.ru_maxrss / 1024, size


def verdict(met):
    return "met" if met else "missed"


def main():
    binary = sys.argv[1]
    path, _ = recording()
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"] if os.geteuid() == 0 else [])
            with serving(binary, path) as url:
                times, drawn = first_pictures(browser, url)
                figures = {"first picture": times, "pick a leak": picks(browser, url), "search": searches(browser, url)}
                show_all, memory = show_alls(browser, url)
                figures["show all"] = show_all
            browser.close()
        for name, values in figures.items():
            median = statistics.median(values)
            target = TARGETS[name]
            extra = ""
            met = median < target
            if name == "first picture":
                extra = f", {drawn} of {LEAKS} leaks drawn in red"
                met = met and drawn == LEAKS
            if name == "show all":
                extra = f", renderer {memory} MB (target < {SHOW_ALL_MB} MB)"
                met = met and memory < SHOW_ALL_MB
            print(f"issue 52's app (100,111 coordinators, {LEAKS} retained), {name}: median {median:.0f} ms "
                  f"(max {max(values):.0f} ms, {len(values)} runs){extra}  [target < {target} ms: {verdict(met)}]")
        seconds, peak, size = report(binary, path)
        met = seconds < REPORT["seconds"] and peak < REPORT["MB peak"] and size < REPORT["MB file"]
        print(f"issue 52's app, coordlens render -o report.html: {seconds:.1f} s, peak {peak:.0f} MB, file {size:.1f} MB  "
              f"[target < {REPORT['seconds']} s, < {REPORT['MB peak']} MB, < {REPORT['MB file']} MB: {verdict(met)}]")
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
