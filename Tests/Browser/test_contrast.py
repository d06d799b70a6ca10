"""The picture's text on every verdict's fill reads at 4.5:1 at least (WCAG AA), light and dark, computed from the
page's own palette (tree-canvas.js, which mirrors NodeLook.swift and inspector.css's dark mode): axe cannot measure
text inside SVG or a canvas."""
import os
import re
import unittest

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "CoordinatorLensPage", "Page")


def luminance(colour):
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def palette(source, name):
    """The `const NAME = { key: [fill, outline, text], … }` entries of tree-canvas.js, with `...LIGHT` spread in."""
    body = re.search(r"const " + name + r" = \{(.*?)\n\};", source, re.S).group(1)
    entries = {}
    if "...LIGHT" in body:
        entries.update(palette(source, "LIGHT"))
    for key, fill, outline, text in re.findall(r'"?([\w-]+)"?: \["(#[0-9a-f]{6})", "(#[0-9a-f]{6})", "(#[0-9a-f]{6})"\]', body):
        entries[key] = (fill, outline, text)
    return entries


class PictureContrastTests(unittest.TestCase):
    def test_every_verdicts_text_reads_on_its_fill_light_and_dark(self):
        source = open(os.path.join(PAGE, "tree-canvas.js")).read()
        for name in ("LIGHT", "DARK"):
            entries = palette(source, name)
            self.assertGreaterEqual(set(entries), {"alive", "pending", "retained", "released", "late", "summary", "omission"}, name)
            for key, (fill, _, text) in entries.items():
                with self.subTest(palette=name, verdict=key):
                    self.assertGreaterEqual(contrast(fill, text), 4.5, f"{text} on {fill}: {contrast(fill, text):.2f}:1")

    def test_the_retained_fill_is_the_pictures(self):
        # The canvas and the SVG draw a leak alike: the page's retained fill is NodeLook's.
        look = open(os.path.join(PAGE, "..", "..", "CoordinatorLensRendering", "DOT", "NodeLook.swift")).read()
        fill = re.search(r'static let leakFill = "(#[0-9a-f]{6})"', look).group(1)
        source = open(os.path.join(PAGE, "tree-canvas.js")).read()
        self.assertEqual(palette(source, "LIGHT")["retained"][0], fill)
        self.assertIn(f"--retained: {fill};", open(os.path.join(PAGE, "inspector.css")).read())


if __name__ == "__main__":
    unittest.main()
