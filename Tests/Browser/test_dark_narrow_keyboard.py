"""The page in dark mode, on a phone and from the keyboard: the picture and the legend's swatches follow the dark
theme, the legend explains the dotted "attached" edge, a 390 px window has no sideways scroll and a tapped row brings
its coordinator into sight, a skip link leads to the leaks, and the small texts read right. Real `coordlens view`, the
system Chromium."""
import os
import unittest

from playwright.sync_api import expect

from inspector_support import Browser, view

SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "deliveroo-traditional", "stream.ndjson")
PHONE = {"width": 390, "height": 844}

LUMINANCE = """(colour) => {
  const [r, g, b] = colour.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((c) => c / 255).map((c) => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


class DarkNarrowKeyboardTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.viewer, cls.url = view(SAMPLE)
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.viewer.stop()

    def open(self, viewport=None, scheme="light"):
        page = self.browser.browser.new_page(viewport=viewport or {"width": 1440, "height": 900}, color_scheme=scheme)
        self.addCleanup(page.close)
        page.errors = []
        page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
        page.goto(self.url)
        page.wait_for_selector("#tree svg g.node", timeout=30_000)
        page.wait_for_selector("#outline [role=treeitem]")
        return page

    def luminance(self, page, selector, prop):
        colour = page.evaluate("([s, p]) => getComputedStyle(document.querySelector(s))[p]", [selector, prop])
        return page.evaluate(LUMINANCE, colour)

    def test_dark_mode_darkens_the_picture_and_the_swatches(self):
        for scheme, dark in (("light", False), ("dark", True)):
            with self.subTest(scheme=scheme):
                page = self.open(scheme=scheme)
                background = self.luminance(page, "#tree svg g.graph > polygon", "fill")
                alive = self.luminance(page, "#tree g.node.verdict-alive path", "fill")
                alive_text = self.luminance(page, "#tree g.node.verdict-alive text", "fill")
                swatch = self.luminance(page, "#legend .swatch.alive", "backgroundColor")
                retained = self.luminance(page, "#tree g.node.verdict-retained path", "fill")
                if dark:
                    self.assertLess(background, 0.05, "the picture's ground is dark")
                    self.assertLess(alive, 0.05, "an alive box is dark")
                    self.assertGreater(alive_text, 0.5, "with light text")
                    self.assertLess(swatch, 0.05, "and so is its swatch")
                else:
                    self.assertGreater(background, 0.9)
                    self.assertGreater(alive, 0.9)
                    self.assertGreater(swatch, 0.9)
                self.assertAlmostEqual(retained, self.luminance(page, "#legend .swatch.retained", "backgroundColor"), delta=0.01,
                                       msg="a leak's red is the same in the picture and the legend")
                self.assertEqual(page.errors, [])

    def test_the_legend_explains_the_dotted_attached_edge(self):
        page = self.open()
        key = page.locator("#legend li.attached")
        expect(key).to_contain_text("dotted: attached, not held")
        self.assertIn("parent does not hold it", key.get_attribute("title"))
        self.assertEqual(page.evaluate("() => getComputedStyle(document.querySelector('#legend .swatch.attached')).borderTopStyle"), "dotted")

    def test_a_phone_wide_window_has_no_sideways_scroll_and_a_tapped_row_shows_its_coordinator(self):
        for scheme in ("light", "dark"):
            with self.subTest(scheme=scheme):
                page = self.open(PHONE, scheme)
                self.assertLessEqual(page.evaluate("() => document.documentElement.scrollWidth"), PHONE["width"])
                page.locator("#leaks .leak-head").first.click()
                page.wait_for_selector("#details table.events td")
                self.assertLessEqual(page.evaluate("() => document.documentElement.scrollWidth"), PHONE["width"],
                                     "nor with a leak's details open")
                page.evaluate("() => document.getElementById('outline').scrollIntoView({ block: 'start' })")
                row = page.locator("#outline .row", has_text="PaymentCoordinator")
                self.assertLess(page.locator("#viewport").bounding_box()["y"] + 100, 0, "the picture is scrolled away")
                row.click()
                page.wait_for_selector("#tree g.node.selected")
                view = page.locator("#viewport").bounding_box()
                node = page.locator("#tree g.node.selected").bounding_box()
                self.assertGreaterEqual(view["y"], -1, "the picture is back in sight")
                self.assertLessEqual(view["y"] + view["height"], PHONE["height"] + 1)
                self.assertTrue(view["x"] <= node["x"] + node["width"] / 2 <= view["x"] + view["width"]
                                and view["y"] <= node["y"] + node["height"] / 2 <= view["y"] + view["height"],
                                "and the coordinator tapped is in it")
                self.assertEqual(page.errors, [])

    def test_a_skip_link_leads_to_the_leaks(self):
        page = self.open()
        page.keyboard.press("Tab")
        skip = page.locator("#skip-to-leaks")
        expect(skip).to_be_focused()
        self.assertGreaterEqual(skip.bounding_box()["y"], 0, "shown when it has the focus")
        page.keyboard.press("Enter")
        expect(page.locator("#leaks-title")).to_be_focused()
        page.keyboard.press("Tab")
        expect(page.locator("#leaks .leak-head").first).to_be_focused()
        self.assertNotIn("#", page.url.split("?")[0], "no fragment: the address holds the view")

    def test_the_keyboard_zooms_and_pans_the_picture(self):
        page = self.open()
        # The picture's one tab stop, a coordinator, has the focus.
        page.locator("#tree g.node[tabindex='0']").focus()
        before = page.evaluate("({ ...state.view })")
        page.keyboard.press("+")
        zoomed = page.evaluate("({ ...state.view })")
        self.assertAlmostEqual(zoomed["k"], before["k"] * 1.25, places=6)
        page.keyboard.press("-")
        unzoomed = page.evaluate("({ ...state.view })")
        self.assertAlmostEqual(unzoomed["k"], before["k"], places=6, msg="- undoes +")
        seq = page.evaluate("state.seq")
        node = page.evaluate("document.activeElement.id")
        page.keyboard.press("Shift+ArrowLeft")
        page.keyboard.press("Shift+ArrowUp")
        moved = page.evaluate("({ ...state.view })")
        self.assertAlmostEqual(moved["x"], unzoomed["x"] + 60, places=6)
        self.assertAlmostEqual(moved["y"], unzoomed["y"] + 60, places=6)
        self.assertEqual(page.evaluate("state.seq"), seq, "Shift and the arrows pan the picture; the time slider stays")
        self.assertEqual(page.evaluate("document.activeElement.id"), node, "and do not walk the tree")
        page.keyboard.press("Shift+ArrowRight")
        page.keyboard.press("Shift+ArrowDown")
        back = page.evaluate("({ ...state.view })")
        self.assertAlmostEqual(back["x"], moved["x"] - 60, places=6)
        self.assertAlmostEqual(back["y"], moved["y"] - 60, places=6)
        self.assertTrue(page.evaluate("state.moved"), "a picture moved by hand is not refitted")
        self.assertEqual(page.errors, [])

    def test_small_texts_read_right(self):
        page = self.open()
        placeholder = page.evaluate("""() => { const field = document.getElementById('search');
          const probe = field.cloneNode(); probe.value = field.placeholder; field.after(probe);
          const fits = probe.scrollWidth <= probe.clientWidth; probe.remove(); return fits; }""")
        self.assertTrue(placeholder, "the search field's placeholder is whole")
        # The box says its verdict alone; its reason is its accessible description, from the model.
        retained = page.locator("#tree g.node.verdict-retained").first
        self.assertTrue(retained.get_attribute("aria-label").endswith("retained"))
        page.wait_for_function("() => document.querySelector('#tree g.node.verdict-retained[aria-description]')")
        self.assertIn("still", retained.get_attribute("aria-description"))
        # The app's name wraps between its words, never inside one.
        self.assertGreater(page.locator("#sessions .app wbr").count(), 0)
        page.locator("#leaks .leak-head").first.click()
        self.assertNotIn("at —", page.locator("#details dd[data-field=added]").inner_text())

    def test_a_coordinator_kept_for_reuse_says_so_once(self):
        viewer, url = view(os.path.join(os.path.dirname(SAMPLE), "..", "browser-tabs", "stream.ndjson"))
        self.addCleanup(viewer.stop)
        page = self.browser.page(url)
        self.addCleanup(page.close)
        page.wait_for_selector("#outline [role=treeitem]", timeout=30_000)
        page.fill("#search", "LibraryCoordinator#2")
        expect(page.locator("#search-count")).to_contain_text("id exact")
        page.press("#search", "Enter")
        expect(page.locator("#details dd[data-field=id]")).to_have_text("2")
        self.assertEqual(page.locator("#details dl").inner_text().count("kept for reuse"), 1)

    def test_a_window_turned_from_phone_to_desktop_fits_the_picture_again(self):
        page = self.open(PHONE)
        fitted = "() => { const t = document.querySelector('#tree svg').getBoundingClientRect(), v = document.getElementById('viewport').getBoundingClientRect(); return Math.max(t.width / v.width, t.height / v.height); }"
        page.set_viewport_size({"width": 1440, "height": 900})
        # The picture wrapped for the wider frame has arrived (the one wrapped for the phone is fitted first, then
        # replaced): moving the view before it lands would see the new picture anchored about the old one's nodes.
        page.wait_for_function("() => { const b = document.getElementById('viewport').getBoundingClientRect();"
                               " return b.width > 400 && state.shownAspect === 2 ** (Math.max(-8, Math.min(8,"
                               " Math.round(4 * Math.log2(b.width / b.height)))) / 4); }", timeout=10_000)
        # Fitted again: the picture fills the wider view as it would have had the page opened at that size.
        page.wait_for_function("() => (" + fitted + ")() > 0.85", timeout=10_000)
        # Once the user moves the view, a resize leaves it where they put it.
        page.evaluate("() => { state.moved = true; }")
        before = page.evaluate("() => ({ ...state.view })")
        page.set_viewport_size(PHONE)
        page.wait_for_function("() => document.getElementById('viewport').getBoundingClientRect().width < 400")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        self.assertEqual(page.evaluate("() => ({ ...state.view })"), before)
        self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
