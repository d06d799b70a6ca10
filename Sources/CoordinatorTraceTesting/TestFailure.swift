#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Where a failing assertion was written, for the test framework to point at.
struct FailureLocation {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
}

/// Fails the running test: through Swift Testing's `Issue.record` inside a Swift Testing test, through `XCTFail`
/// otherwise.
enum TestFailure {
    static func record(_ message: String, at location: FailureLocation) {
        #if canImport(Testing)
        if Test.current != nil {
            let source = SourceLocation(
                fileID: "\(location.fileID)", filePath: "\(location.filePath)", line: Int(location.line), column: Int(location.column)
            )
            Issue.record(Comment(rawValue: message), sourceLocation: source)
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: location.filePath, line: location.line)
        #else
        print("\(location.filePath):\(location.line): error: \(message)")
        #endif
    }
}
