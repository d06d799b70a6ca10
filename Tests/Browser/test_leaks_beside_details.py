"""The page at a desk and beside Xcode (1440 and 800 px), light and dark, on the Deliveroo sample: outline rows keep
their names whole with the verdict in sight, opening a leak leaves the leaks list where it was with the details beside
it, the details give every call site Copy and Open and copy the leak trace as text, and nothing in them is clipped.
Real `coordlens view`, the system Chromium."""
import os
import unittest

from playwright.sync_api import expect

from inspector_support import Browser, view

SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "deliveroo-traditional", "stream.ndjson")
REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WIDTHS = ({"width": 1440, "height": 900}, {"width": 800, "height": 700})
SCHEMES = ("light", "dark")


class LeaksBesideDetailsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # The sample's hook sends paths relative to the checkout (TraceOptions.sourceRoot): Open needs the checkout.
        cls.viewer, cls.url = view(SAMPLE, "--source-root", REPOSITORY, "--editor-url", "vscode://file/{path}:{line}")
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.viewer.stop()

    def open(self, viewport, scheme="light"):
        page = self.browser.browser.new_page(viewport=viewport, color_scheme=scheme)
        self.addCleanup(page.close)
        page.errors = []
        page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
        page.goto(self.url)
        page.wait_for_selector("#outline [role=treeitem]", timeout=30_000)
        page.wait_for_selector("#tree svg")
        return page

    def test_outline_rows_keep_the_whole_name_and_the_verdict_in_sight(self):
        for viewport in WIDTHS + ({"width": 390, "height": 844},):
            for scheme in SCHEMES:
                with self.subTest(width=viewport["width"], scheme=scheme):
                    page = self.open(viewport, scheme)
                    rows = page.evaluate("""() => {
                      const box = document.getElementById('outline').getBoundingClientRect();
                      return [...document.querySelectorAll('#outline .row')].map((row) => {
                        const type = row.querySelector('.type'), badge = row.querySelector('.badge'), b = badge.getBoundingClientRect();
                        return { type: type.textContent, cut: type.scrollWidth > type.clientWidth + 1,
                                 badgeInSight: b.left >= box.left && b.right <= box.right && b.width >= 8,
                                 title: row.title };
                      }); }""")
                    self.assertGreater(len(rows), 5)
                    for row in rows:
                        self.assertFalse(row["cut"], f"{row['type']} is cut")
                        self.assertTrue(row["badgeInSight"], f"{row['title']}: the verdict is out of sight")
                        self.assertTrue(row["title"].startswith(row["type"] + "#"))
                    self.assertEqual(page.errors, [])

    def test_opening_a_leak_keeps_the_leaks_list_in_view_beside_the_details(self):
        for viewport in WIDTHS:
            with self.subTest(width=viewport["width"]):
                page = self.open(viewport)
                heads = page.locator("#leaks .leak-head")
                self.assertGreaterEqual(heads.count(), 3)
                before = page.locator("#leaks-panel").bounding_box()
                heads.last.scroll_into_view_if_needed()
                heads.last.click()
                expect(page.locator("#details dd[data-field=verdict]")).to_have_text("retained")
                page.wait_for_selector("#details table.events td")
                after = page.locator("#leaks-panel").bounding_box()
                self.assertEqual(round(after["y"]), round(before["y"]), "the leaks list did not move")
                clicked = heads.last.bounding_box()
                self.assertLessEqual(clicked["y"] + clicked["height"], viewport["height"], "the leak picked is still on screen")
                details = page.locator("#details-panel").bounding_box()
                self.assertLess(details["y"] + 40, viewport["height"], "and its details are on screen beside it")
                self.assertLessEqual(page.evaluate("() => document.documentElement.scrollHeight"), viewport["height"],
                                     "the page does not scroll: the panels do, each on its own")

    def test_the_details_copy_and_open_every_site_and_copy_the_leak_trace(self):
        page = self.open(WIDTHS[0])
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.locator("#leaks .leak-head").first.click()
        expect(page.locator("#details dd[data-field=verdict]")).to_have_text("retained")
        for field in ("added", "bound"):
            row = page.locator(f"#details dd[data-field={field}] .site-row")
            expect(row.locator("button.copy")).to_have_count(1)
            href = row.locator("a.open-editor").get_attribute("href")
            self.assertRegex(href, r"^vscode://file/.+\.swift:\d+$")
            self.assertTrue(href.startswith("vscode://file" + REPOSITORY + "/samples/"), href)
        trace = page.locator("#copy-leak-trace")
        expect(trace).to_have_text("Copy leak trace")
        trace.click()
        expect(trace).to_have_text("Copied")
        text = page.evaluate("() => navigator.clipboard.readText()")
        node_type = page.locator("#details dd[data-field=type]").inner_text()
        node_id = page.locator("#details dd[data-field=id]").inner_text()
        self.assertTrue(text.startswith(f"{node_type}#{node_id}"), text)
        self.assertIn("retained: ", text)
        self.assertIn("added at ", text)
        self.assertIn("Leak trace:", text)
        self.assertIn(f"╰→ {node_type}#{node_id} (leaking)", text)
        self.assertIn("← suspect", text)
        self.assertIn("Leaking: NO (alive)", text, "each object of the trace says whether it leaks, as LeakCanary's do")
        self.assertIn(f"node=c{node_id}", text, "the link to this view")
        self.assertEqual(page.errors, [])

    def test_the_events_table_clips_no_column(self):
        for viewport in WIDTHS + ({"width": 390, "height": 844},):
            with self.subTest(width=viewport["width"]):
                page = self.open(viewport)
                page.locator("#leaks .leak-head").first.click()
                page.wait_for_selector("#details table.events td code.site")
                clipped = page.evaluate("""() => {
                  const panel = document.getElementById('details-panel').getBoundingClientRect();
                  const table = document.querySelector('#details table.events').getBoundingClientRect();
                  const cells = [...document.querySelectorAll('#details table.events td, #details table.events th')]
                    .filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent);
                  return { cells, wider: table.right > panel.right + 0.5 };
                }""")
                self.assertEqual(clipped["cells"], [])
                self.assertFalse(clipped["wider"], "the events table fits its panel")


if __name__ == "__main__":
    unittest.main()
