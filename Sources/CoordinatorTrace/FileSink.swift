import Foundation

/// Appends the stream to a file; it is opened on the first delivery, on the writer thread.
public final class FileSink: TraceSink, @unchecked Sendable {
    /// The file's path.
    public let path: String
    private var handle: FileHandle?
    private var failed = false

    /// Nothing is opened yet: the file is created if needed and appended to on the first delivery.
    public init(path: String) {
        self.path = path
    }

    public func deliver(_ lines: ArraySlice<[UInt8]>) -> Int {
        guard let handle = openIfNeeded() else { return 0 }
        var data = Data()
        for line in lines { data.append(contentsOf: line) }
        do {
            try write(data, to: handle)
            return lines.count
        } catch {
            report("cannot write to \(path): \(error.localizedDescription)")
            return 0
        }
    }

    public func close() {
        try? handle?.close()
        handle = nil
    }

    private func openIfNeeded() -> FileHandle? {
        if let handle { return handle }
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let opened = FileHandle(forWritingAtPath: path) else {
            report("cannot open \(path) for writing; events are kept in a bounded backlog, then dropped")
            return nil
        }
        opened.seekToEndOfFile()
        handle = opened
        return opened
    }

    /// The throwing write where the OS has it (iOS 13.4, macOS 10.15.4); the hook still supports iOS 13.0.
    private func write(_ data: Data, to handle: FileHandle) throws {
        if #available(iOS 13.4, macOS 10.15.4, tvOS 13.4, watchOS 6.2, *) {
            try handle.write(contentsOf: data)
        } else {
            handle.write(data)
        }
    }

    private func report(_ message: String) {
        guard !failed else { return }
        failed = true
        FileHandle.standardError.write(Data("CoordinatorTrace: \(message)\n".utf8))
    }
}
