import CZlib
import Foundation

/// gzip, for the page's large answers to browsers that accept it (`Accept-Encoding: gzip`): a model of a big session
/// is tens of megabytes of JSON, a few of them compressed, and it is compressed once however many pages fetch it.
enum Gzip {
    /// Bodies shorter than this go out as they are: compressing them saves less than it costs.
    static let threshold = 16 * 1_024

    /// `bytes` as a gzip stream (fast level: JSON and SVG shrink several times over even so); nil if zlib fails.
    static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32 = 1) -> [UInt8]? {
        var stream = z_stream()
        guard coordlens_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(bytes.count)
            stream.next_out = out.baseAddress
            stream.avail_out = uInt(out.count)
            return deflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Whether an `Accept-Encoding` header takes gzip (and does not refuse it with `q=0`).
    static func accepted(by header: String?) -> Bool {
        guard let header else { return false }
        return header.lowercased().split(separator: ",").contains { part in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.first == "gzip" || fields.first == "*" else { return false }
            return !fields.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" || $0 == "q=0.0" }
        }
    }
}
