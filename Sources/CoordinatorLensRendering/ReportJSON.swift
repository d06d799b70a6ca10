import Foundation

/// The one JSON form of every Codable report: sorted keys so outputs diff well, pretty-printed, slashes unescaped,
/// ending in a newline.
package enum ReportJSON {
    /// `value` as that JSON.
    package static func encode(_ value: some Encodable) throws(RenderError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value)) + Array("\n".utf8)
        } catch {
            throw .encodingFailed(message: String(describing: error))
        }
    }
}
