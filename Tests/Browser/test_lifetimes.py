"""The lifetimes view in Chromium, in `coordlens view` and in `render -o report.html`: a row per coordinator under
its type path, a bar from add to deinit with the part after done in the verdict's colour, marks as lines; a bar's
click selects the coordinator; at 5,000 coordinators only the rows in view are in the document."""
import os
import tempfile
import unittest

from playwright.sync_api import expect

from inspector_support import Browser, coordlens, view, write_recording


def recording(size=6):
    """App Shop: a retained SettingsCoordinator (dismissed at 1 s, never freed), a freed one, a mark, `size` in all."""
    events = [
        {"event": "add", "id": 1, "type": "AppCoordinator"},
        {"event": "add", "id": 2, "type": "SettingsCoordinator", "parent": 1},
        {"event": "add", "id": 3, "type": "ProfileCoordinator", "parent": 1},
        {"event": "mark", "label": "settings closed"},
        {"event": "dismiss", "id": 2},
        {"event": "remove", "id": 3, "parent": 1},
        {"event": "deinit", "id": 3},
    ]
    for number in range(4, size + 1):
        events.append({"event": "add", "id": number, "type": "ItemCoordinator", "parent": 1})
    lines = [{"event": "session", "v": 1, "app": "Shop", "run": "lifetimes"}]
    lines += [{"seq": seq, "t": seq * 0.5, **event} for seq, event in enumerate(events, start=1)]
    lines.append({"seq": len(events) + 1, "t": len(events) * 0.5 + 10, "event": "end"})
    return write_recording(lines)


class LifetimesTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)

    def check_view(self, page):
        page.locator("#show-lifetimes").click()
        page.wait_for_selector("#lifetimes g.life")
        groups = page.locator("#lifetimes text.group").all_text_contents()
        self.assertIn("AppCoordinator/SettingsCoordinator ×1 (1 retained)", groups)
        retained = page.locator("#lifetimes g.life.verdict-retained")
        expect(retained).to_have_count(1)
        expect(retained.locator("rect.after-done")).to_have_count(1)
        expect(page.locator("#lifetimes g.life.verdict-released rect.after-done")).to_have_count(1)
        expect(page.locator("#lifetimes line.mark")).to_have_count(1)
        # The bar starts at add: SettingsCoordinator is added before its dismissal, so its done part starts later.
        alive, done = (float(retained.locator(f"rect.{kind}").get_attribute("x")) for kind in ("alive", "after-done"))
        self.assertLess(alive, done)
        retained.locator("text.name").click()
        expect(page.locator("#details")).to_contain_text("SettingsCoordinator")
        page.locator("#show-lifetimes").click()
        expect(page.locator("#viewport")).to_be_visible()

    def test_the_view_in_the_page(self):
        file = recording()
        viewer, url = view(file)
        try:
            page = self.browser.page(url)
            page.wait_for_selector("#tree g.node")
            self.check_view(page)
            self.assertEqual(page.errors, [])
        finally:
            viewer.stop()
            os.unlink(file)

    def test_the_view_in_the_one_file_report(self):
        file = recording()
        report = tempfile.mktemp(suffix=".html")
        status, _ = coordlens("render", file, "-o", report)
        self.assertEqual(status, 0)
        page = self.browser.page("file://" + report)
        page.wait_for_selector("#tree g.node")
        self.check_view(page)
        self.assertEqual(page.errors, [])
        os.unlink(report)
        os.unlink(file)

    def test_five_thousand_coordinators_keep_only_the_rows_in_view(self):
        file = recording(5000)
        viewer, url = view(file)
        try:
            page = self.browser.page(url)
            page.wait_for_function("() => state.model && state.model.nodes.length === 5000", timeout=60000)
            page.locator("#show-lifetimes").click()
            page.wait_for_selector("#lifetimes g.life")
            drawn = page.locator("#lifetimes g.life").count()
            self.assertGreater(drawn, 10)
            self.assertLess(drawn, 200, "rows out of view are not in the document")
            height = float(page.locator("#lifetimes svg").get_attribute("height"))
            self.assertEqual(height, (5000 + 4) * 18, "a row per coordinator and per type path")
            page.locator("#lifetimes .lifetimes-body").evaluate("body => body.scrollTop = body.scrollHeight")
            page.wait_for_function("() => [...document.querySelectorAll('#lifetimes g.life')].some(g => g.dataset.id === '5000')")
            self.assertEqual(page.errors, [])
        finally:
            viewer.stop()
            os.unlink(file)


if __name__ == "__main__":
    unittest.main()
