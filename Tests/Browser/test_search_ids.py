"""Search that knows ids: `#12` and `Type#12` find that coordinator exactly and first; typing waits for a pause
rather than searching on every key; the filters (Leaks only, Show released) thin the outline as they thin the
picture; the count says why a match is not drawn. Real `coordlens view`, the system Chromium."""
import os
import unittest

from playwright.sync_api import expect

from inspector_support import Browser, view, write_recording
from test_outline import SHARES, big_recording


def released_share():
    """ShareCoordinator #2 done and deinited (released), #3 in use, under the app."""
    lines = [{"event": "session", "v": 1, "app": "Shares", "run": "shares-1"},
             {"seq": 1, "t": 0.1, "event": "add", "id": 1, "type": "AppCoordinator"},
             {"seq": 2, "t": 0.2, "event": "add", "id": 2, "type": "ShareCoordinator", "parent": 1},
             {"seq": 3, "t": 0.3, "event": "add", "id": 3, "type": "ShareCoordinator", "parent": 1},
             {"seq": 4, "t": 0.4, "event": "remove", "id": 2, "parent": 1},
             {"seq": 5, "t": 0.5, "event": "deinit", "id": 2},
             {"seq": 6, "t": 20, "event": "end"}]
    return write_recording(lines)


class SearchIdsTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.file, cls.leak = big_recording()
        cls.viewer, cls.url = view(cls.file)
        cls.shares = released_share()
        cls.shares_viewer, cls.shares_url = view(cls.shares)
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.viewer.stop()
        cls.shares_viewer.stop()
        os.unlink(cls.file)
        os.unlink(cls.shares)

    def open(self, url, viewport=None):
        page = self.browser.page(url, viewport)
        self.addCleanup(page.close)
        page.wait_for_function("() => state.model && state.model.nodes.length > 2", timeout=60_000)
        page.wait_for_selector("#outline [role=treeitem]")
        return page

    def first_match(self, page):
        page.press("#search", "Enter")
        return page.locator("#details dd[data-field=id]")

    def test_an_id_is_found_exactly_and_first(self):
        page = self.open(self.url)
        page.fill("#search", "#3")
        expect(page.locator("#search-count")).to_contain_text("id exact")
        # #3 is also in #30, #300, #3000…: the coordinator with id 3 comes first.
        expect(page.locator("#search-count")).to_contain_text("1 of ")
        expect(self.first_match(page)).to_have_text("3")
        page.fill("#search", "ShareCoordinator#30")
        expect(page.locator("#search-count")).to_contain_text("id exact")
        expect(self.first_match(page)).to_have_text("30")
        page.fill("#search", "FeedItemCoordinator#30")
        expect(page.locator("#search-count")).not_to_contain_text("id exact")
        self.assertEqual(page.errors, [])

    def test_typing_searches_once_it_pauses(self):
        page = self.open(self.url)
        page.focus("#search")
        page.keyboard.type("Share", delay=30)
        self.assertEqual(page.locator("#search-count").inner_text(), "", "no search between keys")
        expect(page.locator("#search-count")).to_contain_text(f"1 of {SHARES:,}")
        timing = page.evaluate("""async () => {
          const search = document.getElementById('search');
          search.value = 'FeedItem';
          const start = performance.now();
          search.dispatchEvent(new Event('input'));
          while (!document.getElementById('search-count').textContent.includes('3,000')) await new Promise((r) => setTimeout(r, 5));
          return performance.now() - start;
        }""")
        self.assertLess(timing, 120 + 250, "answered soon after the pause")

    def test_leaks_only_thins_the_outline_too(self):
        page = self.open(self.url)
        page.check("#leaks-only")
        # The app, the tabs and the leaked chat: the path to the leak.
        expect(page.locator("#outline-count")).to_have_text("3 shown")
        expect(page.locator(f"#o-c{self.leak}")).to_be_visible()
        page.uncheck("#leaks-only")
        expect(page.locator("#outline-count")).to_have_text(str(SHARES + 3003))
        self.assertEqual(page.errors, [])

    def test_the_count_says_a_match_is_hidden_as_released_not_in_a_summary(self):
        page = self.open(self.shares_url)
        expect(page.locator("#outline-count")).to_have_text("2 shown")
        page.fill("#search", "Share")
        expect(page.locator("#search-count")).to_have_text("1 of 2 (1 released, hidden (Show released))")
        page.check("#show-released")
        expect(page.locator("#search-count")).to_have_text("1 of 2", timeout=20_000)
        expect(page.locator("#outline-count")).to_have_text("3 shown")
        self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
