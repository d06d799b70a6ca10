"""The live page follows the app it shows: a new run of that app (the app started again) is shown at once while the
page shows the present with nothing picked, and offered with a button when the user is looking at a coordinator; a
run of another app is neither. Real `coordlens listen`, the system Chromium."""
import unittest

from playwright.sync_api import expect

from inspector_support import Browser, listen
from test_outline import send_lines


def session(run, app="Shop"):
    return [{"event": "session", "v": 1, "app": app, "run": run},
            {"seq": 1, "t": 0, "event": "add", "id": 1, "type": "AppCoordinator"},
            {"seq": 2, "t": 0.1, "event": "add", "id": 2, "type": "CartCoordinator", "parent": 1}]


class NewRunTests(unittest.TestCase):
    def test_a_new_run_of_the_app_shown_is_followed_or_offered(self):
        listener, hook, url = listen()
        self.addCleanup(listener.stop)
        with Browser() as browser:
            page = browser.page(url)
            page.wait_for_selector("#feed-state[data-state=open]")
            selected = page.locator("#sessions li[aria-selected=true]")

            def run(name, app="Shop"):
                connection = send_lines(hook, session(name, app))
                self.addCleanup(connection.close)
                page.wait_for_selector(f"#sessions li[data-run='{name}']")

            run("shop-1")
            page.wait_for_selector("#tree[data-run='shop-1'] g.node#c2")
            run("shop-2")
            expect(selected).to_have_attribute("data-run", "shop-2")
            page.wait_for_selector("#tree[data-run='shop-2'] g.node#c2")
            expect(page.locator("#announce")).to_have_text("Showing the new run of Shop · shop-2")
            expect(page.locator("#new-run")).to_be_hidden()

            # Looking at a coordinator: the next run is offered, not forced.
            page.locator("#outline [role=treeitem]").first.click()
            page.wait_for_function("() => state.node != null")
            run("shop-3")
            expect(page.locator("#new-run")).to_be_visible()
            expect(page.locator("#new-run")).to_contain_text("New run: Shop · shop-3")
            expect(selected).to_have_attribute("data-run", "shop-2")
            page.locator("#new-run button").click()
            expect(selected).to_have_attribute("data-run", "shop-3")
            expect(page.locator("#new-run")).to_be_hidden()
            page.wait_for_selector("#tree[data-run='shop-3'] g.node#c2")

            # Another app's run is listed, not followed.
            run("mail-1", app="Mail")
            expect(selected).to_have_attribute("data-run", "shop-3")
            expect(page.locator("#new-run")).to_be_hidden()
            self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
