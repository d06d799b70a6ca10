"""A live coordinator that turns retained when its grace runs out is judged anew with no new line: a model fetched
while it was still pending, answered after the feed said "retained", is followed by the retained one (the leak
stayed orange until the next event); and an answer from an older judgement than the one on screen is never drawn
over it, so the judgements the page drew only grow. The answers are held back or handed over again on purpose, so
each race happens every time. Real `coordlens listen`, the system Chromium."""
import json
import time
import unittest

from inspector_support import Browser, listen
from test_outline import send_lines

GRACE = 1.0


def session(run):
    """A run with a chat coordinator under the app's, still shown."""
    return [{"event": "session", "v": 1, "app": "Judged", "run": run},
            {"seq": 1, "t": 0, "event": "add", "id": 1, "type": "AppCoordinator"},
            {"seq": 2, "t": 0.1, "event": "add", "id": 2, "type": "ChatCoordinator", "parent": 1}]


class LiveJudgementTests(unittest.TestCase):
    def open_page(self, browser):
        """`coordlens listen` with the grace, stopped when the test ends, and its page; returns (page, hook port)."""
        listener, hook, url = listen("--grace", str(GRACE))
        self.addCleanup(listener.stop)
        page = browser.page(url)
        page.wait_for_selector("#feed-state[data-state=open]")
        return page, hook

    def test_a_model_answered_after_the_grace_ran_out_is_fetched_again(self):
        with Browser() as browser:
            page, hook = self.open_page(browser)
            connection = send_lines(hook, session("judged-1"))
            self.addCleanup(connection.close)
            page.wait_for_selector("#tree g.node#c2.verdict-alive")
            held = []

            def late_answer(route):
                # The first model after the dismissal is read at once (pending) and handed over after the grace ran out
                # and the feed said so.
                response = route.fetch()
                if not held:
                    held.append(route.request.url)
                    # clock: the late answer is the fault: held past the grace, so the feed's verdict comes first.
                    time.sleep(GRACE + 1.5)
                route.fulfill(response=response)

            page.route("**/api/model?*", late_answer)
            connection.sendall((json.dumps({"seq": 3, "t": 0.2, "event": "dismiss", "id": 2}) + "\n").encode())
            page.wait_for_selector("#tree g.node#c2.verdict-retained", timeout=20_000)
            page.wait_for_function("() => state.model.nodes.find((n) => n.id === 2).verdict === 'retained'", timeout=20_000)
            self.assertEqual(len(held), 1)
            self.assertEqual(page.errors, [])

    def test_an_answer_older_than_the_one_on_screen_is_never_drawn(self):
        # The fault: once the page drew "retained", its next requests are answered with the pending picture and model
        # kept from before (as a server handing out an older judgement would). The page keeps the newer one.
        with Browser() as browser:
            page, hook = self.open_page(browser)
            kept = {}
            mode = {"keep": True, "replay": False}
            replayed = []

            def answer(route):
                kind = "tree" if "/api/tree" in route.request.url else "model"
                if mode["replay"] and kind in kept:
                    replayed.append(kind)
                    return route.fulfill(**kept[kind])
                # Asked whole, never 304, so the answer can be handed over again.
                headers = {k: v for k, v in route.request.headers.items() if k.lower() != "if-none-match"}
                response = route.fetch(headers=headers)
                if mode["keep"]:
                    kept[kind] = {"status": response.status, "headers": response.headers, "body": response.body()}
                route.fulfill(response=response)

            page.route("**/api/tree?*", answer)
            page.route("**/api/model?*", answer)
            connection = send_lines(hook, session("older-1") + [{"seq": 3, "t": 0.2, "event": "dismiss", "id": 2}])
            self.addCleanup(connection.close)
            page.wait_for_selector("#tree g.node#c2.verdict-pending")
            page.wait_for_function("() => !state.inflight")
            mode["keep"] = False
            # No new line: the grace running out is a judgement of its own, which the feed announces.
            page.wait_for_selector("#tree g.node#c2.verdict-retained", timeout=20_000)
            page.wait_for_function("() => state.model.nodes.find((n) => n.id === 2).verdict === 'retained'", timeout=10_000)
            page.wait_for_function("() => state.shown.judgement === state.sessions.get('older-1').judgement", timeout=10_000)
            mode["replay"] = True
            # Waited for through Playwright, which runs the route handlers only while the test is inside one of its calls.
            with page.expect_response(lambda r: "/api/tree?" in r.url), page.expect_response(lambda r: "/api/model?" in r.url):
                connection.sendall((json.dumps({"seq": 4, "t": 0.3, "event": "mark", "label": "later"}) + "\n").encode())
            page.wait_for_function("() => state.sessions.get('older-1').lastSeq === 4 && !state.inflight", timeout=10_000)
            # Asked once or more (a later summary may make it ask again): every answer it got was the older one.
            self.assertEqual(set(replayed), {"model", "tree"}, "the older answers were not handed over")
            self.assertIn("verdict-retained", page.locator("#tree g.node#c2").get_attribute("class"),
                          "an older judgement's picture was drawn over the newer one")
            self.assertEqual(page.evaluate("state.model.nodes.find((n) => n.id === 2).verdict"), "retained")
            drawn = page.evaluate("state.shownJudgements.filter((s) => s.run === 'older-1').map((s) => s.judgement)")
            self.assertEqual(drawn, sorted(drawn), "the judgements the page drew went back")
            self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
