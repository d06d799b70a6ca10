"""A leak row's Copy copies what the row shows; Open opens the file's absolute path, and a call site's title names
it. A base class that forwards its caller's `file` and `line` but not `filePath` sends its own path beside the
caller's file (older hooks wrote it; other producers may): the page takes `path` only when its file name is the row's
file, so the user lands on the line the row names, not in the wrapper, and where no path of that file is known Open
says why it cannot open it. Real `coordlens view` processes, the system Chromium."""
import unittest

from playwright.sync_api import expect

from inspector_support import ViewedRecording, write_recording

WRAPPER = "/src/Sources/Shop/BaseCoordinator+CoordinatorLens.swift"


def shop():
    """Two leaks under the app: Settings added at Home's line 15 with the wrapper's path (a mismatch), Profile added
    at its own line with its own path."""
    events = [
        {"event": "add", "id": 1, "type": "AppCoordinator", "file": "Shop/AppCoordinator.swift", "line": 3,
         "path": "/src/Sources/Shop/AppCoordinator.swift"},
        {"event": "add", "id": 2, "type": "SettingsCoordinator", "parent": 1, "file": "Shop/HomeCoordinator.swift", "line": 15,
         "function": "showSettings()", "path": WRAPPER},
        {"event": "dismiss", "id": 2},
        {"event": "add", "id": 3, "type": "ProfileCoordinator", "parent": 1, "file": "Shop/ProfileFlow.swift", "line": 8,
         "function": "start()", "path": "/src/Sources/Shop/ProfileFlow.swift"},
        {"event": "dismiss", "id": 3},
    ]
    lines = [{"event": "session", "v": 1, "app": "Shop", "run": "paths-1"}]
    lines += [{"seq": seq, "t": seq * 0.01, **event} for seq, event in enumerate(events, start=1)]
    lines.append({"seq": len(events) + 1, "t": 10, "event": "end"})
    return write_recording(lines)


class SitePathTests(ViewedRecording):
    """Without `--source-root` the page has each site's full path; an editor URL makes Open a link."""

    view_arguments = ("--editor-url", "vscode://file/{path}:{line}")

    @classmethod
    def make_recording(cls):
        return shop()

    def row(self, page, type_name):
        page.wait_for_selector("#leaks li.leak")
        return page.locator(f'#leaks li.leak[data-fingerprint*="{type_name}"]')

    def copied(self, page, button):
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        button.click()
        expect(button).to_have_text("Copied")
        return button.get_attribute("data-copied"), page.evaluate("() => navigator.clipboard.readText()")

    def test_a_path_of_another_file_gives_way_to_the_rows_file(self):
        page = self.browser.page(self.url)
        row = self.row(page, "SettingsCoordinator")
        expect(row.locator("code.site")).to_have_text("Shop/HomeCoordinator.swift:15")
        # No path of Home's file is known (only the wrapper's): Open cannot go anywhere, and says why.
        self.assertEqual(row.locator("a.open-editor").count(), 0)
        expect(row.locator("button.open-editor")).to_be_disabled()
        self.assertIn("does not carry", row.locator("button.open-editor").get_attribute("title"))
        self.assertEqual(self.copied(page, row.locator("button.copy")), ("Shop/HomeCoordinator.swift:15",) * 2)
        self.assertNotIn(WRAPPER, page.locator("#leaks").inner_html())
        # The details' call site names the same file, and has the same Copy and Open.
        row.locator(".leak-head").click()
        expect(page.locator("#details dd[data-field=type]")).to_have_text("SettingsCoordinator")
        added = page.locator("#details dd[data-field=added] .site-row")
        self.assertEqual(added.locator("code.site").get_attribute("title"), "added at Shop/HomeCoordinator.swift:15")
        expect(added.locator("button.open-editor")).to_be_disabled()
        self.assertEqual(self.copied(page, added.locator("button.copy")), ("Shop/HomeCoordinator.swift:15",) * 2)
        expect(added.locator(".function")).to_have_text("showSettings()")
        self.assertEqual(page.errors, [])

    def test_a_path_of_the_same_file_is_still_used(self):
        page = self.browser.page(self.url)
        row = self.row(page, "ProfileCoordinator")
        expect(row.locator("code.site")).to_have_text("Shop/ProfileFlow.swift:8")
        # One slash after file: the template's own, the absolute path's first taken for it.
        self.assertEqual(row.locator("a.open-editor").get_attribute("href"), "vscode://file/src/Sources/Shop/ProfileFlow.swift:8")
        self.assertEqual(self.copied(page, row.locator("button.copy")), ("Shop/ProfileFlow.swift:8",) * 2, "Copy copies what the row shows")
        row.locator(".leak-head").click()
        expect(page.locator("#details dd[data-field=type]")).to_have_text("ProfileCoordinator")
        added = page.locator("#details dd[data-field=added] .site-row")
        self.assertEqual(added.locator("code.site").get_attribute("title"), "added at /src/Sources/Shop/ProfileFlow.swift:8")
        self.assertEqual(added.locator("a.open-editor").get_attribute("href"), "vscode://file/src/Sources/Shop/ProfileFlow.swift:8")
        self.assertEqual(page.errors, [])


class SourceRootSitePathTests(SitePathTests):
    """With `--source-root`, a path of the same file is printed relative to it, and one of another file never: the
    row's file stays; an editor command is copied with the same file."""

    view_arguments = ("--source-root", "/src", "--editor-url", "code --goto {path}:{line}")

    def test_a_path_of_another_file_gives_way_to_the_rows_file(self):
        page = self.browser.page(self.url)
        row = self.row(page, "SettingsCoordinator")
        expect(row.locator("code.site")).to_have_text("Shop/HomeCoordinator.swift:15")
        self.assertEqual(self.copied(page, row.locator("button.copy:not(.command)")), ("Shop/HomeCoordinator.swift:15",) * 2)
        self.assertEqual(row.locator("button.copy.command").count(), 0, "no command for a file whose path is unknown")
        expect(row.locator("button.open-editor")).to_be_disabled()
        self.assertNotIn("BaseCoordinator", page.locator("#leaks").inner_html())
        self.assertEqual(page.errors, [])

    def test_a_path_of_the_same_file_is_still_used(self):
        page = self.browser.page(self.url)
        row = self.row(page, "ProfileCoordinator")
        # --source-root prints the path relative to /src, and the row shows it so.
        expect(row.locator("code.site")).to_have_text("Sources/Shop/ProfileFlow.swift:8")
        self.assertEqual(self.copied(page, row.locator("button.copy:not(.command)")), ("Sources/Shop/ProfileFlow.swift:8",) * 2)
        # The command opens the file wherever it runs: its absolute path.
        self.assertEqual(self.copied(page, row.locator("button.copy.command")), ("code --goto /src/Sources/Shop/ProfileFlow.swift:8",) * 2)
        self.assertEqual(page.errors, [])


class RelativePathSitePathTests(ViewedRecording):
    """A hook with `TraceOptions.sourceRoot` sends paths relative to the checkout: Open puts `--source-root` before
    them, and without it says it needs it."""

    view_arguments = ("--source-root", "/work/shop", "--editor-url", "vscode://file/{path}:{line}")

    @classmethod
    def make_recording(cls):
        lines = [{"event": "session", "v": 1, "app": "Shop", "run": "relative-1"},
                 {"seq": 1, "t": 0, "event": "add", "id": 1, "type": "AppCoordinator", "file": "Shop/AppCoordinator.swift",
                  "line": 3, "path": "Sources/Shop/AppCoordinator.swift"},
                 {"seq": 2, "t": 0.1, "event": "add", "id": 2, "type": "ProfileCoordinator", "parent": 1,
                  "file": "Shop/ProfileFlow.swift", "line": 8, "path": "Sources/Shop/ProfileFlow.swift"},
                 {"seq": 3, "t": 0.2, "event": "dismiss", "id": 2},
                 {"seq": 4, "t": 10, "event": "end"}]
        return write_recording(lines)

    row = SitePathTests.row
    copied = SitePathTests.copied

    def test_open_puts_the_source_root_before_a_path_relative_to_the_checkout(self):
        page = self.browser.page(self.url)
        row = self.row(page, "ProfileCoordinator")
        expect(row.locator("code.site")).to_have_text("Sources/Shop/ProfileFlow.swift:8")
        self.assertEqual(row.locator("a.open-editor").get_attribute("href"), "vscode://file/work/shop/Sources/Shop/ProfileFlow.swift:8")
        self.assertEqual(self.copied(page, row.locator("button.copy")), ("Sources/Shop/ProfileFlow.swift:8",) * 2)
        self.assertEqual(page.errors, [])


if __name__ == "__main__":
    unittest.main()
