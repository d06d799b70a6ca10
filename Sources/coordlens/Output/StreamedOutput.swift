import Foundation

/// Standard output written a megabyte at a time: for reports far bigger than what they describe, which are built in
/// pieces and never held whole.
struct StreamedOutput {
    private var buffer: [UInt8] = []
    private static let chunkBytes = 1 << 20

    mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.chunkBytes { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
