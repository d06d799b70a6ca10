"""The inspector page in a real browser (Debian's Chromium through Playwright), against real coordlens processes."""
import base64
import hashlib
import http.client
import json
import math
import os
import re
import socket
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree
from urllib.parse import urlparse

from playwright.sync_api import expect

from inspector_support import BIN, Browser, NetworkNamespace, Process, ViewedRecording, coordlens, listen, run_sample, view, write_recording

SCREENSHOT = os.environ.get("INSPECTOR_SCREENSHOT")
SVG = "{http://www.w3.org/2000/svg}"


def drawn_ids(svg_text):
    """The coordinator nodes an SVG draws, by element id."""
    root = ElementTree.fromstring(svg_text)
    return {g.get("id") for g in root.iter(SVG + "g") if "node" in (g.get("class") or "").split() and g.get("id", "").startswith("c")}


def session(events, app="TestApp", run="run-1"):
    lines = [{"event": "session", "v": 1, "app": app, "run": run}]
    for seq, event in enumerate(events, start=1):
        lines.append({"seq": seq, "t": seq * 0.01, **event})
    return lines


class LiveSampleTests(unittest.TestCase):
    """A sample app streams to `coordlens listen` while the page is open."""

    @classmethod
    def setUpClass(cls):
        cls.recording = tempfile.mktemp(suffix=".ndjson")
        cls.listener, cls.hook, cls.url = listen("--record", cls.recording)
        cls.browser = Browser().__enter__()
        cls.page = cls.browser.page(cls.url)
        cls.page.wait_for_selector("#feed-state[data-state=open]")
        # Nothing touches the page from here: the session appears and its leaks turn red through the feed alone.
        run_sample("DeliverooTraditionalSample", cls.hook)
        cls.page.wait_for_selector("#tree g.node.verdict-retained", timeout=30_000)
        cls.page.wait_for_selector("#sessions li .badge.state.ended", timeout=30_000)

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.listener.stop()
        if os.path.exists(cls.recording):
            os.unlink(cls.recording)

    def setUp(self):
        self.page.click("#live")
        self.page.wait_for_selector("#live[aria-pressed=true]")

    def test_a_live_session_says_live_feed_and_has_a_live_button(self):
        expect(self.page.locator("#feed-state")).to_have_text("live feed")
        expect(self.page.locator("#live")).to_have_text("Live")
        expect(self.page.locator("#slider")).to_have_attribute("aria-valuetext", re.compile(r"^event \d+ of \d+ · "))

    def test_retained_nodes_are_red_and_a_click_shows_the_call_site(self):
        red = self.page.locator("#tree g.node.verdict-retained")
        self.assertGreater(red.count(), 0)
        fill = red.first.locator("path, polygon").first.get_attribute("fill")
        self.assertEqual(fill.lower(), "#cf222e")
        # The view was fitted to the first tree the feed brought, which on a loaded machine can be the first few nodes
        # at a zoom where the grown tree's leaks lie off screen.
        self.page.click("#fit")
        red.first.click()
        added = self.page.locator("#details dd[data-field=added]")
        self.assertRegex(added.inner_text(), r"\.swift:\d+")
        self.assertIn("retained", self.page.locator("#details dd[data-field=verdict]").inner_text())
        self.page.wait_for_selector("#details table.events td")
        if SCREENSHOT:
            # The first leak picked from the leaks panel (which centres it), then zoomed in on, as a person would.
            self.page.locator("#leaks li.leak .leak-head").first.click()
            view = self.page.locator("#viewport").bounding_box()
            self.page.mouse.move(view["x"] + view["width"] / 2, view["y"] + view["height"] / 2)
            zoom = self.page.evaluate("() => state.view.k")
            for _ in range(3):
                self.page.mouse.wheel(0, -200)
            # Three steps of the wheel, each ×e^0.3, up to the page's largest zoom.
            self.page.wait_for_function("(k) => state.view.k >= k", arg=min(8, zoom * math.exp(0.9)) * 0.999)
            self.page.screenshot(path=SCREENSHOT)
        self.assertEqual(self.page.errors, [])

    def test_the_picture_is_one_tab_stop_walked_with_the_arrows_and_picked_with_enter(self):
        self.page.click("#fit")
        # The control before the picture, then one Tab: a coordinator, no stop on the picture's frame first.
        self.page.locator("#show-compare").focus()
        self.page.keyboard.press("Tab")
        focused = self.page.evaluate("() => document.activeElement.closest('g.node') && document.activeElement.id")
        self.assertRegex(focused or "", r"^c\d+$", "Tab into the picture reaches a coordinator")
        ring = self.page.evaluate("() => getComputedStyle(document.getElementById('viewport')).boxShadow")
        self.assertNotEqual(ring, "none", "the picture shows where the focus is")
        self.assertEqual(self.page.locator("#tree svg").get_attribute("role"), "tree")
        self.assertEqual(self.page.evaluate("() => document.activeElement.getAttribute('role')"), "treeitem")
        label = self.page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        self.assertIn("Coordinator", label)
        self.assertEqual(self.page.locator("#tree g.node[tabindex='0']").count(), 1, "one Tab stop in the picture")
        slider = self.page.locator("#slider").input_value()
        self.page.keyboard.press("ArrowDown")
        second = self.page.evaluate("() => document.activeElement.id")
        self.assertNotEqual(second, focused, "the arrows walk the tree")
        self.assertEqual(self.page.locator("#slider").input_value(), slider, "and leave the time slider alone")
        self.page.wait_for_selector(f"#tree g.node.selected#{second}[aria-selected=true]")
        self.page.keyboard.press("Enter")
        self.assertIn("#" + second[1:], self.page.locator("#details").inner_text())
        self.page.keyboard.press("Tab")
        self.assertFalse(self.page.evaluate("() => Boolean(document.activeElement.closest('#tree'))"), "the next Tab leaves the picture")
        self.assertEqual(self.page.errors, [])

    def test_the_leaks_panel_counts_what_check_counts(self):
        status, output = coordlens("check", "--format", "json", self.recording)
        self.assertEqual(status, 1)
        import json
        retained = json.loads(output)["retained"]
        self.assertGreater(retained, 0)
        # The page's policy forbids eval, so waits go through locators rather than JavaScript strings.
        expect(self.page.locator("#leak-count")).to_have_text(str(retained))
        members = self.page.locator("#leaks .members a").count()
        self.assertEqual(members, retained)

    def test_leaks_are_listed_under_their_cause_as_check_groups_them(self):
        status, output = coordlens("check", "--format", "json", self.recording)
        self.assertEqual(status, 1)
        causes = json.loads(output)["sessions"][0]["causes"]
        self.assertTrue(causes)
        heads = self.page.locator("#leaks li.cause > .cause-head")
        expect(heads).to_have_count(len(causes))
        shown = {heads.nth(i).inner_text() for i in range(heads.count())}
        words = lambda count: "1 coordinator" if count == 1 else f"{count} coordinators"
        self.assertEqual(shown, {f"Cause {cause['cause']} keeps {words(cause['count'])}" for cause in causes})
        # Every leak row sits under a cause, and a cause's rows hold exactly the coordinators it keeps.
        self.assertEqual(self.page.locator("#leaks li.leak").count(), self.page.locator("#leaks li.cause li.leak").count())
        for cause in causes:
            block = self.page.locator("#leaks li.cause").filter(has=self.page.locator(".cause-head", has_text=cause["cause"]))
            members = block.locator(".members a").count()
            self.assertEqual(members, min(cause["count"], 12 * block.locator("li.leak").count()))

    def test_the_slider_at_a_mark_shows_the_tree_render_draws_there(self):
        tick = self.page.locator("#ticks .tick").first
        seq = tick.get_attribute("data-seq")
        tick.click()
        self.page.wait_for_selector(f"#tree[data-seq='{seq}']")
        self.assertEqual(self.page.locator("#live").get_attribute("aria-pressed"), "false")
        shown = set(self.page.eval_on_selector_all("#tree g.node", "nodes => nodes.map(n => n.id)")) - {"legend"}
        picture = tempfile.mktemp(suffix=".svg")
        status, _ = coordlens("render", self.recording, "--at-seq", seq, "-o", picture)
        self.assertEqual(status, 0)
        with open(picture) as text:
            expected = drawn_ids(text.read())
        os.unlink(picture)
        self.assertEqual(shown, expected)
        # One step back with the keyboard.
        self.page.locator("#viewport").focus()
        self.page.keyboard.press("ArrowLeft")
        self.page.wait_for_selector(f"#tree[data-seq='{int(seq) - 1}']")


class LiveUpdateTests(unittest.TestCase):
    """A live session growing under the page while it shows every coordinator."""

    def test_each_event_draws_a_big_picture_once(self):
        process, hook, url = listen()
        try:
            connection = socket.create_connection(("127.0.0.1", hook))
            size = 2_000
            events = [{"event": "add", "id": 1, "type": "AppCoordinator"}]
            events += [{"event": "add", "id": n, "type": "FeedCoordinator", "parent": (n - 2) // 4 + 1} for n in range(2, size + 1)]
            connection.sendall("".join(json.dumps(line) + "\n" for line in session(events, app="Growing", run="growing")).encode())
            with Browser() as browser:
                page = browser.page(url)
                page.wait_for_selector(f"#tree[data-seq='{size}']", timeout=60_000)
                page.check("#show-all")
                page.wait_for_selector("#tree svg .summary", state="detached", timeout=60_000)
                page.wait_for_function("() => !state.inflight && !state.again")
                # A judgement round the feed sends on the server's schedule may still come and bring a picture.
                # clock: it is waited out before the count starts.
                page.wait_for_timeout(1_000)
                count = "() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/tree')).length"
                before = page.evaluate(count)
                for probe in range(1, 5):
                    seq = size + probe
                    line = {"seq": seq, "t": seq * 0.01, "event": "add", "id": seq, "type": "ProbeCoordinator", "parent": 1}
                    connection.sendall((json.dumps(line) + "\n").encode())
                    page.wait_for_selector(f"#tree[data-seq='{seq}'] g.node#c{seq}", timeout=30_000)
                    # The session's judgement follows each event on the feed, often while its picture is on its way.
                    # clock: it comes on the server's schedule, and what is counted is that it brings no picture more.
                    page.wait_for_timeout(1_000)
                    page.wait_for_function("() => !state.inflight && !state.again")
                fetched = page.evaluate(count) - before
                # One picture per event; one more at most, should a judgement round land between two.
                self.assertLessEqual(fetched, 5, f"{fetched} pictures fetched for 4 events")
                self.assertGreaterEqual(fetched, 4)
                self.assertEqual(page.errors, [])
            connection.close()
        finally:
            process.stop()


def zoom_until(page, reached):
    """Wheels over the middle of the picture, out or in, until `reached(k)` holds for the view's scale."""
    box = page.locator("#viewport").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    out = reached(0.0)
    for _ in range(100):
        if reached(page.evaluate("state.view.k")):
            return
        page.mouse.wheel(0, 400 if out else -400)
    raise AssertionError("the view never reached the scale asked for")


class BigPictureTests(ViewedRecording):
    """`coordlens view` over 600 coordinators with Show all: more boxes than a default picture draws."""

    @classmethod
    def make_recording(cls):
        events = [{"event": "add", "id": 1, "type": "AppCoordinator"}]
        events += [{"event": "add", "id": n, "type": "FeedCoordinator", "parent": (n - 2) // 4 + 1} for n in range(2, 601)]
        events += [{"event": "dismiss", "id": 37}, {"event": "heartbeat"}]
        lines = session(events, app="Big", run="big")
        lines[-1]["t"] = 10
        return write_recording(lines)

    def test_far_out_the_picture_drops_its_text_and_zooming_in_brings_it_back(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node")
        page.check("#show-all")
        page.wait_for_selector("#tree g.node#c600")
        label = page.locator("#tree g.node#c1 text").first
        zoom_until(page, lambda k: k < 1 / 3)
        expect(page.locator("#tree")).to_have_class(re.compile(r"\bcompact\b.*\bfar\b|\bfar\b.*\bcompact\b"))
        self.assertEqual(label.evaluate("text => getComputedStyle(text).display"), "none")
        # The boxes keep their colours, and their names for the keyboard and screen readers.
        self.assertEqual(page.locator("#tree g.node.verdict-retained polygon").count(), 1)
        self.assertEqual(page.locator("#tree g.node#c1").get_attribute("aria-label"), "AppCoordinator #1")
        zoom_until(page, lambda k: k >= 1 / 3)
        expect(page.locator("#tree")).not_to_have_class(re.compile(r"\bfar\b"))
        self.assertNotEqual(label.evaluate("text => getComputedStyle(text).display"), "none")
        self.assertEqual(page.errors, [])


class RecordedViewTests(ViewedRecording):
    """`coordlens view FILE` serves the same page over a recording."""

    @classmethod
    def make_recording(cls):
        events = [
            {"event": "add", "id": 1, "type": "AppCoordinator"},
            {"event": "add", "id": 2, "type": "FeedCoordinator", "parent": 1},
            {"event": "add", "id": 3, "type": "FeedItemCoordinator", "parent": 2},
            {"event": "add", "id": 4, "type": "<img src=x onerror=\"window.__pwned=1\">", "parent": 1,
             "file": "<script>window.__pwned=1</script>.swift", "line": 7},
            {"event": "bind", "id": 4, "screen": "\"><svg onload=window.__pwned=1>"},
            {"event": "mark", "label": "<b onmouseover=window.__pwned=1>hover</b>"},
            {"event": "dismiss", "id": 4},
            {"event": "add", "id": "checkout-1", "type": "CheckoutCoordinator", "parent": 1, "file": "Shop/Checkout.swift", "line": 3},
            {"event": "dismiss", "id": "checkout-1"},
            {"event": "add", "id": 5, "type": "Admin\u202erotanidrooC", "parent": 1},
            {"event": "heartbeat"},
        ]
        lines = session(events, app="<script>window.__pwned=1</script>", run="<img src=y onerror=window.__pwned=1>")
        lines[-1]["t"] = 10
        return write_recording(lines)

    def test_hostile_names_show_as_text_and_run_nothing(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node.verdict-retained")
        page.locator("#tree g.node.verdict-retained").first.click()
        self.assertEqual(page.locator("#details dd[data-field=type]").inner_text(), "<img src=x onerror=\"window.__pwned=1\">")
        self.assertIn("<svg onload", page.locator("#details dd[data-field=screen]").inner_text())
        self.assertIn("<script>window.__pwned=1</script>", page.locator("#sessions").inner_text())
        page.locator("#ticks .tick").first.hover()
        # clock: what is checked is that nothing runs, which no event marks: an injected handler gets 300 ms to fire.
        page.wait_for_timeout(300)
        # evaluate() runs through the DevTools protocol, which the page's policy does not govern.
        self.assertIsNone(page.evaluate("window.__pwned"))
        self.assertEqual(page.locator("#tree script, #tree foreignObject").count(), 0)

    def test_a_bidirectional_control_in_a_name_is_spelled_out_not_obeyed(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node#c5")
        expect(page.locator("#outline")).to_contain_text("Admin\\u{202E}rotanidrooC")
        self.assertFalse(page.evaluate("() => document.body.innerText.includes('\u202e')"), "a raw U+202E in the page's text")
        self.assertFalse(page.evaluate("() => document.querySelector('#tree').textContent.includes('\u202e')"), "the picture drops it")
        self.assertIn("Adminrotanidroo", page.locator("#tree g.node#c5").text_content())
        self.assertEqual(page.errors, [])

    def test_pointing_at_a_coordinator_gives_its_tooltip_from_the_model(self):
        page = self.browser.page(self.url)
        page.wait_for_function("() => state.model != null && document.querySelector('#tree g.node#c4')")
        node = page.locator("#tree g.node#c4")
        self.assertEqual(node.locator("a").count(), 0, "the server's picture carries no tooltip of its own")
        node.hover()
        title = node.locator(":scope > title")
        expect(title).to_contain_text("retained: ")
        text = title.text_content()
        self.assertTrue(text.startswith('<img src=x onerror="window.__pwned=1">#4 · "><svg onload=window.__pwned=1>'), text)
        self.assertIn("\nadded at <script>window.__pwned=1</script>.swift:7\n", text)
        self.assertRegex(text, r"added [0-9.]+ m?s · done [0-9.]+ m?s into the run$")
        self.assertIsNone(page.evaluate("window.__pwned"))
        self.assertEqual(page.errors, [])

    def test_far_out_a_small_picture_keeps_its_text(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node.verdict-retained")
        zoom_until(page, lambda k: k < 1 / 3)
        expect(page.locator("#tree")).to_have_class(re.compile(r"\bfar\b"))
        self.assertNotEqual(page.locator("#tree g.node text").first.evaluate("text => getComputedStyle(text).display"), "none")
        self.assertEqual(page.errors, [])

    def test_narrow_windows_keep_the_tree_usable(self):
        for width, height in ((800, 900), (390, 844)):
            page = self.browser.page(self.url, viewport={"width": width, "height": height})
            page.wait_for_selector("#tree g.node.verdict-retained")
            viewport = page.locator("#viewport").bounding_box()
            toolbar = page.locator(".toolbar").bounding_box()
            panels = page.locator("aside.panels").bounding_box()
            if width >= 800:
                self.assertGreaterEqual(viewport["width"], width / 2 - 1, f"at {width} px the picture keeps half the width")
            else:
                self.assertGreaterEqual(viewport["width"], width - 2, "at phone width the picture takes the whole width")
                self.assertGreaterEqual(viewport["height"], 250)
                self.assertGreaterEqual(panels["y"], viewport["y"] + viewport["height"] - 1, "the panels stack below the picture")
            self.assertLessEqual(toolbar["y"] + toolbar["height"], viewport["y"] + 1, "the toolbar sits above the picture, not over it")
            self.assertGreaterEqual(page.locator("#slider").bounding_box()["width"], 170, f"at {width} px the slider stays usable")
            # The picture answers a click where it is drawn: the retained node's details open.
            page.locator("#tree g.node.verdict-retained").first.click()
            expect(page.locator("#details")).to_contain_text("retained")
            self.assertEqual(page.errors, [])
            page.close()

    def test_dark_mode_follows_the_system(self):
        page = self.browser.page(self.url)
        page.emulate_media(color_scheme="dark")
        page.wait_for_selector("#tree g.node.verdict-retained")
        colours = page.evaluate("""() => [document.body, document.querySelector('.panel'), document.querySelector('h1')]
            .map((e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color])""")
        def luminance(text):
            red, green, blue = [int(part) for part in re.findall(r"\d+", text)[:3]]
            return 0.2126 * red + 0.7152 * green + 0.0722 * blue
        self.assertLess(luminance(colours[0][0]), 60, f"a dark page: {colours}")
        self.assertLess(luminance(colours[1][0]), 60, f"dark panels: {colours}")
        self.assertGreater(luminance(colours[2][1]), 180, f"light text: {colours}")
        # Every verdict badge stays readable: its text and its background far apart.
        for background, text in page.evaluate("""() => [...document.querySelectorAll('#sessions .badge')]
                .map((e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color])"""):
            if "rgba(0, 0, 0, 0)" not in background:
                self.assertGreater(abs(luminance(background) - luminance(text)), 100, f"a readable badge: {background} / {text}")
        page.emulate_media(color_scheme="light")
        self.assertGreater(luminance(page.evaluate("() => getComputedStyle(document.body).backgroundColor")), 200)
        self.assertEqual(page.errors, [])

    def test_a_recording_says_recorded_and_has_an_end_not_a_present(self):
        page = self.browser.page(self.url)
        expect(page.locator("#feed-state")).to_have_text("recorded")
        expect(page.locator("#live")).to_have_text("End")
        expect(page.locator("#position")).to_contain_text("end · event")
        last = page.locator("#slider").get_attribute("max")
        expect(page.locator("#slider")).to_have_attribute("aria-valuetext", re.compile(rf"^event {last} of {last} · "))
        self.assertEqual(page.errors, [])

    def test_stepping_past_the_last_event_stays_on_the_last(self):
        page = self.browser.page(self.url)
        expect(page.locator("#position")).to_contain_text("end · event")
        last = page.locator("#slider").get_attribute("max")
        page.locator("#viewport").focus()
        for key in ("ArrowLeft", "ArrowRight", "ArrowRight", "ArrowRight"):
            page.keyboard.press(key)
        # Each step asks the server again; only the answer to the last step says where the view ended up.
        page.wait_for_function("() => !state.inflight && !state.again")
        self.assertIn(f"event {last} of {last}", page.locator("#position").inner_text())
        self.assertEqual(page.locator("#slider").input_value(), last)
        self.assertEqual(page.errors, [])

    def test_a_leak_is_reached_with_tab_and_selected_with_enter(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#leaks li.leak .leak-head")
        first_member = page.locator("#leaks li.leak").first.locator(".members a").first.get_attribute("href")
        for _ in range(60):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('leak-head')"):
                break
        else:
            self.fail("Tab never reached a leak")
        page.keyboard.press("Enter")
        expect(page.locator("#tree g.node.selected")).to_have_attribute("id", first_member[1:])
        expect(page.locator("#details dd[data-field=verdict]")).to_contain_text("retained")
        self.assertEqual(page.errors, [])

    def test_the_svg_sanitiser_keeps_what_graphviz_draws_and_nothing_else(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node")
        hostile = (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="80pt" height="40pt"'
            ' viewBox="0 0 80 40" onload="window.__pwned=1">'
            '<g id="c1" class="node verdict-retained" onclick="window.__pwned=1" style="fill:url(https://evil.example/)">'
            '<title>c1</title>'
            '<a xlink:href="javascript:window.__pwned=1" href="https://evil.example/" xlink:title="AppCoordinator#1" target="_top">'
            '<path fill="#e5484d" stroke="#1f2328" d="M0,0L10,10" onmouseover="window.__pwned=1"/></a>'
            '<a href="#c1"><text x="1" y="2" font-size="10" onfocus="window.__pwned=1">AppCoordinator</text></a>'
            '<set attributeName="onmouseover" to="window.__pwned=1"/>'
            '<animate attributeName="href" to="javascript:window.__pwned=1" begin="0s"/>'
            '<script>window.__pwned=1</script>'
            '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml" onclick="window.__pwned=1">x</div></foreignObject>'
            '<image href="https://evil.example/x.png"/><use href="#c1"/><iframe xmlns="http://www.w3.org/1999/xhtml"/>'
            '<h:img xmlns:h="http://www.w3.org/1999/xhtml" src="x" onerror="window.__pwned=1"/>'
            '</g></svg>')
        kept = page.evaluate("""text => {
            const svg = inertSvg(text);
            return [svg, ...svg.querySelectorAll("*")].map((e) => [e.localName, Object.fromEntries([...e.attributes].map((a) => [a.name, a.value]))]);
        }""", hostile)
        names = [name for name, _ in kept]
        self.assertEqual(names, ["svg", "g", "title", "a", "path", "a", "text"])
        for name, attributes in kept:
            self.assertFalse([a for a in attributes if a.lower().startswith("on")], (name, attributes))
            self.assertNotIn("style", attributes)
            self.assertNotIn("target", attributes)
            for attribute in ("href", "xlink:href"):
                if attribute in attributes:
                    self.assertTrue(attributes[attribute].startswith("#"), (name, attributes))
        self.assertEqual(dict(kept)["path"], {"fill": "#e5484d", "stroke": "#1f2328", "d": "M0,0L10,10"})
        self.assertEqual(kept[3][1], {"xlink:title": "AppCoordinator#1"})
        self.assertEqual(kept[5][1], {"href": "#c1"})
        # Shown as the tree, it runs nothing either.
        page.evaluate("text => showTree(text, '')", hostile)
        # clock: what is checked is that nothing runs, which no event marks: an injected handler gets 300 ms to fire.
        page.wait_for_timeout(300)
        self.assertIsNone(page.evaluate("window.__pwned"))
        self.assertEqual(page.locator("#tree script, #tree set, #tree animate, #tree foreignObject, #tree image, #tree use").count(), 0)

    def test_a_string_id_keeps_its_spelling_and_its_events(self):
        page = self.browser.page(self.url)
        node = page.locator("#tree g.node#cs" + "checkout-1".encode().hex())
        node.click()
        expect(page.locator("#details dd[data-field=id]")).to_have_text("checkout-1")
        expect(page.locator("#details table.events td").first).to_have_text("8")
        self.assertIn("CheckoutCoordinator#checkout-1", page.locator("#leaks").inner_text())
        self.assertEqual(page.errors, [])

    def test_leaks_only_hides_what_leads_to_no_leak(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node")
        before = set(page.eval_on_selector_all("#tree g.node", "nodes => nodes.map(n => n.id)"))
        self.assertTrue({"c1", "c2", "c3", "c4"} <= before)
        page.check("#leaks-only")
        expect(page.locator("#tree #c2")).to_have_count(0)
        after = set(page.eval_on_selector_all("#tree g.node", "nodes => nodes.map(n => n.id)"))
        self.assertEqual(after & {"c1", "c2", "c3", "c4"}, {"c1", "c4"})

    def test_a_foreign_host_header_is_refused(self):
        address = urlparse(self.url)
        for host, expected in [("evil.example", 403), (f"evil.example:{address.port}", 403), (f"127.0.0.1:{address.port}", 200),
                               (f"localhost:{address.port}", 200)]:
            connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
            connection.putrequest("GET", "/api/sessions", skip_host=True)
            connection.putheader("Host", host)
            connection.endheaders()
            response = connection.getresponse()
            self.assertEqual(response.status, expected, host)
            self.assertIsNone(response.getheader("Access-Control-Allow-Origin"))
            connection.close()

    def test_every_response_forbids_inline_and_remote_scripts(self):
        address = urlparse(self.url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
        connection.request("GET", "/")
        response = connection.getresponse()
        policy = response.getheader("Content-Security-Policy")
        self.assertIn("script-src 'self'", policy)
        self.assertNotIn("unsafe-inline", policy)
        connection.close()


class RouterViewTests(ViewedRecording):
    """A router whose coordinators own their screens, recorded by the real sample and viewed with a source root
    elsewhere: the details say how each product was dismissed, and no full path of this machine reaches the page."""

    view_arguments = ("--source-root", "/nowhere")

    @classmethod
    def make_recording(cls):
        file = tempfile.mktemp(suffix=".ndjson")
        subprocess.run([os.path.join(BIN, "XCoordinatorRouterSample"), "--file", file], check=True, capture_output=True, timeout=60)
        return file

    def test_the_details_say_the_screen_left_and_no_full_path_shows(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node.verdict-retained")
        page.locator("#tree g.node.verdict-retained").first.click()
        expect(page.locator("#details dd[data-field=type]")).to_have_text("ProductCoordinator")
        expect(page.locator("#details dd[data-field=dismissed]")).to_contain_text("left the screen (reported by the UI layer) at ")
        page.wait_for_selector("#details table.events td")
        self.assertIn("dismiss (screen-left)", page.locator("#details table.events").inner_text())
        checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.assertNotIn(checkout, page.content())
        self.assertEqual(page.errors, [])


    def test_the_details_draw_who_holds_the_leak_as_a_leak_trace(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node.verdict-retained")
        page.locator("#tree g.node.verdict-retained").first.click()
        trace = page.locator('#details dd[data-field="held by"] ol.leak-trace')
        expect(trace).to_be_visible()
        expect(trace.locator("li")).to_have_count(2)
        suspect = trace.locator("li.suspect")
        expect(suspect).to_contain_text("HomeCoordinator#2")
        expect(suspect).to_contain_text(".children[")
        expect(suspect).to_contain_text("(element)")
        expect(trace.locator("li.leaked")).to_contain_text("ProductCoordinator#")
        self.assertIn("› ProductCoordinator#", trace.get_attribute("aria-label"))
        # The holder is a coordinator: its link selects it.
        suspect.locator("a").click()
        expect(page.locator("#details dd[data-field=type]")).to_have_text("HomeCoordinator")
        self.assertEqual(page.errors, [])


class ClosureTraceTests(ViewedRecording):
    """A leak trace through a closure names the closure, as the hook found it in the app's symbol table."""

    @classmethod
    def make_recording(cls):
        steps = "\u001e".join([
            "\u001f".join(["AppCoordinator", "1", "router", "property"]),
            "\u001f".join(["Router", "", "completions[ObjectIdentifier]", "capture"]),
        ])
        closures = "\u001e".join(["", "closure #1 in AppCoordinator.showShareSheet()"])
        events = [
            {"event": "add", "id": 1, "type": "AppCoordinator"},
            {"event": "add", "id": 2, "type": "ShareCoordinator", "parent": 1},
            {"event": "dismiss", "id": 2},
            {"event": "remove", "id": 2, "parent": 1},
            {"event": "held", "id": 2, "via": "live", "count": 12, "label": steps, "closures": closures},
            {"event": "end"},
        ]
        lines = session(events)
        lines[-2]["t"] = 5
        lines[-1]["t"] = 10
        return write_recording(lines)

    def test_the_trace_names_the_closure_that_keeps_the_leak(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node.verdict-retained")
        page.locator("#tree g.node.verdict-retained").first.click()
        trace = page.locator('#details dd[data-field="held by"] ol.leak-trace')
        expect(trace.locator("li.suspect").last).to_contain_text(
            "Router.completions[ObjectIdentifier] (captured by closure #1 in AppCoordinator.showShareSheet())")
        self.assertIn("(captured by closure #1 in AppCoordinator.showShareSheet()) › ShareCoordinator#2", trace.get_attribute("aria-label"))
        # Who holds it comes right after the verdict, before the reason and the sites.
        fields = page.locator("#details dl > dd").evaluate_all("(rows) => rows.map((row) => row.dataset.field)")
        self.assertEqual(fields[fields.index("verdict") + 1], "held by", fields)
        self.assertEqual(page.errors, [])

    def test_the_suspects_run_from_the_last_object_not_leaking_to_the_leak(self):
        # AppCoordinator#1 is alive, the Router unknown, ShareCoordinator#2 leaking: both references are suspects, as
        # LeakCanary marks them, and the living holder says it is not leaking.
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node.verdict-retained")
        page.locator("#tree g.node.verdict-retained").first.click()
        trace = page.locator('#details dd[data-field="held by"] ol.leak-trace')
        expect(trace.locator("li.suspect")).to_have_count(2)
        expect(trace.locator("li").first).to_contain_text(".router")
        expect(trace.locator("li").first).to_contain_text("not leaking")
        self.assertEqual(trace.locator("li").nth(1).get_attribute("data-state"), "unknown")
        self.assertEqual(page.errors, [])

    def test_the_tab_title_counts_the_leaks_of_the_run_shown(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#tree g.node.verdict-retained")
        expect(page).to_have_title("(1) TestApp · CoordinatorLens")
        self.assertEqual(page.errors, [])


class TwoRunsViewTests(ViewedRecording):
    """A recording of two runs: the sessions list is a listbox the keyboard walks."""

    @classmethod
    def make_recording(cls):
        first = session([{"event": "add", "id": 1, "type": "AppCoordinator"}, {"event": "heartbeat"}], run="run-a")
        second = session([{"event": "add", "id": 1, "type": "AppCoordinator"},
                          {"event": "add", "id": 2, "type": "OnlyInRunBCoordinator", "parent": 1}, {"event": "heartbeat"}], run="run-b")
        return write_recording(first + second)

    def test_the_sessions_list_is_a_listbox_walked_with_the_arrows(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#sessions[role=listbox] li[role=option][aria-selected=true]")
        options = page.locator("#sessions li[role=option]")
        self.assertEqual(options.count(), 2)
        self.assertEqual(page.locator("#sessions li[tabindex='0']").count(), 1, "one tab stop for the whole list")
        chosen = page.locator("#sessions li[aria-selected=true]").get_attribute("data-run")
        page.locator("#sessions li[aria-selected=true]").focus()
        page.keyboard.press("End" if options.first.get_attribute("data-run") == chosen else "Home")
        other = ({"run-a", "run-b"} - {chosen}).pop()
        expect(page.locator("#sessions li[aria-selected=true]")).to_have_attribute("data-run", other)
        page.wait_for_selector(f"#tree[data-run='{other}'] g.node")
        focused = page.evaluate("() => document.activeElement.dataset.run")
        self.assertEqual(focused, other, "focus stays on the chosen session after the list redraws")
        page.keyboard.press("ArrowUp" if other == options.last.get_attribute("data-run") else "ArrowDown")
        expect(page.locator("#sessions li[aria-selected=true]")).to_have_attribute("data-run", chosen)
        self.assertEqual(page.errors, [])


class OneFileReportTests(unittest.TestCase):
    """`coordlens render FILE -o report.html`: the page's static form, one file that fetches nothing."""

    def test_the_report_shows_the_tree_leaks_and_details_offline(self):
        sample = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "deliveroo-traditional", "stream.ndjson")
        report = tempfile.mktemp(suffix=".html")
        status, _ = coordlens("render", sample, "-o", report)
        self.assertEqual(status, 0)
        _, output = coordlens("check", "--format", "json", sample)
        import json
        retained = json.loads(output)["retained"]
        with Browser() as browser:
            page = browser.browser.new_page(viewport={"width": 1440, "height": 900})
            requests = []
            page.on("request", lambda request: requests.append(request.url))
            page.goto("file://" + os.path.abspath(report))
            page.wait_for_selector("#tree g.node.verdict-retained")
            expect(page.locator("#leak-count")).to_have_text(str(retained))
            page.locator("#tree g.node.verdict-retained").first.click()
            self.assertRegex(page.locator("#details dd[data-field=added]").inner_text(), r"\.swift:\d+")
            page.wait_for_selector("#details table.events td")
            self.assertEqual(requests, ["file://" + os.path.abspath(report)], "nothing but the file itself is loaded")
            self.assertFalse(page.locator("#slider").is_visible(), "time travel needs the server; the report hides it")
        with open(report, encoding="utf-8") as text:
            html = text.read()
        os.unlink(report)
        policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html).group(1)
        scripts = next(directive.strip() for directive in policy.split(";") if directive.strip().startswith("script-src"))
        self.assertNotIn("unsafe-inline", scripts)
        inline = re.findall(r"<script>(.*?)</script>", html, re.S)
        self.assertEqual(len(inline), 2, "the inspector's script and the lifetimes'")
        hashes = {"'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'" for body in inline}
        self.assertEqual(set(scripts.split()[1:]), hashes)


if __name__ == "__main__":
    unittest.main()


@unittest.skipIf(NetworkNamespace.unavailable, NetworkNamespace.unavailable or "")
class NetworkTokenTests(unittest.TestCase):
    """`coordlens view` bound beyond loopback inside a namespace of its own, opened from this one in Chromium."""

    def test_the_token_in_the_address_opens_the_page_and_nothing_else_does(self):
        namespace = NetworkNamespace()
        viewer = None
        try:
            recording = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples", "yui", "stream.ndjson")
            viewer = Process("view", "--host", "0.0.0.0", "--http-port", "0", recording, prefix=namespace.prefix())
            url = viewer.wait_for(r"from the network: (http://" + re.escape(namespace.inside_address) + r"\S+)").group(1)
            with Browser() as browser:
                bare = browser.page(url.split("?")[0])
                self.assertIn("needs its token", bare.content())
                page = browser.page(url)
                def seen(error):
                    viewer.log.seek(0)
                    return (f"{error}\nerrors: {page.errors}\nfailed requests: {page.failed_requests}\n"
                            f"feed: {page.locator('#feed-state').get_attribute('data-state')}\nview said: {viewer.log.read()[-2000:]}")
                try:
                    page.wait_for_selector("#tree g.node.verdict-retained", timeout=30_000)
                except Exception as error:
                    # Seen in two of about ten full browser runs, never alone (about 2 s): say what the page and the
                    # server saw, then load the page once more, as a person would. Still to be explained.
                    first = seen(error)
                    sys.stderr.write(f"\nNetworkTokenTests: no tree after 30 s; reloading once. {first}\n")
                    page.errors.clear()
                    page.failed_requests.clear()
                    page.reload()
                    try:
                        page.wait_for_selector("#tree g.node.verdict-retained", timeout=30_000)
                    except Exception as again:
                        self.fail(f"first load: {first}\nafter a reload: {seen(again)}")
                self.assertNotIn("token=", page.url, "the address loses its token once the cookie is set")
                cookies = page.context.cookies()
                self.assertTrue(any(c["httpOnly"] and c["sameSite"] == "Strict" for c in cookies), cookies)
                self.assertEqual(page.errors, [])
        finally:
            if viewer:
                viewer.stop()
            namespace.remove()
