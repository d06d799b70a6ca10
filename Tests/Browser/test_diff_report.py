"""`coordlens diff A B -o diff.html` in Chromium: opened from disk, it loads nothing but itself, lists the fixed and
new leaks, and draws the very picture `coordlens diff --format svg` draws for the same pair."""
import os
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

from inspector_support import Browser, coordlens, write_recording

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "checkout-fix")
BEFORE = os.path.join(SAMPLES, "before.ndjson")
AFTER = os.path.join(SAMPLES, "after.ndjson")
SVG = "{http://www.w3.org/2000/svg}"


def element_ids(svg_text):
    return sorted(element.get("id") for element in ElementTree.fromstring(svg_text).iter() if element.get("id"))


# The smallest node title on screen in CSS px, and whether the page scrolls sideways.
MEASURE = """() => {
  const svg = document.querySelector('#diff-picture svg');
  const perUnit = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const titles = [...svg.querySelectorAll('g.node')].map((n) => Math.max(...[...n.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')))));
  return { title: Math.min(...titles) * perUnit, svgWidth: svg.getBoundingClientRect().width,
           frame: document.querySelector('.diff-svg').getBoundingClientRect().width,
           pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth };
}"""


class DiffReportTests(unittest.TestCase):
    def open(self, a, b, viewport=None, color_scheme="light"):
        report = tempfile.mktemp(suffix=".html")
        status, _ = coordlens("diff", a, b, "-o", report)
        self.addCleanup(os.unlink, report)
        browser = Browser()
        browser.__enter__()
        self.addCleanup(browser.__exit__, None, None, None)
        page = browser.browser.new_page(viewport=viewport or {"width": 1440, "height": 900}, color_scheme=color_scheme)
        requests = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto("file://" + os.path.abspath(report))
        self.assertEqual(requests, ["file://" + os.path.abspath(report)], "nothing but the file itself is loaded")
        return status, page

    def test_the_fixed_run_shows_the_leak_as_fixed_and_none_new(self):
        status, page = self.open(BEFORE, AFTER)
        self.assertEqual(status, 0)
        self.assertEqual(page.locator("section.fixed h2").inner_text(), "Fixed leaks (1)")
        self.assertIn("CheckoutCoordinator#5", page.locator("section.fixed li").first.inner_text())
        self.assertEqual(page.locator("section.new h2").inner_text(), "New leaks (0)")
        # The link leads to the node in the picture.
        target = page.locator("section.fixed li a").first.get_attribute("href")
        self.assertEqual(page.locator("#diff-picture svg " + target).count(), 1)

    def test_the_picture_reads_at_its_size_and_zooms_without_a_script(self):
        _, page = self.open(BEFORE, AFTER)
        self.assertGreaterEqual(page.evaluate(MEASURE)["title"], 11, "at 100 %, the default, titles read")
        page.click("#zoom-fit")
        fitted = page.evaluate(MEASURE)
        self.assertLessEqual(fitted["svgWidth"], fitted["frame"] + 0.5, "Fit: the whole picture in its frame")
        page.click("#zoom-2")
        self.assertGreater(page.evaluate(MEASURE)["title"], 2 * fitted["title"] - 0.01)

    def test_a_phone_stacks_the_lists_above_the_picture(self):
        _, page = self.open(BEFORE, AFTER, viewport={"width": 390, "height": 844})
        lists = page.locator("aside").bounding_box()
        picture = page.locator("#diff-picture").bounding_box()
        self.assertGreaterEqual(picture["y"], lists["y"] + lists["height"] - 1, "the picture below the lists")
        self.assertGreater(picture["width"], 300, "the picture gets the screen's width")
        measured = page.evaluate(MEASURE)
        self.assertFalse(measured["pageScrolls"], "the page itself never scrolls sideways; the picture's frame does")
        self.assertGreaterEqual(measured["title"], 9)

    def test_dark_mode_darkens_the_picture_too(self):
        _, page = self.open(BEFORE, AFTER, color_scheme="dark")
        background = page.evaluate("""() => getComputedStyle(document.querySelector(
          '#diff-picture svg g.graph > polygon[fill="white"]')).fill""")
        self.assertEqual(background, "rgb(13, 17, 23)", "the picture's white ground turns dark with the page")

    def test_the_other_way_round_shows_it_as_new(self):
        status, page = self.open(AFTER, BEFORE)
        self.assertEqual(status, 1, "B has a leak A does not: diff exits 1 as it does for every format")
        self.assertEqual(page.locator("section.new h2").inner_text(), "New leaks (1)")
        self.assertIn("CheckoutCoordinator", page.locator("section.new li").first.inner_text())
        self.assertEqual(page.locator("section.fixed h2").inner_text(), "Fixed leaks (0)")

    def test_paths_that_pile_up_have_their_own_section_as_the_terminal_and_compare_give_them(self):
        def run(name, panels):
            lines = [{"event": "session", "v": 1, "app": "Tabs", "run": name},
                     {"seq": 1, "t": 0.1, "event": "add", "id": 1, "type": "AppCoordinator"},
                     {"seq": 2, "t": 0.2, "event": "add", "id": 2, "type": "BrowserCoordinator", "parent": 1}]
            for i in range(panels):
                lines.append({"seq": 3 + i, "t": 0.3 + i * 0.1, "event": "add", "id": 3 + i, "type": "TabPanelCoordinator", "parent": 2})
            lines.append({"seq": 3 + panels, "t": 20, "event": "end"})
            return write_recording(lines)
        a, b = run("one", 1), run("four", 4)
        self.addCleanup(os.unlink, a)
        self.addCleanup(os.unlink, b)
        status, page = self.open(a, b)
        self.assertEqual(status, 1, "a pile-up fails diff, as in the terminal")
        self.assertEqual(page.locator("section.piled h2").inner_text(), "Piled up (1)")
        item = page.locator("section.piled li").first.inner_text()
        self.assertIn("TabPanelCoordinator: 1 → 4 in use", item)
        self.assertIn("under AppCoordinator/BrowserCoordinator", item)
        self.assertIn("1 piled up", page.locator("#diff-summary").inner_text())
        self.assertIn("0 new leaks", page.locator("#diff-summary").inner_text())

    def test_one_new_leak_is_said_in_the_singular(self):
        _, page = self.open(AFTER, BEFORE)
        self.assertIn("1 new leak,", page.locator("#diff-summary").inner_text())

    def test_the_picture_has_the_ids_of_diff_format_svg(self):
        _, page = self.open(BEFORE, AFTER)
        status, svg = coordlens("diff", BEFORE, AFTER, "--format", "svg")
        self.assertEqual(status, 0)
        expected = element_ids(svg)
        self.assertTrue(any(i.startswith("n") for i in expected))
        drawn = sorted(page.eval_on_selector_all("#diff-picture svg [id]", "elements => elements.map(e => e.id)"))
        self.assertEqual(drawn, expected)


if __name__ == "__main__":
    unittest.main()
