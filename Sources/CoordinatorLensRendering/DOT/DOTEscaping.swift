import CoordinatorLens

/// Turns user text (type names, screens, app names, run ids) into text Graphviz shows verbatim and cannot be broken by.
///
/// User text only ever goes into labels and tooltips: never into node ids, URLs, `id` or `class` attributes, and no
/// `shape=record` is used, so `{ } | < >` mean nothing to Graphviz.
package enum DOTEscaping {
    /// The text with every character dropped that has no business in a label: control characters (newlines and tabs
    /// included) and U+FFFE/U+FFFF, which XML, and so Graphviz's HTML-like label parser and any SVG, rejects.
    package static func printable(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where isPrintable(scalar) {
            kept.append(scalar)
        }
        return String(kept)
    }

    /// The most characters of one piece of user text a drawing shows: libgvc takes about a minute to lay out a 10 MB
    /// label, and nobody reads one. The JSON outputs keep the whole text.
    package static let maximumLabelCharacters = 200

    /// Text for inside an HTML-like label (`label=<…>`): markup characters become entities and backslashes are doubled;
    /// past `maximumLabelCharacters` printable characters the text is cut and ends in `…`.
    package static func htmlLabelText(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(Swift.min(text.utf8.count, 4 * maximumLabelCharacters))
        var shown = 0
        for scalar in text.unicodeScalars where isPrintable(scalar) {
            guard shown < maximumLabelCharacters else {
                escaped += "…"
                break
            }
            shown += 1
            if let entity = XMLText.markupEntity(for: scalar) {
                escaped += entity
            } else if scalar == "\\" {
                // Graphviz expands \N, \G, \L, \n … even inside HTML-like labels; a doubled backslash comes out as one.
                escaped += "\\\\"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A name (app, type) for inside an HTML-like label, as `htmlLabelText` makes it, or `(unnamed)` when nothing
    /// printable is left: an empty `<B></B>` is a syntax error to Graphviz, and a blank name shows nothing anyway.
    package static func htmlName(_ text: String) -> String {
        let escaped = htmlLabelText(text)
        return escaped.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) ? "(unnamed)" : escaped
    }

    /// A DOT double-quoted string, quotes included, for a plain `label`: Graphviz shows exactly `text` (cut like
    /// `htmlLabelText`).
    package static func quotedLabel(_ text: String) -> String {
        quotedLabel(lines: [text])
    }

    /// A plain `label` of several lines, centred one under another, each shown verbatim: `\n` between them, which
    /// Graphviz reads as a centred line break; within a line what `tooltip` drops is dropped, and a backslash is
    /// doubled for the label escapes (`\N`, `\L`, `\n` …) Graphviz applies after the DOT parser.
    package static func quotedLabel(lines: [String]) -> String {
        quoted(lines, backslash: "\\\\")
    }

    /// A DOT double-quoted string for a `tooltip`, quotes included: the lines joined with `\n`, which Graphviz writes
    /// as a newline. Within a line control characters are dropped (no line break but ours), `&` becomes `&amp;`
    /// (Graphviz passes entities through into the SVG's `xlink:title`, and plain labels decode them), and a backslash
    /// becomes four: Graphviz unescapes a tooltip twice, once as a string and once expanding `\N`, `\G` and the like.
    package static func tooltip(_ lines: [String]) -> String {
        quoted(lines, backslash: "\\\\\\\\")
    }

    private static func quoted(_ lines: [String], backslash: String) -> String {
        var escaped = "\""
        for (index, line) in lines.enumerated() {
            if index > 0 { escaped += "\\n" }
            // Most lines are short printable ASCII with nothing to escape: taken whole, not a scalar at a time (at
            // 100,000 coordinators the scalar loop was a fifth of writing the DOT text).
            if line.utf8.count <= maximumLabelCharacters, line.utf8.allSatisfy(needsNoEscape) {
                escaped += line
                continue
            }
            var shown = 0
            for scalar in line.unicodeScalars where isPrintable(scalar) {
                // Each line is cut like an HTML-like label: a 10 MB type name costs libgvc as much here as there.
                guard shown < maximumLabelCharacters else {
                    escaped += "…"
                    break
                }
                shown += 1
                // Only `&` becomes a reference: Graphviz escapes the other markup characters itself when it writes
                // SVG, but passes a reference through as it is, so a name spelling one would otherwise be decoded.
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += backslash
                case "&": escaped += ampersandReference
                default: escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped + "\""
    }

    /// `&` as a reference, from the one markup table (`XMLText`).
    private static let ampersandReference = XMLText.markupEntity(for: "&")!

    /// Printable ASCII that a quoted string shows as itself.
    private static func needsNoEscape(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "&")
    }

    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        // Printable ASCII, nearly every character of a real type name, needs no Unicode property lookup: at 100,000
        // coordinators that lookup was the biggest single cost of writing the DOT text.
        if scalar.value >= 0x20 && scalar.value < 0x7F { return true }
        if scalar.value == 0xFFFE || scalar.value == 0xFFFF { return false }
        // A bidirectional control would reorder the rest of the label (the text outputs spell it out instead).
        if TextSanitizer.isBidirectionalControl(scalar) { return false }
        return scalar.properties.generalCategory != .control
    }
}
