import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `-o` onto a device, a symlink to one or a FIFO writes there in place (as root, `baseline -o /dev/null` once
/// renamed a regular file over /dev/null); a plain file is still replaced whole, by a rename.
@Suite struct DeviceOutputCommandTests {
    static let recording = PackageRoot.path("samples/deliveroo-traditional/stream.ndjson")

    /// Each way of writing `-o`: baseline's, a result written at once (diff's, as growth's) and a picture streamed from libgvc
    /// (render; an SVG, since its JSON lists holders in no fixed order).
    static let commands: [[String]] = [
        ["baseline", recording],
        ["diff", PackageRoot.path("samples/checkout-fix/before.ndjson"), PackageRoot.path("samples/checkout-fix/after.ndjson"), "--format", "json"],
        ["render", recording, "--format", "svg"],
    ]

    /// What stands at `path` itself (`lstat`), or, following symlinks, what they lead to (`stat`).
    static func kind(_ path: String, following: Bool = false) -> mode_t? {
        var status = stat()
        guard (following ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    static func inode(_ path: String) -> ino_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_ino : nil
    }

    /// `makedev(3)`, which Swift does not import (a macro): glibc's encoding, or Darwin's.
    static func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
        #if canImport(Glibc)
        let (major, minor) = (dev_t(major), dev_t(minor))
        return (major & 0xfff) << 8 | (major & ~0xfff) << 32 | minor & 0xff | (minor & ~0xff) << 12
        #else
        return dev_t(bitPattern: major << 24 | minor)
        #endif
    }

    /// What the FIFO's reader `descriptor` (non-blocking) holds now.
    static func drain(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { bytes += chunk[..<count] } else if count < 0, errno == EINTR { continue } else { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func outputFilesKeepDevicesAndReplacePlainFilesWhole() async throws {
        let folder = try TemporaryFolder("coordlens-devices")
        let (device, link, fifo) = (folder.file("null"), folder.file("link"), folder.file("fifo"))
        let devices = mknod(device, S_IFCHR | 0o666, Self.makedev(1, 3)) == 0
        if devices {
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: device)
        } else {
            print("skipped the device cases: mknod \(device) failed (\(String(cString: strerror(errno)))); making a device needs root")
        }
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")

        for arguments in Self.commands {
            let command = arguments[0]
            let expected = try await BuiltProduct.coordlens.runAsync(arguments + ["-o", "-"])
            try #require(expected.status == 0, "\(command): \(expected.standardError)")

            for path in devices ? [device, link] : [] {
                let run = try await BuiltProduct.coordlens.runAsync(arguments + ["-o", path], timeout: 60)
                #expect(run.status == 0, "\(command) -o \(path): \(run.standardError)")
                #expect(Self.kind(device) == S_IFCHR, "\(command) -o \(path) left the device one")
                #expect(Self.kind(link) == S_IFLNK && Self.kind(link, following: true) == S_IFCHR, "\(command) -o \(path)")
            }

            // A FIFO with a reader: the reader gets what standard output would have.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            try #require(reader >= 0)
            let piped = try await BuiltProduct.coordlens.runAsync(arguments + ["-o", fifo], timeout: 60)
            let received = Self.drain(reader)
            close(reader)
            #expect(piped.status == 0, "\(command) -o fifo: \(piped.standardError)")
            #expect(Self.kind(fifo) == S_IFIFO, "\(command) -o fifo left it a FIFO")
            #expect(received == expected.standardOutput, "\(command) -o fifo")

            // A plain file holding more than the result: replaced whole, by a rename (a new inode), nothing left beside.
            let file = folder.file("\(command).out")
            try String(repeating: "an earlier, longer file\n", count: 5_000).write(toFile: file, atomically: false, encoding: .utf8)
            let earlier = Self.inode(file)
            let written = try await BuiltProduct.coordlens.runAsync(arguments + ["-o", file], timeout: 60)
            #expect(written.status == 0, "\(command) -o file: \(written.standardError)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == expected.standardOutput, "\(command) -o file")
            #expect(Self.inode(file) != earlier, "\(command) -o file renamed a new file into place")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("partial") }
            #expect(left.isEmpty, "\(command): \(left)")
        }
    }
}
