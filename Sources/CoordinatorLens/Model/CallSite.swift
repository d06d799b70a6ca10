/// Where the app called the hook.
///
/// Its fields live in one shared, immutable box: a coordinator carries up to four call sites and a recording one per
/// event, and a pointer each instead of 56 bytes each takes a third off what a large tree holds. Setting a field
/// makes a new box.
public struct CallSite: Hashable, Sendable, Codable {
    private final class Fields: Sendable {
        let file: String
        let line: Int
        let function: String?
        let path: String?

        init(file: String, line: Int, function: String?, path: String?) {
            self.file = file
            self.line = line
            self.function = function
            self.path = path
        }
    }

    private var fields: Fields

    /// The source file as the producer names it; the hook sends `#fileID`, `Module/File.swift`.
    public var file: String {
        get { fields.file }
        set { fields = Fields(file: newValue, line: line, function: function, path: path) }
    }
    /// 1-based line in `file`, or 0 when the producer sent none.
    public var line: Int {
        get { fields.line }
        set { fields = Fields(file: file, line: newValue, function: function, path: path) }
    }
    /// The calling function as `#function` spells it; nil when the producer sent none.
    public var function: String? {
        get { fields.function }
        set { fields = Fields(file: file, line: line, function: newValue, path: path) }
    }
    /// The source file's full path when the producer sent one (the hook sends `#filePath`); nil otherwise.
    public var path: String? {
        get { fields.path }
        set { fields = Fields(file: file, line: line, function: function, path: newValue) }
    }

    /// A call site; `function` and `path` are optional because producers other than the hook may not know them.
    package init(file: String, line: Int, function: String? = nil, path: String? = nil) {
        fields = Fields(file: file, line: line, function: function, path: path)
    }

    /// `file:line`, as a report shows it.
    public var description: String { "\(file):\(line)" }

    public static func == (a: CallSite, b: CallSite) -> Bool {
        a.fields === b.fields || (a.line == b.line && a.file == b.file && a.function == b.function && a.path == b.path)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(function)
        hasher.combine(path)
    }

    // The same keys and the same absent-when-nil fields as the synthesised conformance the stored fields had.
    private enum CodingKeys: String, CodingKey {
        case file, line, function, path
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            file: try container.decode(String.self, forKey: .file),
            line: try container.decode(Int.self, forKey: .line),
            function: try container.decodeIfPresent(String.self, forKey: .function),
            path: try container.decodeIfPresent(String.self, forKey: .path)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encodeIfPresent(function, forKey: .function)
        try container.encodeIfPresent(path, forKey: .path)
    }
}
