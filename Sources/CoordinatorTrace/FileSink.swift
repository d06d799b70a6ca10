import Foundation

/// Writes the stream to a file: one run per file unless appending was asked for.
public final class FileSink: TraceSink, @unchecked Sendable {
    /// The file's path.
    public let path: String
    /// Whether this run goes after what the file already holds, rather than replacing it.
    public let appending: Bool
    private var handle: FileHandle?
    private var failed = false

    /// Starts the file afresh at once (emptied or created), so that a rerun into the same path, even one that quits
    /// before its first event, never leaves the previous run in it to be judged again; with `appending`, the file is
    /// kept and this run goes after it, said once on standard error. It is opened for writing on the first delivery,
    /// on the writer thread.
    public init(path: String, appending: Bool = false) {
        self.path = path
        self.appending = appending
        if !appending, !FileManager.default.createFile(atPath: path, contents: nil) {
            report("cannot create \(path); events are kept in a bounded backlog, then dropped")
        }
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
        let earlier = opened.seekToEndOfFile()
        if appending, earlier > 0 {
            FileHandle.standardError.write(
                Data(
                    "CoordinatorTrace: appending this run to \(path), which holds \(earlier) bytes of earlier runs; coordlens check judges every run in it\n"
                        .utf8))
        }
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
