"""Every pick zooms: a click or tap in the picture picks the coordinator and zooms as the outline, search and leaks
list do, until its title is at least 11 CSS px with the box in view; a retained box's smallest line stays readable
(at least 9 px) with the start of its text in view. 1440, 800 and 390 px. Real `coordlens view`, the system Chromium."""
import os
import unittest

from inspector_support import Browser, view
from test_outline import big_recording

SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "deliveroo-traditional", "stream.ndjson")
VIEWPORTS = ({"width": 1440, "height": 900}, {"width": 800, "height": 700}, {"width": 390, "height": 844})

# Each text's size on screen in CSS px, and the box and the picture's frame.
MEASURE = """(id) => {
  const svg = document.querySelector('#tree svg'), node = document.getElementById(id);
  const perUnit = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = [...node.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')) * perUnit);
  const r = node.getBoundingClientRect(), v = document.getElementById('viewport').getBoundingClientRect();
  return { title: Math.max(...sizes), smallest: Math.min(...sizes), box: [r.left, r.top, r.right, r.bottom],
           view: [v.left, v.top, v.right, v.bottom], selected: node.getAttribute('aria-selected') };
}"""


class PickZoomTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.file, _ = big_recording()
        cls.big, cls.big_url = view(cls.file)
        cls.sample, cls.sample_url = view(SAMPLE)
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.big.stop()
        cls.sample.stop()
        os.unlink(cls.file)

    def open(self, url, viewport):
        page = self.browser.page(url, viewport)
        self.addCleanup(page.close)
        page.wait_for_selector("#tree svg g.node", timeout=60_000)
        page.click("#fit")
        return page

    def assertInView(self, measured, what):
        left, top, right, bottom = measured["box"]
        vl, vt, vr, vb = measured["view"]
        self.assertTrue(left < vr and right > vl and top < vb and bottom > vt, f"{what} is in view: {measured}")
        self.assertGreaterEqual(left, vl - 1, f"{what}: the start of its text is in view")

    def test_a_click_in_the_picture_zooms_until_the_title_reads(self):
        for viewport in VIEWPORTS:
            with self.subTest(width=viewport["width"]):
                page = self.open(self.big_url, viewport)
                # Zoomed out about the box until its title is a few pixels high, as a big picture is at a glance.
                box = page.locator("#tree g.node#c2").bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                while page.evaluate(MEASURE, "c2")["title"] > 5:
                    zoom = page.evaluate("() => state.view.k")
                    page.mouse.wheel(0, 300)
                    page.wait_for_function("(k) => state.view.k !== k", arg=zoom)
                page.locator("#tree g.node#c2").click()
                page.wait_for_selector("#tree g.node#c2[aria-selected=true]")
                after = page.evaluate(MEASURE, "c2")
                self.assertGreaterEqual(after["title"], 11 - 0.01)
                self.assertInView(after, "the box clicked")
                self.assertEqual(page.errors, [])

    def test_a_retained_box_keeps_every_line_readable(self):
        for viewport in VIEWPORTS:
            with self.subTest(width=viewport["width"]):
                page = self.open(self.sample_url, viewport)
                page.locator("#tree g.node.verdict-retained").first.click()
                selected = page.locator("#tree g.node.selected")
                selected.wait_for()
                after = page.evaluate(MEASURE, selected.get_attribute("id"))
                self.assertGreaterEqual(after["title"], 11 - 0.01)
                self.assertGreaterEqual(after["smallest"], 9 - 0.01, "its smallest line reads")
                self.assertInView(after, "the retained box")
                self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
