"""State in the address: the session, the selection, the filters, the search and the zoom are in the page's URL, so a
reload, Back and a link opened elsewhere come back to the same view; Compare's default ("previous run of this app")
falls back to another run the inspector holds, or says there is none without a failed request. Real `coordlens
view`, the system Chromium."""
import os
import unittest
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect

from inspector_support import Browser, view, write_recording

SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "deliveroo-traditional", "stream.ndjson")


def other_app():
    lines = [{"event": "session", "v": 1, "app": "Other", "run": "other-1"},
             {"seq": 1, "t": 0.1, "event": "add", "id": 1, "type": "AppCoordinator"},
             {"seq": 2, "t": 20, "event": "end"}]
    return write_recording(lines)


class AddressTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.viewer, cls.url = view(SAMPLE)
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.viewer.stop()

    def open(self, url, viewport=None):
        page = self.browser.page(url, viewport)
        self.addCleanup(page.close)
        page.wait_for_selector("#tree svg g.node", timeout=30_000)
        page.wait_for_selector("#outline [role=treeitem]")
        return page

    def query(self, page):
        return {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}

    def selected(self, page):
        return page.locator("#details dd[data-field=id]").inner_text()

    def test_reload_keeps_the_session_the_selection_the_filters_and_the_zoom(self):
        page = self.open(self.url)
        page.check("#show-released")
        page.locator("#leaks .leak-head").nth(1).click()
        expect(page.locator("#details dd[data-field=verdict]")).to_have_text("retained")
        chosen = self.selected(page)
        page.fill("#search", "Yellow")
        page.wait_for_function("() => new URLSearchParams(location.search).has('view') && new URLSearchParams(location.search).get('q') === 'Yellow'")
        address = self.query(page)
        self.assertEqual(address["node"], "c" + chosen)
        self.assertEqual(address["released"], "1")
        self.assertIn("run", address)
        view_before = page.evaluate("() => [state.view.x, state.view.y, state.view.k]")
        page.reload()
        page.wait_for_selector("#tree svg g.node.selected", timeout=30_000)
        expect(page.locator("#details dd[data-field=id]")).to_have_text(chosen)
        self.assertTrue(page.locator("#show-released").is_checked())
        self.assertEqual(page.locator("#search").input_value(), "Yellow")
        expect(page.locator(f"#o-c{chosen}")).to_have_attribute("aria-selected", "true")
        view_after = page.evaluate("() => [state.view.x, state.view.y, state.view.k]")
        for before, after in zip(view_before, view_after):
            self.assertAlmostEqual(before, after, delta=max(0.01, abs(before) * 0.01))
        # A link opened elsewhere (a new tab with the same address) shows the same.
        shared = self.open(page.url)
        expect(shared.locator("#details dd[data-field=id]")).to_have_text(chosen)
        self.assertEqual(page.errors + shared.errors, [])

    def test_back_returns_to_the_selection_before(self):
        page = self.open(self.url)
        page.locator("#leaks .leak-head").nth(0).click()
        expect(page.locator("#details dd[data-field=verdict]")).to_have_text("retained")
        first = self.selected(page)
        page.locator("#leaks .leak-head").nth(2).click()
        expect(page.locator("#details dd[data-field=id]")).not_to_have_text(first)
        second = self.selected(page)
        page.go_back()
        expect(page.locator("#details dd[data-field=id]")).to_have_text(first)
        self.assertEqual(self.query(page)["node"], "c" + first)
        page.go_forward()
        expect(page.locator("#details dd[data-field=id]")).to_have_text(second)
        self.assertEqual(page.errors, [])

    def test_compare_with_one_run_says_so_without_a_failed_request(self):
        page = self.open(self.url)
        asked = []
        page.on("request", lambda request: asked.append(request.url) if "/api/compare" in request.url else None)
        page.click("#show-compare")
        expect(page.locator("#compare-note")).to_contain_text("no earlier run")
        self.assertEqual(asked, [])
        self.assertEqual(page.errors, [])

    def test_compare_never_pairs_two_apps_by_default(self):
        other = other_app()
        self.addCleanup(os.unlink, other)
        viewer, url = view(other, SAMPLE)
        self.addCleanup(viewer.stop)
        page = self.browser.page(url)
        self.addCleanup(page.close)
        asked = []
        page.on("request", lambda request: asked.append(request.url) if "/api/compare" in request.url else None)
        page.wait_for_selector("#sessions li.session >> nth=1")
        page.locator("#sessions li.session", has_text="DeliverooTraditionalSample").click()
        page.wait_for_selector("#tree svg g.node")
        page.click("#show-compare")
        expect(page.locator("#compare-note")).to_contain_text("No earlier run of DeliverooTraditionalSample here to compare it with")
        self.assertEqual(asked, [], "no comparison with the other app's run is asked for")
        # Picked by hand, another app's run is compared.
        page.locator("#compare-a").select_option(label=page.locator("#compare-a option", has_text="other-1").inner_text())
        page.wait_for_selector("#compare-canvas svg")
        expect(page.locator("#compare-summary")).to_contain_text("other-1 →")
        self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
