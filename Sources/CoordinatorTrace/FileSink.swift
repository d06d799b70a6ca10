import Foundation

/// Writes the stream to a file: one run per file unless appending was asked for.
public final class FileSink: TraceSink, @unchecked Sendable {
    /// The file's path.
    public let path: String
    /// Whether this run goes after what the file already holds, rather than replacing it.
    public let appending: Bool
    private var handle: FileHandle?
    private var failed = false
    /// Lines joined for one write, kept to reuse its storage.
    private var joined: [UInt8] = []
    static let writeBytes = 1 << 20

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
        var delivered = 0
        var index = lines.startIndex
        while index < lines.endIndex {
            // Up to 1 MiB of lines per write: one system call, not one per line.
            joined.removeAll(keepingCapacity: true)
            var ends: [Int] = []
            while index < lines.endIndex, joined.isEmpty || joined.count + lines[index].count <= Self.writeBytes {
                joined.append(contentsOf: lines[index])
                ends.append(joined.count)
                index += 1
            }
            let written = write(joined, to: handle.fileDescriptor)
            let whole = ends.prefix { $0 <= written }.count
            delivered += whole
            guard written == joined.count else {
                // The disk refused part of it: the file keeps whole lines only, and the rest is offered again.
                let cut = written - (whole > 0 ? ends[whole - 1] : 0)
                if cut > 0 { _ = ftruncate(handle.fileDescriptor, lseek(handle.fileDescriptor, 0, SEEK_CUR) - off_t(cut)) }
                _ = lseek(handle.fileDescriptor, 0, SEEK_END)
                report("cannot write to \(path): \(String(cString: strerror(errno)))")
                return delivered
            }
        }
        return delivered
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

    /// Writes `bytes` to `descriptor`, retrying interrupted and partial writes; returns how many bytes were written
    /// (fewer on an error, which `errno` names).
    private func write(_ bytes: [UInt8], to descriptor: Int32) -> Int {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if result > 0 {
                written += result
            } else if result < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return written
    }

    private func report(_ message: String) {
        guard !failed else { return }
        failed = true
        FileHandle.standardError.write(Data("CoordinatorTrace: \(message)\n".utf8))
    }
}
