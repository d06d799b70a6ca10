"""Show all at 100,000 coordinators: the page paints the server's layout (/api/layout) on a canvas rather than an SVG
of millions of DOM nodes; it shows within a generous bound, a click on a box selects that coordinator (details and
outline follow) and zooms until its title reads; small trees keep their SVG. Real `coordlens view`, the system
Chromium."""
import os
import time
import unittest

from inspector_support import Browser, view, write_recording

SIZE = 100_000
# Generous: the target is 3 s on a release build; this runs on a debug build on shared cores.
SHOW_ALL_SECONDS = 60


def hundred_thousand():
    """A 4-ary tree of 100,000 coordinators, every 997th dismissed and kept (a leak), as the bench's daily recording."""
    lines = [{"event": "session", "v": 1, "app": "Bench", "run": "canvas"}]
    seq = 0
    types = ["FeedCoordinator", "ProfileCoordinator", "SettingsCoordinator", "ShareCoordinator"]
    for number in range(1, SIZE + 1):
        seq += 1
        add = {"seq": seq, "t": seq * 0.001, "event": "add", "id": number, "type": types[number % 4] if number > 1 else "AppCoordinator"}
        if number > 1:
            add["parent"] = (number - 2) // 4 + 1
        lines.append(add)
        if number % 997 == 0:
            seq += 1
            lines.append({"seq": seq, "t": seq * 0.001, "event": "dismiss", "id": number})
    lines.append({"seq": seq + 1, "t": seq * 0.001 + 10, "event": "end"})
    return write_recording(lines)


class CanvasTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.file = hundred_thousand()
        cls.process, cls.url = view(cls.file)
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.process.stop()
        os.unlink(cls.file)

    def test_show_all_paints_a_canvas_and_a_click_picks(self):
        page = self.browser.page(self.url)
        self.addCleanup(page.close)
        page.wait_for_selector("#tree svg g.node", timeout=120_000)
        page.wait_for_selector("#outline [role=treeitem]", timeout=120_000)
        started = time.time()
        page.check("#show-all")
        page.wait_for_selector("#tree[data-picture=canvas]", state="attached", timeout=SHOW_ALL_SECONDS * 1000)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        elapsed = time.time() - started
        self.assertLess(elapsed, SHOW_ALL_SECONDS, "Show all at 100,000 painted in time")
        self.assertEqual(page.locator("#tree svg").count(), 0, "no SVG picture beside the canvas")
        canvas = page.locator("#tree-canvas")
        self.assertEqual(canvas.get_attribute("role"), "img")
        self.assertIn("100,000 coordinators", canvas.get_attribute("aria-label"))
        self.assertIn("100,000 of 100,000 coordinators drawn", page.inner_text("#caption"))

        # Pick the root through the outline first, which zooms the canvas to it, then click another coordinator's box.
        page.locator("#outline [role=treeitem]").first.click()
        page.wait_for_function("() => state.node === 1")
        target = page.evaluate("""() => {
            const v = document.getElementById('viewport').getBoundingClientRect();
            const { x, y, k } = state.view;
            // The root's box is in the middle of the view now; its children hang one row below it.
            return { x: v.left + v.width / 2, y: v.top + v.height / 2, k };
        }""")
        self.assertGreaterEqual(target["k"] * 11, 11 - 0.01, "the pick zoomed until the title reads")
        page.mouse.click(target["x"], target["y"])
        page.wait_for_function("() => state.node === 1")
        self.assertIn("AppCoordinator", page.inner_text("#details"))
        # Now one of the root's children, found where the layout puts it: the click selects it as the SVG would.
        child = page.evaluate("""() => {
            const v = document.getElementById('viewport').getBoundingClientRect();
            const root = window.lensCanvasBox('c1'), child = window.lensCanvasBox('c2');
            const { x, y, k } = state.view;
            return { x: v.left + x + child.x * k, y: v.top + y + child.y * k, inside: child != null && root != null };
        }""")
        self.assertTrue(child["inside"])
        page.mouse.click(child["x"], child["y"])
        page.wait_for_function("() => state.node === 2", timeout=10_000)
        self.assertIn("#2", page.inner_text("#details"))
        self.assertEqual(page.locator("#outline [role=treeitem][aria-selected=true]").count(), 1, "the outline follows")
        # A search counts the canvas's boxes as drawn: none of its matches is said to be in a summary.
        page.fill("#search", "Share")
        page.wait_for_function("() => /of/.test(document.getElementById('search-count').textContent)", timeout=30_000)
        self.assertNotIn("summar", page.inner_text("#search-count"))
        self.assertEqual(page.errors, [])

        # Show all off again: the SVG picture comes back, the canvas goes.
        page.uncheck("#show-all")
        page.wait_for_selector("#tree[data-picture=svg] svg", timeout=120_000)
        self.assertEqual(page.locator("#tree-canvas").count(), 0)


if __name__ == "__main__":
    unittest.main()
