import CoordinatorLens
import CoordinatorLensRendering

/// `coordlens diff A B -o diff.html`: the diff as one self-contained HTML file, the picture `diff --format svg` draws
/// (the same element ids) beside the lists of new, fixed and still-leaking coordinators, each linking to its node in
/// the picture. No script and nothing fetched: its Content-Security-Policy forbids every request.
package enum DiffReport {
    /// The report of `diff`, whose inputs are named `sourceA` and `sourceB`; `all` and `grouping` as for the picture.
    package static func html(
        _ diff: TreeDiff, sourceA: String, sourceB: String, all: Bool = false, grouping: Bool = true
    ) throws(RenderError) -> [UInt8] {
        let svg = String(decoding: try DiffRenderer.render(diff, format: .svg, sourceA: sourceA, sourceB: sourceB, all: all, grouping: grouping), as: UTF8.self)
        // The picture's own XML prologue and doctype do not belong inside an HTML body.
        let inline = svg.range(of: "<svg").map { String(svg[$0.lowerBound...]) } ?? svg
        let style = String(decoding: PackageResources.diff_report_css + PackageResources.picture_dark_css, as: UTF8.self)
        let summary = diff.summary
        func text(_ raw: String) -> String { XMLText.escaped(TextSanitizer.visible(raw)) }
        func list(_ title: String, _ kind: String, mark: String, _ entries: [Int], node: (TreeDiff.Entry) -> SnapshotNode?) -> String {
            var out = "<section class=\"\(kind)\"><h2>\(text(title)) (\(entries.count))</h2><ul>"
            if entries.isEmpty { out += "<li class=\"empty\">none</li>" }
            for index in entries {
                let entry = diff.entries[index]
                let name = node(entry).map { "\($0.type)#\($0.id)" } ?? entry.type
                let path = diff.path(of: index)
                out += "<li><a href=\"#n\(index)\"><span class=\"mark\">\(mark)</span> \(text(name))</a> "
                out += "<span class=\"count\">\(text("\(path)"))</span></li>"
            }
            return out + "</ul></section>"
        }
        let indices = diff.entries.indices
        let newLeaks = indices.filter { diff.entries[$0].isNewLeak }
        let fixed = indices.filter { diff.entries[$0].isFixedLeak }
        let still = indices.filter { diff.entries[$0].isStillLeaking }
        // Screenless coordinators that pile up are no leak to the verdicts, so they get a list of their own, as the
        // terminal's diff and the page's Compare give them.
        let pileUps = PileUp.find(in: PathCensus(diff.b), against: PathCensus(diff.a))
        var piled = "<section class=\"piled\"><h2>Piled up (\(pileUps.count))</h2><ul>"
        if pileUps.isEmpty { piled += "<li class=\"empty\">none</li>" }
        for pileUp in pileUps {
            let place = pileUp.path.parentPath.isEmpty ? "as roots" : "under \(pileUp.path.parentPath)"
            piled += "<li><span class=\"mark\">▲</span> \(text("\(pileUp.path.type): \(pileUp.allowed) → \(pileUp.count) in use"))"
            piled += " <span class=\"count\">\(text(place))</span></li>"
        }
        piled += "</ul></section>"
        let title = "\(sourceA) → \(sourceB)"
        var page = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        page += #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">"# + "\n"
        page += "<title>CoordinatorLens diff: \(text(title))</title>\n<style>\n\(style)</style>\n</head>\n<body>\n<header>\n"
        page += "<h1>\(text(title))</h1>\n"
        page += "<p>A: \(text("\(sourceA) · \(diff.a.app) run \(diff.a.run)"))</p>\n<p>B: \(text("\(sourceB) · \(diff.b.app) run \(diff.b.run)"))</p>\n"
        let newLeaksText = "\(summary.newLeaks) new \(summary.newLeaks == 1 ? "leak" : "leaks")"
        page += "<p id=\"diff-summary\">\(newLeaksText), \(summary.fixedLeaks) fixed, \(summary.stillLeaking) still leaking, "
        page += "\(pileUps.count) piled up; "
        page += "\(summary.added) added, \(summary.gone) gone, \(summary.changed) changed, \(summary.unchanged) unchanged</p>\n</header>\n<main>\n<aside>\n"
        page += list("New leaks", "new", mark: "!", newLeaks, node: diff.nodeB) + "\n"
        page += list("Fixed leaks", "fixed", mark: "✓", fixed, node: diff.nodeA) + "\n"
        page += list("Still leaking", "still", mark: "=", still, node: diff.nodeB) + "\n"
        page += piled + "\n"
        page += "</aside>\n<div id=\"diff-picture\">\n" + zoomChoice + "<div class=\"diff-svg\">\n\(inline)\n</div>\n</div>\n</main>\n</body>\n</html>\n"
        return Array(page.utf8)
    }

    /// The picture's zoom, as radio buttons the style sheet reads (`:has(#zoom-fit:checked)`): the report runs no script.
    static let zoomChoice = """
        <fieldset class="zoom"><legend>Zoom</legend>
        <label><input type="radio" name="zoom" id="zoom-fit"> Fit</label>
        <label><input type="radio" name="zoom" id="zoom-1" checked> 100 %</label>
        <label><input type="radio" name="zoom" id="zoom-2"> 200 %</label>
        </fieldset>

        """
}
