"""axe-core (PyPI's axe-playwright-python) over every page CoordinatorLens serves or writes, in light and dark mode:
no serious or critical violation on the inspector (a big recording, a leak picked; Show all on a canvas; known and
new leaks against a baseline; Compare open), `render -o report.html` and `diff -o diff.html`."""
import os
import tempfile
import unittest

from axe_playwright_python.sync_playwright import Axe

from inspector_support import Browser, coordlens, view
from test_outline import big_recording

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples")
SCHEMES = ("light", "dark")


class AccessibilityTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.axe = Axe()
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)

    def page(self, url, scheme):
        page = self.browser.browser.new_page(viewport={"width": 1440, "height": 900}, color_scheme=scheme)
        self.addCleanup(page.close)
        page.goto(url)
        return page

    def assertNoSeriousViolations(self, page, where):
        results = self.axe.run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        report = "\n".join(f"{v['id']} ({v['impact']}): " + "; ".join(
            f"{n['target']} {n['failureSummary'].splitlines()[-1].strip()}" for n in v["nodes"][:5]) for v in serious)
        self.assertEqual(serious, [], f"{where}:\n{report}")

    def test_the_inspector_with_a_big_tree_and_a_leak_picked(self):
        file, _ = big_recording()
        self.addCleanup(os.unlink, file)
        viewer, url = view(file)
        self.addCleanup(viewer.stop)
        for scheme in SCHEMES:
            page = self.page(url, scheme)
            page.wait_for_selector("#outline [role=treeitem]", timeout=60_000)
            page.locator("#leaks .leak-head").first.click()
            page.wait_for_selector("#tree g.node.selected")
            page.fill("#search", "Share")
            page.wait_for_selector("#outline .row")
            self.assertNoSeriousViolations(page, f"inspector, {scheme}")

    def test_the_inspector_with_show_all_on_a_canvas(self):
        # 4,203 coordinators drawn whole: above the page's 3,000, so a canvas, named, with the outline beside it.
        file, _ = big_recording()
        self.addCleanup(os.unlink, file)
        viewer, url = view(file)
        self.addCleanup(viewer.stop)
        for scheme in SCHEMES:
            page = self.page(url, scheme)
            page.wait_for_selector("#outline [role=treeitem]", timeout=60_000)
            page.check("#show-all")
            page.wait_for_selector("#tree[data-picture=canvas]", state="attached", timeout=60_000)
            page.locator("#leaks .leak-head").first.click()
            self.assertNoSeriousViolations(page, f"inspector, Show all on a canvas, {scheme}")

    def test_the_inspector_marking_known_and_new_leaks(self):
        tabs = os.path.join(SAMPLES, "browser-tabs")
        viewer, url = view(os.path.join(tabs, "stream.ndjson"), "--baseline", os.path.join(tabs, "baseline.json"))
        self.addCleanup(viewer.stop)
        for scheme in SCHEMES:
            page = self.page(url, scheme)
            page.wait_for_selector("#leaks li.leak .standing", timeout=60_000)
            self.assertNoSeriousViolations(page, f"inspector with a baseline, {scheme}")

    def test_the_inspector_with_compare_open(self):
        checkout = os.path.join(SAMPLES, "checkout-fix")
        viewer, url = view(os.path.join(checkout, "before.ndjson"), os.path.join(checkout, "after.ndjson"))
        self.addCleanup(viewer.stop)
        for scheme in SCHEMES:
            page = self.page(url, scheme)
            page.wait_for_selector("#sessions li.session >> nth=1", timeout=60_000)
            page.wait_for_selector("#tree svg g.node")
            page.click("#show-compare")
            page.wait_for_selector("#compare-canvas svg", timeout=60_000)
            self.assertNoSeriousViolations(page, f"inspector with Compare open, {scheme}")

    def test_the_one_file_report(self):
        report = tempfile.mktemp(suffix=".html")
        status, _ = coordlens("render", os.path.join(SAMPLES, "deliveroo-traditional", "stream.ndjson"), "-o", report)
        self.assertEqual(status, 0)
        self.addCleanup(os.unlink, report)
        for scheme in SCHEMES:
            page = self.page("file://" + os.path.abspath(report), scheme)
            page.wait_for_selector("#tree g.node.verdict-retained")
            page.locator("#leaks .leak-head").first.click()
            self.assertNoSeriousViolations(page, f"report.html, {scheme}")

    def test_the_diff_report(self):
        report = tempfile.mktemp(suffix=".html")
        checkout = os.path.join(SAMPLES, "checkout-fix")
        coordlens("diff", os.path.join(checkout, "after.ndjson"), os.path.join(checkout, "before.ndjson"), "-o", report)
        self.assertTrue(os.path.exists(report))
        self.addCleanup(os.unlink, report)
        for scheme in SCHEMES:
            page = self.page("file://" + os.path.abspath(report), scheme)
            page.wait_for_selector("#diff-picture svg")
            self.assertNoSeriousViolations(page, f"diff.html, {scheme}")


if __name__ == "__main__":
    unittest.main()
