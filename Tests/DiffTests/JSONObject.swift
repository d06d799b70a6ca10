import Foundation

/// JSON read back the way a tool would: as untyped objects, so tests check the keys a consumer relies on.
enum JSONObject {
    static func encode(_ value: some Encodable) throws -> [String: Any] {
        try parse(Array(JSONEncoder().encode(value)))
    }

    static func parse(_ bytes: [UInt8]) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw NotAnObject()
        }
        return object
    }

    struct NotAnObject: Error {}
}
