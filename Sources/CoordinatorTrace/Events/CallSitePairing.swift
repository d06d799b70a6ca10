import Foundation

/// Whether a call site's `#filePath` names the same file as its `#fileID`: a wrapper that forwards `file`, `line` and
/// `function` but not `filePath` pairs the caller's file with the wrapper's own path, and the page's Copy and Open
/// would send the user to the wrapper. Such a path is left out (the line keeps the file the user sees), and the first
/// one is said once on standard error. Decided on the writer thread, once per pair of static strings.
struct CallSitePairing {
    private static let slotCount = 256
    private var pairs = [UInt](repeating: 0, count: slotCount * 2)
    private var agrees = [Bool](repeating: false, count: slotCount)
    private var warned = false

    /// Whether `path` may go out beside `file`.
    mutating func pathAgrees(file: StaticString, path: StaticString) -> Bool {
        guard file.hasPointerRepresentation, path.hasPointerRepresentation else { return true }
        let fileAddress = UInt(bitPattern: file.utf8Start)
        let pathAddress = UInt(bitPattern: path.utf8Start)
        let slot = Int(((fileAddress >> 3) ^ (pathAddress >> 5)) % UInt(Self.slotCount))
        if pairs[slot * 2] == fileAddress, pairs[slot * 2 + 1] == pathAddress { return agrees[slot] }
        let agreed = fileAddress == pathAddress || Self.lastComponent(file) == Self.lastComponent(path)
        (pairs[slot * 2], pairs[slot * 2 + 1], agrees[slot]) = (fileAddress, pathAddress, agreed)
        if !agreed, !warned {
            warned = true
            let message =
                "CoordinatorTrace: a call site in \(file) came with the #filePath of another file (\(path)): a wrapper that forwards "
                + "file, line and function must forward filePath too; such paths are left out of the stream\n"
            FileHandle.standardError.write(Data(message.utf8))
        }
        return agreed
    }

    /// The file name after the last slash: `#fileID` is `Module/File.swift`, `#filePath` a full path.
    private static func lastComponent(_ text: StaticString) -> ArraySlice<UInt8> {
        let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return ArraySlice(bytes[start...])
    }
}
