"""The page's pure functions, called in Chromium from the very modules the page loads: element ids, search matching,
times, the tree pattern's keyboard walk. Fast and specific, beside the whole-page tests."""
import os
import unittest

from inspector_support import Browser, view, write_recording


def small_session():
    lines = [{"event": "session", "v": 1, "app": "Modules", "run": "modules-1"}]
    events = [
        {"event": "add", "id": 1, "type": "AppCoordinator"},
        {"event": "add", "id": 2, "type": "TabsCoordinator", "parent": 1},
        {"event": "add", "id": 3, "type": "ShareCoordinator", "parent": 2},
        {"event": "bind", "id": 3, "screen": "ShareSheetController"},
        {"event": "add", "id": 4, "type": "SettingsCoordinator", "parent": 1},
    ]
    for seq, event in enumerate(events, start=1):
        lines.append({"seq": seq, "t": seq * 0.1, **event})
    return write_recording(lines)


class PageModuleTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.file = small_session()
        cls.viewer, cls.url = view(cls.file)
        cls.browser = Browser().__enter__()
        cls.page = cls.browser.page(cls.url)
        cls.page.wait_for_selector("#outline [role=treeitem]")

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.viewer.stop()
        os.unlink(cls.file)

    def call(self, script):
        return self.page.evaluate(script)

    def test_element_ids_round_trip_and_never_carry_app_text(self):
        ids = self.call("""async () => {
          const { elementId, idOfElement, isNodeElement } = await import("/ids.js");
          return [5, -5, 0, "héllo", "5"].map((id) => [elementId(id), idOfElement(elementId(id)), isNodeElement(elementId(id))])
            .concat([[isNodeElement("g" + elementId(5))], [isNodeElement("c5x")], [isNodeElement("cs6")]]);
        }""")
        self.assertEqual(ids[:5], [["c5", 5, True], ["cn5", -5, True], ["c0", 0, True], ["cs68c3a96c6c6f", "héllo", True],
                                   ["cs35", "5", True]])
        self.assertEqual(ids[5:], [[False], [False], [False]])

    def test_search_matches_type_id_and_screen_ignoring_case(self):
        found = self.call("""async () => {
          const { matching } = await import("/search.js");
          const nodes = [{ id: 1, type: "AppCoordinator" }, { id: 12, type: "ShareCoordinator", screen: "ShareSheetController" },
                         { id: 120, type: "FeedCoordinator" }, { id: "chat", type: "ChatCoordinator" }];
          const found = ["share", "#12", "#120", "sharecoordinator#12", "feed#12", "sheet", "coordinator", "#chat", "nothing"]
            .map((query) => matching(nodes, query));
          // An id asked for comes first, wherever the model has it.
          found.push(matching([nodes[2], nodes[0], nodes[1]], "#12"));
          return found;
        }""")
        self.assertEqual([answer["matches"] for answer in found],
                         [[12], [12, 120], [120], [12], [], [12], [1, 12, 120, "chat"], ["chat"], [], [12, 120]])
        self.assertEqual([answer["exact"] for answer in found], [0, 1, 1, 1, 0, 0, 0, 1, 0, 1])

    def test_times_read_as_people_read_them(self):
        said = self.call("""async () => {
          const { seconds } = await import("/format.js");
          return [null, 0, 0.0042, 2.25, 12.5].map(seconds);
        }""")
        self.assertEqual(said, ["—", "0.00 s", "4.2 ms", "2.25 s", "12.5 s"])

    def test_change_notification_reaches_each_listener_of_its_topic_until_it_leaves(self):
        heard = self.call("""async () => {
          const { changed, onChange } = await import("/state.js");
          const heard = [];
          const leave = onChange("test-topic", () => heard.push("first"));
          onChange("test-topic", () => heard.push("second"));
          onChange("other-topic", () => heard.push("other"));
          changed("test-topic");
          leave();
          changed("test-topic");
          changed("nobody-listens");
          return heard;
        }""")
        self.assertEqual(heard, ["first", "second", "second"])

    def test_the_keyboard_walk_follows_the_tree_pattern(self):
        walked = self.call("""async () => {
          const { walk } = await import("/outline.js");
          return [walk("ArrowDown", 1), walk("ArrowUp", 1), walk("End", 1), walk("Home", 4), walk("ArrowRight", 1),
                  walk("ArrowLeft", 3), walk("ArrowRight", 3), walk("ArrowDown", 4)];
        }""")
        # Rows: App#1, Tabs#2, Share#3, Settings#4. Right on an open parent goes to its first child; Left on a leaf to
        # its parent; a leaf's Right and the last row's Down stay put.
        self.assertEqual(walked, [2, 1, 4, 1, 2, 2, 3, 4])
        self.assertEqual(self.page.errors, [])


if __name__ == "__main__":
    unittest.main()
