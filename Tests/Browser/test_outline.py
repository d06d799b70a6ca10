"""The page as a daily tool: the outline of every coordinator, search into summaries, readable zoom, re-fit while live,
leak rows that lead to code. Real coordlens processes, the system Chromium."""
import json
import os
import socket
import time
import unittest

from playwright.sync_api import expect

from inspector_support import Browser, ViewedRecording, listen, view, write_recording

SHARES = 1200
FEED_ITEMS = 3000


def big_recording():
    """A 4,203-coordinator app: two roots' worth of tabs, 1,200 share sheets and 3,000 feed items (drawn as
    summaries), one chat coordinator dismissed and never freed (the leak), its call site in the events."""
    lines = [{"event": "session", "v": 1, "app": "Big", "run": "big-1"}]
    seq = 0

    def event(**fields):
        nonlocal seq
        seq += 1
        lines.append({"seq": seq, "t": seq * 0.001, **fields})

    event(event="add", id=1, type="AppCoordinator")
    event(event="add", id=2, type="TabsCoordinator", parent=1)
    next_id = 3
    for _ in range(SHARES):
        event(event="add", id=next_id, type="ShareCoordinator", parent=2)
        next_id += 1
    for _ in range(FEED_ITEMS):
        event(event="add", id=next_id, type="FeedItemCoordinator", parent=2)
        event(event="bind", id=next_id, screen="FeedItemViewController")
        next_id += 1
    event(event="add", id=next_id, type="ChatCoordinator", parent=2,
          file="Chat/ChatCoordinator.swift", path="/src/App/Chat/ChatCoordinator.swift", line=42, function="start()")
    event(event="dismiss", id=next_id)
    lines.append({"seq": seq + 1, "t": seq * 0.001 + 10, "event": "end"})
    return write_recording(lines), next_id


class OutlineTests(ViewedRecording):
    view_arguments = ("--editor-url", "vscode://file/{path}:{line}")

    @classmethod
    def make_recording(cls):
        file, cls.leak = big_recording()
        return file

    def open(self, viewport=None):
        page = self.browser.page(self.url, viewport)
        page.wait_for_function("() => state.model && state.model.nodes.length > 4000", timeout=60_000)
        page.wait_for_selector("#outline [role=treeitem]")
        return page

    def active(self, page):
        return page.evaluate("() => [document.querySelector('#outline').getAttribute('aria-activedescendant'), state.node]")

    def test_the_outline_lists_every_coordinator_as_a_tree_walked_with_the_keys(self):
        page = self.open()
        outline = page.locator("#outline")
        self.assertEqual(outline.get_attribute("role"), "tree")
        self.assertEqual(outline.get_attribute("tabindex"), "0")
        expect(page.locator("#outline-count")).to_have_text(str(SHARES + FEED_ITEMS + 3))
        rows = page.locator("#outline [role=treeitem]")
        self.assertLess(rows.count(), 100, "only the rows in sight are in the document")
        self.assertEqual(rows.locator(":scope:not([tabindex])").count(), rows.count(), "the rows are no Tab stops of their own")
        root = page.locator("#o-c1")
        self.assertEqual(root.get_attribute("aria-level"), "1")
        self.assertEqual(root.get_attribute("aria-expanded"), "true")
        self.assertEqual(page.locator("#o-c3").get_attribute("aria-level"), "3")

        outline.focus()
        page.keyboard.press("Home")
        self.assertEqual(self.active(page), ["o-c1", 1])
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        self.assertEqual(self.active(page), ["o-c3", 3])
        expect(page.locator("#o-c3")).to_have_attribute("aria-selected", "true")
        expect(page.locator("#details dd[data-field=id]")).to_have_text("3")
        page.keyboard.press("ArrowLeft")
        self.assertEqual(self.active(page), ["o-c2", 2], "Left on a leaf goes to its parent")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#o-c2")).to_have_attribute("aria-expanded", "false")
        self.assertEqual(page.locator("#outline [role=treeitem]").count(), 2, "collapsed: the root and the tabs")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#o-c2")).to_have_attribute("aria-expanded", "true")
        page.keyboard.press("End")
        self.assertEqual(self.active(page), [f"o-c{self.leak}", self.leak])
        self.assertTrue(page.locator(f"#o-c{self.leak}").is_visible(), "End scrolls the last row into sight")
        expect(page.locator(f"#tree g.node#c{self.leak}")).to_have_attribute("aria-selected", "true")

        # And the reverse: picking in the picture selects the row. Fitted first: zoomed to the leak, the root can be
        # out of the frame (the screens' grid puts rows between them).
        page.click("#fit")
        page.locator("#tree g.node#c1").click()
        self.assertEqual(self.active(page), ["o-c1", 1])
        self.assertEqual(page.errors, [])

    def test_search_finds_coordinators_inside_a_summary_and_opens_the_picture_around_the_one_picked(self):
        page = self.open()
        self.assertEqual(page.locator("#tree g.node#c3").count(), 0, "share sheets start inside a summary")
        page.fill("#search", "Share")
        expect(page.locator("#search-count")).to_contain_text(f"1 of {SHARES:,}")
        expect(page.locator("#outline-count")).to_have_text(f"{SHARES + 2} shown")
        page.press("#search", "Enter")
        node = page.locator("#tree g.node#c3")
        node.wait_for(timeout=20_000)
        expect(node).to_have_attribute("aria-selected", "true")
        expect(page.locator("#details dd[data-field=type]")).to_have_text("ShareCoordinator")
        page.press("#search", "Enter")
        page.locator("#tree g.node#c4").wait_for(timeout=20_000)
        expect(page.locator("#search-count")).to_contain_text(f"2 of {SHARES:,}")
        # By id and by screen too.
        page.fill("#search", f"#{self.leak}")
        expect(page.locator("#search-count")).to_contain_text("1 of 1")
        page.fill("#search", "FeedItemViewController")
        expect(page.locator("#search-count")).to_contain_text(f"1 of {FEED_ITEMS:,}")
        self.assertEqual(page.errors, [])

    def test_a_summary_opens_from_the_picture(self):
        page = self.open()
        summary = page.locator("#tree g.node[id^=g]").first
        first = summary.get_attribute("id")[1:]
        self.assertTrue(summary.get_attribute("aria-label").startswith("summary, Enter opens it"))
        summary.focus()
        page.keyboard.press("Enter")
        page.locator(f"#tree g.node#{first}").wait_for(timeout=20_000)
        expect(page.locator("#caption")).to_contain_text("coordinators drawn")
        self.assertEqual(page.errors, [])

    def test_a_picked_leak_is_zoomed_to_a_readable_size_and_its_row_leads_to_code(self):
        page = self.open()
        page.click("#fit")
        row = page.locator("#leaks li.leak").first
        expect(row.locator("code.site")).to_have_text("Chat/ChatCoordinator.swift:42")
        link = row.locator("a.open-editor")
        self.assertEqual(link.get_attribute("href"), "vscode://file/src/App/Chat/ChatCoordinator.swift:42")
        row.locator(".leak-head").click()
        node = page.locator(f"#tree g.node#c{self.leak}")
        expect(node).to_have_attribute("aria-selected", "true")
        # The zoom to it is done once no picture is awaited to centre it in.
        page.wait_for_function("() => state.centreWhenDrawn == null")
        height = node.locator("text").first.evaluate("(text) => text.getBoundingClientRect().height")
        self.assertGreaterEqual(height, 9, "the label reads without zooming by hand")
        box = page.locator("#viewport").bounding_box()
        place = node.bounding_box()
        self.assertTrue(box["x"] <= place["x"] and place["x"] + place["width"] <= box["x"] + box["width"], "and is in sight")
        # The call site copies as the row shows it (Open has the whole path).
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        row.locator("button.copy").click()
        expect(row.locator("button.copy")).to_have_text("Copied")
        self.assertEqual(page.evaluate("() => navigator.clipboard.readText()"), "Chat/ChatCoordinator.swift:42")
        self.assertEqual(page.errors, [])

    def test_narrow_windows_keep_the_outline_usable(self):
        for width in (390, 800):
            page = self.open({"width": width, "height": 844})
            outline = page.locator("#outline").bounding_box()
            self.assertGreater(outline["height"], 100, f"{width} px: the outline has room")
            self.assertGreater(outline["width"], 150 if width < 800 else 120, f"{width} px")
            page.close()


def send_lines(port, lines):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall("".join(json.dumps(line) + "\n" for line in lines).encode())
    return connection


class LiveRefitTests(unittest.TestCase):
    """While a live run grows, the picture stays fitted until the user moves it."""

    def test_the_picture_refits_as_a_live_run_grows_until_the_user_zooms(self):
        listener, hook, url = listen("--grace", "0.2")
        try:
            with Browser() as browser:
                page = browser.page(url)
                page.wait_for_selector("#feed-state[data-state=open]")
                connection = send_lines(hook, [{"event": "session", "v": 1, "app": "Growing", "run": "grow-1"},
                                               {"seq": 1, "t": 0, "event": "add", "id": 1, "type": "AppCoordinator"}])
                page.wait_for_selector("#tree g.node#c1")
                seq = 1
                for child in range(2, 42):
                    seq += 1
                    connection.sendall((json.dumps({"seq": seq, "t": seq * 0.01, "event": "add", "id": child, "type": "FlowCoordinator", "parent": 1}) + "\n").encode())
                seq += 1
                connection.sendall((json.dumps({"seq": seq, "t": seq * 0.01, "event": "dismiss", "id": 41}) + "\n").encode())
                page.wait_for_selector("#tree g.node#c41.verdict-retained", timeout=20_000)
                page.wait_for_function("() => !state.inflight && !state.again")
                view = page.locator("#viewport").bounding_box()
                leak = page.locator("#tree g.node#c41").bounding_box()
                self.assertTrue(view["x"] <= leak["x"] and leak["x"] + leak["width"] <= view["x"] + view["width"] + 1,
                                f"the leak that arrived last is in sight: {leak} in {view}")
                self.assertTrue(view["y"] <= leak["y"] and leak["y"] + leak["height"] <= view["y"] + view["height"] + 1)

                # Zoomed by hand: the next growth keeps the user's view.
                page.mouse.move(view["x"] + 50, view["y"] + 50)
                page.mouse.wheel(0, -600)
                page.wait_for_function("() => state.moved")
                before = page.evaluate("() => ({ ...state.view })")
                seq += 1
                connection.sendall((json.dumps({"seq": seq, "t": seq * 0.01, "event": "add", "id": 42, "type": "FlowCoordinator", "parent": 1}) + "\n").encode())
                # A row of 41 is wider than a picture draws: the new one joins its siblings' summary.
                expect(page.locator("#outline-count")).to_have_text("42", timeout=20_000)
                page.wait_for_selector(f"#tree[data-seq='{seq}']", timeout=20_000)
                page.wait_for_function("() => !state.inflight && !state.again")
                self.assertAlmostEqual(page.evaluate("() => state.view.k"), before["k"], places=6)
                page.click("#fit")
                self.assertNotAlmostEqual(page.evaluate("() => state.view.k"), before["k"], places=3)
                connection.close()
                self.assertEqual(page.errors, [])
        finally:
            listener.stop()


if __name__ == "__main__":
    unittest.main()


class TimelineTests(unittest.TestCase):
    """The slider says the event in words, and its mark labels never overlap, before or after stepping back."""

    def test_mark_labels_never_overlap_and_the_slider_says_the_event(self):
        lines = [{"event": "session", "v": 1, "app": "Marks", "run": "marks-1"},
                 {"seq": 1, "t": 0, "event": "add", "id": 1, "type": "AppCoordinator"}]
        seq = 1
        for index in range(30):
            seq += 1
            lines.append({"seq": seq, "t": seq * 0.01, "event": "mark", "label": f"checkpoint-{index}"})
            seq += 1
            lines.append({"seq": seq, "t": seq * 0.01, "event": "add", "id": index + 2, "type": "ProductCoordinator", "parent": 1})
        seq += 1
        lines.append({"seq": seq, "t": seq * 0.01, "event": "dismiss", "id": 2})
        file = write_recording(lines)
        viewer, url = view(file)
        try:
            with Browser() as browser:
                page = browser.page(url, {"width": 1000, "height": 800})
                page.wait_for_selector("#ticks .tick")
                expect(page.locator("#slider")).to_have_attribute("aria-valuetext", f"event {seq} of {seq} · ProductCoordinator#2 dismissed · 0.62 s")
                self.assertEqual(page.locator("#ticks .tick").count(), 30)

                def labels_overlap():
                    boxes = page.eval_on_selector_all("#ticks .tick:not(.unlabelled)", """ticks => ticks.map((t) => {
                        const r = t.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })""")
                    self.assertGreater(len(boxes), 3)
                    return [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                            if a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]]

                self.assertEqual(labels_overlap(), [])
                tick = page.locator("#ticks .tick:not(.unlabelled)").nth(1)
                at, label = int(tick.get_attribute("data-seq")), tick.inner_text()
                tick.click()
                expect(page.locator("#slider")).to_have_attribute("aria-valuetext", f"event {at} of {seq} · mark “{label}” · {at * 0.01:.2f} s")
                self.assertEqual(page.locator("#ticks .tick").count(), 30, "later marks stay when stepping back")
                self.assertEqual(labels_overlap(), [])
                self.assertEqual(page.errors, [])
        finally:
            viewer.stop()
            os.unlink(file)
