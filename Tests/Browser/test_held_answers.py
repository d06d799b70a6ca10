"""A page asking again for a view it holds names the answer it has (If-None-Match with the server's ETag); the server
says 304 Not Modified without the body, and the page keeps its picture and model rather than drawing them again.
The first answers are marked stale on their way (X-Lens-Stale, as the server marks the last answer built while a newer
one is built), so the page asks again every time. Real `coordlens listen`, the system Chromium."""
import json
import unittest

from inspector_support import Browser, listen
from test_outline import send_lines

COUNT_DRAWS = """
window.lensDraws = 0;
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((records) => {
    for (const record of records) {
      if ([...record.addedNodes].some((node) => node.nodeName === "svg")) window.lensDraws += 1;
    }
  }).observe(document.getElementById("tree"), { childList: true });
});
"""


class HeldAnswersTests(unittest.TestCase):
    def test_a_page_asking_again_for_what_it_holds_is_answered_304_and_draws_nothing_again(self):
        listener, hook, url = listen()
        self.addCleanup(listener.stop)
        connection = send_lines(hook, [{"event": "session", "v": 1, "app": "Held", "run": "held-1"},
                                       {"seq": 1, "t": 0, "event": "add", "id": 1, "type": "AppCoordinator"},
                                       {"seq": 2, "t": 0.1, "event": "add", "id": 2, "type": "ChatCoordinator", "parent": 1},
                                       {"seq": 3, "t": 0.2, "event": "end"}])
        self.addCleanup(connection.close)
        with Browser() as browser:
            page = browser.page(url)
            page.add_init_script(COUNT_DRAWS)
            answers = []
            page.on("response", lambda response: answers.append(
                (response.url.split("?")[0].split("/")[-1], response.status, response.request.headers.get("if-none-match"),
                 response.headers.get("etag"))))

            def stale_once(route):
                response = route.fetch()
                kind = route.request.url.split("?")[0]
                if kind in marked:
                    return route.fulfill(response=response)
                marked.add(kind)
                route.fulfill(response=response, headers={**response.headers, "x-lens-stale": "1"})

            marked = set()
            page.route("**/api/model?*", stale_once)
            page.route("**/api/tree?*", stale_once)
            # The session ended before the page asks: its answers then stand until it changes, so the answer asked for
            # again is the one the page holds (a model built before the end came would be built anew, not 304).
            page.wait_for_function("() => [...state.sessions.values()].some((s) => s.run === 'held-1' && s.state === 'ended')")
            # The page opened before the routes were in place may have fetched through them already: the reloaded page's
            # first answers are the ones marked (else they went through whole, and the page had no reason to ask again).
            page.wait_for_function("() => !state.inflight")
            marked.clear()
            # The second round: both asked again, each naming the answer it holds.
            with page.expect_response(lambda r: "/api/model?" in r.url and r.status == 304, timeout=20_000):
                page.reload()
            page.wait_for_selector("#tree g.node#c2")
            page.wait_for_function("() => !state.inflight")
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")

            views = [answer for answer in answers if answer[0] in ("model", "tree")]
            firsts = {kind: tag for kind, status, sent, tag in views if status == 200 and sent is None}
            agains = [(kind, status, sent) for kind, status, sent, _ in views if sent is not None]
            self.assertEqual(sorted(firsts), ["model", "tree"], answers)
            self.assertTrue(all(tag.startswith('W/"') for tag in firsts.values()), answers)
            self.assertIn(("model", 304, firsts["model"]), agains, answers)
            self.assertIn(("tree", 304, firsts["tree"]), agains, answers)
            self.assertEqual(page.evaluate("() => window.lensDraws"), 1, "the picture drawn once, not again for a 304")
            self.assertEqual(page.evaluate("() => state.model.nodes.length"), 2)
            self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
