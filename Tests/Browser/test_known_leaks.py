"""`coordlens view --baseline FILE --history DB` in Chromium: the leaks panel and the tree mark each leak new (bright)
or known (muted) with how often it was seen, and a fingerprint's count per stored run is drawn as an SVG chart."""
import os
import socket
import tempfile
import unittest

from playwright.sync_api import expect

from inspector_support import Browser, Process, coordlens, listen, write_recording


def shop(run, extra=(), settings=1):
    """App Shop: `settings` SettingsCoordinators left under Home (still-child), one detached coordinator per `extra`."""
    events = [
        {"event": "add", "id": 1, "type": "AppCoordinator", "file": "Shop/App.swift", "line": 1},
        {"event": "add", "id": 2, "type": "HomeCoordinator", "parent": 1, "file": "Shop/App.swift", "line": 5},
    ]
    for number in range(settings):
        events.append({"event": "add", "id": 3 + number, "type": "SettingsCoordinator", "parent": 2, "file": "Shop/Home.swift", "line": 20})
        events.append({"event": "dismiss", "id": 3 + number})
    for offset, name in enumerate(extra):
        events.append({"event": "add", "id": 50 + offset, "type": name, "parent": 1, "file": f"Shop/{name}.swift", "line": 30})
        events.append({"event": "remove", "id": 50 + offset, "parent": 1})
    lines = [{"event": "session", "v": 1, "app": "Shop", "run": run}]
    lines += [{"seq": seq, "t": seq * 0.01, **event} for seq, event in enumerate(events, start=1)]
    lines.append({"seq": len(events) + 1, "t": 10, "event": "end"})
    return write_recording(lines)


class KnownLeaksTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        cls.history = os.path.join(cls.folder, "history.sqlite")
        cls.baseline = os.path.join(cls.folder, "baseline.json")
        first, second = shop("r1", settings=2), shop("r2")
        cls.files = [first, second]
        for number, recording in enumerate(cls.files):
            status, _ = coordlens("history", "add", recording, "--history", cls.history, "--commit", f"c{number + 1}")
            assert status == 0
        status, _ = coordlens("baseline", first, "-o", cls.baseline)
        assert status == 0
        cls.latest = shop("r3", extra=["PaymentCoordinator"])
        cls.files.append(cls.latest)
        cls.viewer = Process("view", "--http-port", "0", cls.latest, "--baseline", cls.baseline, "--history", cls.history)
        cls.url = cls.viewer.wait_for(r"Inspector: (http://\S+)").group(1)
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.viewer.stop()
        for recording in cls.files:
            os.unlink(recording)

    def test_new_leaks_are_bright_and_known_ones_muted_with_how_often_seen(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#leaks li.leak .standing")
        new = page.locator("#leaks li.standing-new")
        expect(new).to_have_count(1)
        expect(new).to_have_attribute("data-fingerprint", "AppCoordinator/PaymentCoordinator (detached)")
        expect(new.locator(".standing")).to_contain_text("NEW · new: not in the baseline; not in the 2 stored runs")
        known = page.locator("#leaks li.standing-known")
        expect(known).to_have_count(1)
        expect(known.locator(".standing")).to_contain_text("known · known: in the baseline; seen in 2 of the last 2 runs since")
        # The tree: the known leak's node muted, the new one marked.
        page.wait_for_selector("#tree g.leak-known")
        self.assertEqual(page.locator("#tree g.leak-known").count(), 1)
        self.assertEqual(page.locator("#tree g.leak-new").count(), 1)
        self.assertEqual(page.errors, [])

    def test_a_fingerprint_count_per_run_is_a_chart(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#leaks li.standing-known .chart-button")
        page.locator("#leaks li.standing-known .chart-button").click()
        chart = page.locator("#leak-chart svg")
        expect(chart).to_have_count(1)
        bars = page.locator("#leak-chart rect.bar")
        expect(bars).to_have_count(2)
        titles = [bars.nth(i).locator("title").text_content() for i in range(2)]
        self.assertTrue(titles[0].endswith(" at c1: 2") and titles[1].endswith(" at c2: 1"), titles)
        heights = [float(bars.nth(i).get_attribute("height")) for i in range(2)]
        self.assertAlmostEqual(heights[0], 2 * heights[1])
        # Labelled axes, and the chart inside its panel.
        labels = page.locator("#leak-chart text.axis").all_text_contents()
        self.assertIn("count", labels)
        self.assertIn("2", labels, "the count axis says the most")
        self.assertTrue(any(label.startswith("stored runs (2)") for label in labels), labels)
        panel, drawn = page.locator(".panels").bounding_box(), chart.bounding_box()
        self.assertLessEqual(drawn["x"] + drawn["width"], panel["x"] + panel["width"], "the chart fits its panel")
        self.assertEqual(page.locator("#leaks li.standing-new .chart-button").count(), 0, "a fingerprint never stored has no chart")
        self.assertEqual(page.errors, [])


class ListenKnownLeaksTests(unittest.TestCase):
    """`coordlens listen --baseline FILE` marks a live session's leaks as `view --baseline` does."""

    def test_a_live_session_is_marked_against_the_baseline(self):
        folder = tempfile.mkdtemp()
        baseline = os.path.join(folder, "baseline.json")
        accepted = shop("r1")
        self.addCleanup(os.unlink, accepted)
        status, _ = coordlens("baseline", accepted, "-o", baseline)
        self.assertEqual(status, 0)
        process, hook, url = listen("--baseline", baseline)
        self.addCleanup(process.stop)
        latest = shop("r2", extra=["PaymentCoordinator"])
        self.addCleanup(os.unlink, latest)
        with socket.create_connection(("127.0.0.1", hook)) as connection, open(latest, "rb") as recording:
            connection.sendall(recording.read())
        with Browser() as browser:
            page = browser.page(url)
            page.wait_for_selector("#leaks li.leak .standing")
            expect(page.locator("#leaks li.standing-new")).to_have_attribute("data-fingerprint", "AppCoordinator/PaymentCoordinator (detached)")
            expect(page.locator("#leaks li.standing-new .standing")).to_contain_text("NEW · new: not in the baseline")
            expect(page.locator("#leaks li.standing-known .standing")).to_contain_text("known · known: in the baseline")
            self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()


class KnownOnlyTests(unittest.TestCase):
    """A run whose every leak the baseline knows shows no red badge in the sessions list."""

    def test_a_run_with_only_known_leaks_has_no_red_badge(self):
        tabs = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "browser-tabs")
        viewer = Process("view", "--http-port", "0", os.path.join(tabs, "stream.ndjson"), "--baseline", os.path.join(tabs, "baseline.json"))
        try:
            url = viewer.wait_for(r"Inspector: (http://\S+)").group(1)
            with Browser() as browser:
                page = browser.page(url)
                page.wait_for_selector("#leaks li.standing-known")
                self.assertEqual(page.locator("#leaks li.standing-new, #leaks li.standing-grown").count(), 0)
                expect(page.locator("#sessions .badge.known-leaks")).to_contain_text("retained (known)")
                self.assertEqual(page.locator("#sessions .badge.retained").count(), 0)
                self.assertEqual(page.errors, [])
        finally:
            viewer.stop()
