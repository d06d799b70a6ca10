import CoordinatorLens
import Testing

@Suite struct TextSanitizerTests {
    @Test(arguments: [
        ("Plain/Type<Int> é😀", "Plain/Type<Int> é😀"),
        ("a\nb\r\tc", #"a\nb\r\tc"#),
        ("\u{1B}[31mred\u{1B}[0m", #"\u{1B}[31mred\u{1B}[0m"#),
        ("nul\u{0}del\u{7F}csi\u{9B}", #"nul\u{0}del\u{7F}csi\u{9B}"#),
        ("line\u{2028}para\u{2029}", #"line\u{2028}para\u{2029}"#),
        ("Admin\u{202E}rotanidrooC", #"Admin\u{202E}rotanidrooC"#),
        ("a\u{2066}b\u{2069}c\u{200F}d\u{61C}", #"a\u{2066}b\u{2069}c\u{200F}d\u{61C}"#),
    ])
    func controlCharactersBecomeVisibleEscapes(input: String, expected: String) {
        let shown = TextSanitizer.visible(input)
        #expect(shown == expected)
        #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.isBidiControl })
    }
}
