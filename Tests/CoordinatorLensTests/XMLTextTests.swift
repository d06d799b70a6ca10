import CoordinatorLens
import Testing

/// The one markup table: every writer of XML, HTML or Graphviz labels escapes by it, so `'` is spelled one way.
@Suite struct XMLTextTests {
    @Test func eachMarkupCharacterHasOneReference() {
        let table: [(Unicode.Scalar, String)] = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;")]
        for (scalar, reference) in table {
            #expect(XMLText.markupEntity(for: scalar) == reference)
        }
        #expect(XMLText.markupEntity(for: "a") == nil)
        #expect(XMLText.markupEntity(for: "\\") == nil)
    }

    /// A single quote closes a single-quoted attribute: escaped, it cannot.
    @Test func aSingleQuoteCannotCloseAnAttribute() {
        let escaped = XMLText.escaped("O'Brien's <Coordinator> & \"friends\"")
        #expect(escaped == "O&#39;Brien&#39;s &lt;Coordinator&gt; &amp; &quot;friends&quot;")
        #expect(!escaped.contains("'") && !escaped.contains("\""))
    }

    @Test func whitespaceInAttributesAndForbiddenCharacters() {
        #expect(XMLText.escaped("a\tb\nc\rd\u{0}e\u{FFFE}f") == "a&#9;b&#10;c&#13;de" + "f")
    }
}
