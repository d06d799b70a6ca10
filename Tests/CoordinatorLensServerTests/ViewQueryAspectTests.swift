import Testing

@testable import CoordinatorLensServer

/// The page's `aspect` is snapped to a few shapes, so that pages of nearly one size share the server's answers.
@Suite struct ViewQueryAspectTests {
    static func aspect(_ text: String) -> Double?? {
        switch ViewQuery.read(run: "r", ["aspect": text]) {
        case .success(let view): view.aspect
        case .failure: nil
        }
    }

    @Test func framesOfNearlyOneShapeAskForOnePicture() {
        // 2^(3/4): a 16:10 desktop frame and a 1.7 one are one shape; a phone's 0.63 is 2^(-3/4).
        #expect(Self.aspect("1.6") == 1.681_792_830_507_429)
        #expect(Self.aspect("1.7") == Self.aspect("1.6"))
        #expect(Self.aspect("0.63") == 0.594_603_557_501_360_5)
        #expect(Self.aspect("1") == 1)
        // Past 4 or under 1/4 a picture is a strip whatever it is wrapped to.
        #expect(Self.aspect("100") == 4)
        #expect(Self.aspect("0.001") == 0.25)
        #expect(Self.aspect("") == .some(nil), "no aspect: the default shape")
    }

    @Test func aShapeThatIsNoPositiveNumberIsRefusedByName() {
        for text in ["0", "-1", "wide", "nan", "inf"] {
            guard case .failure(let problem) = ViewQuery.read(run: "r", ["aspect": text]) else {
                Issue.record("aspect=\(text) is refused")
                continue
            }
            #expect(problem.message.contains("`aspect`"))
        }
    }
}
