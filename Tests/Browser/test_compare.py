"""Runs compared in the inspector page, in Chromium: `coordlens view LEAKING FIXED --compare` opens on the Deliveroo
sample's leaking run against its fixed run; the fixed leaks are listed as fixed and none as new, the other way round
they are new, each leak's link selects it in its own session, and the picture has the element ids of
`coordlens diff --format svg` for the same pair."""
import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

from playwright.sync_api import expect

from inspector_support import Browser, Process, coordlens

LEAKING = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "deliveroo-traditional", "stream.ndjson")
FIXED_TYPES = ("YellowCoordinator", "GreenCoordinator")


def fixed_run(leaking, run):
    """The leaking run as the fixed build records it: every Yellow and Green coordinator whose screen left is removed
    from its parent and freed right after (what the sample's FixedYellow/FixedGreen coordinators do), under run id
    `run`. Returns the file and how many leaks the fix removed."""
    with open(leaking) as recording:
        lines = [json.loads(line) for line in recording]
    added, out, fixed = {}, [], 0
    for line in lines:
        if line.get("event") == "session":
            line = {**line, "run": run}
        out.append(line)
        if line.get("event") == "add":
            added[line["id"]] = (line["type"], line.get("parent"))
        if line.get("event") == "dismiss" and added[line["id"]][0] in FIXED_TYPES:
            out.append({"t": line["t"], "event": "remove", "id": line["id"], "parent": added[line["id"]][1]})
            out.append({"t": line["t"], "event": "deinit", "id": line["id"]})
            fixed += 1
    seq = 0
    handle = tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False)
    for line in out:
        if line.get("event") != "session":
            seq += 1
            line["seq"] = seq
        handle.write(json.dumps(line) + "\n")
    handle.close()
    return handle.name, fixed


def element_ids(svg_text):
    return sorted(element.get("id") for element in ElementTree.fromstring(svg_text).iter() if element.get("id"))


def element_id(coordinator):
    """The tree's element id of a numeric coordinator id, as the page's ids.js names them."""
    return f"cn{-coordinator}" if coordinator < 0 else f"c{coordinator}"


class ComparedRuns(unittest.TestCase):
    """`coordlens view --compare A B` with one browser for the class; a subclass names A and B in `runs()`."""

    @classmethod
    def runs(cls):
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        a, b = cls.runs()
        cls.viewer = Process("view", "--http-port", "0", "--compare", a, b)
        cls.url = cls.viewer.wait_for(r"Inspector: (http://\S+)").group(1)
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.viewer.stop()


class CompareTests(ComparedRuns):
    @classmethod
    def runs(cls):
        with open(LEAKING) as recording:
            cls.leaking_run = json.loads(recording.readline())["run"]
        cls.fixed, cls.fixed_count = fixed_run(LEAKING, "deliveroo-fixed")
        assert cls.fixed_count > 0
        return LEAKING, cls.fixed

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        os.unlink(cls.fixed)

    def opened(self):
        self.assertIn("#compare&", self.url, "view --compare prints the address of the comparison")
        page = self.browser.page(self.url)
        expect(page.locator("#compare")).to_be_visible()
        page.wait_for_selector("#compare-picture svg")
        return page

    def test_the_fixed_run_shows_the_fixed_leaks_as_fixed_and_none_new(self):
        page = self.opened()
        expect(page.locator("#compare-fixed h3")).to_have_text(f"Fixed leaks ({self.fixed_count})")
        expect(page.locator("#compare-new h3")).to_have_text("New leaks (0)")
        types = page.locator("#compare-fixed li a").all_inner_texts()
        self.assertEqual(len(types), self.fixed_count)
        self.assertTrue(all(any(name in text for name in FIXED_TYPES) for text in types), types)
        still = page.locator("#compare-still li a").all_inner_texts()
        self.assertTrue(still, "the leak the fix leaves is still leaking")
        self.assertFalse([text for text in still if any(name in text for name in FIXED_TYPES)], still)
        self.assertEqual(page.locator("#compare-a").input_value(), self.leaking_run)
        self.assertEqual(page.locator("#compare-b").input_value(), "deliveroo-fixed")
        self.assertEqual(page.errors, [])

    def test_escape_goes_back_to_the_tree_and_tab_stays_out_of_the_hidden_tree(self):
        page = self.opened()
        # Open, Tab never lands behind the pane (the stage's toolbar and tree); the sessions and panels beside it stay.
        page.locator("#compare-a").focus()
        behind = "(() => { const a = document.activeElement, stage = document.querySelector('.stage');"\
            " return stage.contains(a) && !document.getElementById('compare').contains(a); })()"
        for _ in range(40):
            page.keyboard.press("Tab")
            self.assertFalse(page.evaluate(behind), "Tab went behind the comparison: " + page.evaluate("document.activeElement.outerHTML.slice(0, 120)"))
        page.keyboard.press("Escape")
        expect(page.locator("#compare")).to_be_hidden()
        self.assertEqual(page.evaluate("document.activeElement.id"), "show-compare", "focus goes back to the Compare button")
        self.assertNotIn("#compare", page.evaluate("location.hash"))
        self.assertFalse(page.evaluate("document.getElementById('viewport').inert"), "the tree takes focus again")
        self.assertEqual(page.errors, [])

    def test_the_other_way_round_shows_them_as_new(self):
        page = self.opened()
        page.locator("#compare-a").select_option("deliveroo-fixed")
        page.locator("#compare-b").select_option(self.leaking_run)
        expect(page.locator("#compare-new h3")).to_have_text(f"New leaks ({self.fixed_count})")
        expect(page.locator("#compare-fixed h3")).to_have_text("Fixed leaks (0)")
        self.assertIn(f"a=deliveroo-fixed", page.evaluate("location.hash"), "the address follows the choice")
        self.assertEqual(page.errors, [])

    def test_the_previous_run_of_this_app_is_the_leaking_one(self):
        page = self.browser.page(self.url.split("#")[0] + "#compare&previous=1&b=deliveroo-fixed")
        page.wait_for_selector("#compare-picture svg")
        expect(page.locator("#compare-summary")).to_contain_text(f"{self.leaking_run} → DeliverooTraditionalSample · deliveroo-fixed")
        expect(page.locator("#compare-fixed h3")).to_have_text(f"Fixed leaks ({self.fixed_count})")
        self.assertEqual(page.errors, [])

    def test_the_comparison_zooms_and_survives_back_and_reload(self):
        page = self.opened()
        picture = page.locator("#compare-picture")
        width = page.locator("#compare-picture svg").bounding_box()["width"]
        box = picture.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, -500)
        self.assertGreater(page.locator("#compare-picture svg").bounding_box()["width"], width * 1.5, "the wheel zooms in")
        picture.focus()
        page.keyboard.press("-")
        page.locator("#compare-fit").click()
        address = page.evaluate("location.hash")

        # A leak followed, then Back: the comparison as it was.
        page.locator("#compare-fixed li a").first.click()
        expect(page.locator("#compare")).to_be_hidden()
        page.go_back()
        expect(page.locator("#compare")).to_be_visible()
        self.assertEqual(page.evaluate("location.hash"), address)
        expect(page.locator("#compare-fixed h3")).to_have_text(f"Fixed leaks ({self.fixed_count})")

        # Back to the tree, then Back: the comparison again; reload keeps it.
        page.locator("#compare-close").click()
        expect(page.locator("#compare")).to_be_hidden()
        page.go_back()
        expect(page.locator("#compare")).to_be_visible()
        page.reload()
        page.wait_for_selector("#compare-picture svg")
        self.assertEqual(page.evaluate("location.hash"), address)
        self.assertEqual(page.locator("#compare-b").input_value(), "deliveroo-fixed")
        self.assertEqual(page.errors, [])

    def test_a_leak_link_selects_the_coordinator_in_its_own_session(self):
        page = self.opened()
        link = page.locator("#compare-fixed li a").first
        expect(link).to_have_attribute("data-run", self.leaking_run)
        coordinator = int(link.inner_text().rsplit("#", 1)[1])
        link.click()
        expect(page.locator("#compare")).to_be_hidden()
        expect(page.locator("#tree")).to_have_attribute("data-run", self.leaking_run)
        selected = page.locator("#tree g.node.selected")
        expect(selected).to_have_count(1)
        self.assertEqual(selected.get_attribute("id"), element_id(coordinator))
        self.assertEqual(page.errors, [])

    def test_the_picture_has_the_ids_of_diff_format_svg(self):
        page = self.opened()
        status, svg = coordlens("diff", LEAKING, self.fixed, "--format", "svg")
        self.assertEqual(status, 0)
        expected = element_ids(svg)
        self.assertTrue(any(i.startswith("n") for i in expected))
        drawn = sorted(page.eval_on_selector_all("#compare-picture svg [id]", "elements => elements.map(e => e.id)"))
        self.assertEqual(drawn, expected)
        # Each listed leak names a node that is in the picture.
        for node in page.eval_on_selector_all("#compare-fixed li a", "links => links.map(a => a.dataset.node)"):
            self.assertIn(node, drawn)

    def test_piled_up_paths_have_a_list_of_their_own(self):
        page = self.opened()
        expect(page.locator("#compare-piled h3")).to_have_text("Piled up (0)")
        expect(page.locator("#compare-summary")).to_contain_text("0 piled up")

    def test_an_unknown_run_in_the_address_says_so(self):
        page = self.browser.page(self.url.split("#")[0] + "#compare&a=nope&b=deliveroo-fixed")
        expect(page.locator("#compare-error")).to_contain_text("A: no session with run id nope")
        self.assertEqual([e for e in page.errors if "404" not in e], [])


BROWSER = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "browser-tabs")


class PileUpCompareTests(ComparedRuns):
    """The browser sample's fixed run against its leaking one: a tab panel coordinator per switch, never let go, has
    no screen to dismiss; the comparison lists the pile-up with both counts."""

    @classmethod
    def runs(cls):
        return os.path.join(BROWSER, "fixed.ndjson"), os.path.join(BROWSER, "stream.ndjson")

    def test_the_tab_panels_are_listed_as_piled_up(self):
        page = self.browser.page(self.url)
        page.wait_for_selector("#compare-picture svg")
        expect(page.locator("#compare-piled h3")).to_have_text("Piled up (1)")
        expect(page.locator("#compare-piled li")).to_contain_text("TabPanelCoordinator: 1 → 9 in use")
        expect(page.locator("#compare-piled li .path")).to_have_text("under BrowserCoordinator/TabTrayCoordinator")
        expect(page.locator("#compare-summary")).to_contain_text("1 piled up")
        self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
