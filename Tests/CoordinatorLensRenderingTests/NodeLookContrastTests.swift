import CoordinatorLens
import Foundation
import Testing

@testable import CoordinatorLensRendering

/// Every box's text reads on its fill at 4.5:1 at least (WCAG AA): the red of a leak carried white text at 3.9:1, a
/// released box's grey at 4.3:1.
@Suite struct NodeLookContrastTests {
    static func contrast(_ a: String, _ b: String) -> Double {
        func luminance(_ colour: String) -> Double {
            let value = Int(colour.dropFirst(), radix: 16)!
            let linear = [value >> 16, value >> 8, value].map { channel -> Double in
                let c = Double(channel & 0xFF) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test(arguments: Verdict.allCases)
    func aVerdictsTextReadsOnItsFill(verdict: Verdict) {
        let look = NodeLook(verdict)
        #expect(Self.contrast(look.text, look.fill) >= 4.5, "\(look.text) on \(look.fill): \(Self.contrast(look.text, look.fill))")
    }

    @Test(arguments: [DiffMarker.added, .gone, .newLeak, .fixedLeak, .unchanged, .changed])
    func aDiffMarkersTextReadsOnItsFill(marker: DiffMarker) {
        for stillLeaking in [false, true] {
            let look = NodeLook(marker, stillLeaking: stillLeaking)
            #expect(Self.contrast(look.text, look.fill) >= 4.5, "\(marker) \(look.text) on \(look.fill)")
        }
    }
}
