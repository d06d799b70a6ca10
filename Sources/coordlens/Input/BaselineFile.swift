import CoordinatorLens
import CoordinatorWire
import Foundation

/// `coordlens-baseline.json`: the accepted leaks, one per line in fingerprint order, so that a review shows each leak
/// added to or removed from the baseline as one line.
///
/// ```json
/// {
///   "coordlensBaseline": 1,
///   "leaks": [
///     {"fingerprint": "HomeCoordinator/GreenCoordinator (still-child)", "types": ["HomeCoordinator", "GreenCoordinator"], "omittedSteps": 0, "reason": "still-child", "count": 3}
///   ],
///   "paths": [
///     {"path": "HomeCoordinator/GreenCoordinator", "types": ["HomeCoordinator", "GreenCoordinator"], "omittedSteps": 0, "alive": 1}
///   ]
/// }
/// ```
/// `types`, `omittedSteps` and `reason` are what is matched; `fingerprint` is the same for people and must agree.
/// `paths` lists every path the runs exercised with the most coordinators in use on it at a run's end: a checked run
/// with more has piled them up, and a leak whose path no checked run exercised is not called fixed.
enum BaselineFile {
    static let version = 1

    /// The file's text for `baseline`.
    static func text(for baseline: LeakBaseline) -> String {
        let entries = baseline.entries.map { entry in
            let fingerprint = entry.fingerprint
            let types = fingerprint.types.map(quoted).joined(separator: ", ")
            return "    {\"fingerprint\": \(quoted(fingerprint.description)), \"types\": [\(types)], "
                + "\"omittedSteps\": \(fingerprint.omittedSteps), \"reason\": \(quoted(fingerprint.reasonKind.rawValue)), \"count\": \(entry.count)}"
        }
        let leaks = entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: ",\n") + "\n  ]"
        let paths = baseline.census.entries.map { entry in
            "    {\"path\": \(quoted(entry.path.description)), \"types\": [\(entry.path.types.map(quoted).joined(separator: ", "))], "
                + "\"omittedSteps\": \(entry.path.omittedSteps), \"alive\": \(entry.alive)}"
        }
        let alive = paths.isEmpty ? "[]" : "[\n" + paths.joined(separator: ",\n") + "\n  ]"
        return "{\n  \"coordlensBaseline\": \(version),\n  \"leaks\": \(leaks),\n  \"paths\": \(alive)\n}\n"
    }

    /// Reads the baseline at `path`; anything wrong is a usage failure naming the file and, where it can, the line.
    static func read(_ path: String) throws -> LeakBaseline {
        // Read through a handle, so a pipe (`--baseline <(…)`) works as well as a file.
        guard let data = FileHandle(forReadingAtPath: path).flatMap({ try? $0.readToEnd() ?? Data() }) else {
            throw UsageFailure(message: "cannot read baseline \(path): \(FileProblem.reading(path))")
        }
        let text = String(decoding: data, as: UTF8.self)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw UsageFailure(message: "\(place(path, text, characterIn: detail)): not JSON (\(detail))")
        }
        guard let root = object as? [String: Any], let version = root["coordlensBaseline"] as? Int else {
            throw UsageFailure(message: "\(path): not a coordlens baseline (no \"coordlensBaseline\" version); write one with coordlens baseline")
        }
        guard version <= Self.version else {
            throw UsageFailure(message: "\(path): baseline version \(version) is newer than the \(Self.version) this coordlens reads; use a newer coordlens")
        }
        guard let leaks = root["leaks"] as? [Any] else { throw UsageFailure(message: "\(path): \"leaks\" must be a list") }
        var counts: [LeakFingerprint: Int] = [:]
        // Where each leak's line is, found once and only for an error: splitting the whole file per entry made reading
        // a baseline quadratic (a 2,000-coordinator chain's 286 leaks took 14.9 s).
        var openings: [Int]?
        for (index, item) in leaks.enumerated() {
            func here() -> String {
                if openings == nil { openings = entryLines(in: text) }
                return index < openings!.count ? "\(path):\(openings![index])" : "\(path): leak \(index + 1)"
            }
            guard let entry = item as? [String: Any],
                let types = entry["types"] as? [String], !types.isEmpty,
                let reasonText = entry["reason"] as? String,
                let count = entry["count"] as? Int
            else {
                throw UsageFailure(message: "\(here()): a leak needs \"types\" (a list of type names), \"reason\" and \"count\"")
            }
            guard let reason = RetentionKind(rawValue: reasonText) else {
                let known = RetentionKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageFailure(message: "\(here()): unknown reason \(reasonText) (one of \(known))")
            }
            let omitted = entry["omittedSteps"] as? Int ?? 0
            guard count > 0, omitted >= 0 else { throw UsageFailure(message: "\(here()): \"count\" must be at least 1 and \"omittedSteps\" at least 0") }
            let fingerprint = LeakFingerprint(types: types, omittedSteps: omitted, reasonKind: reason)
            if let shown = entry["fingerprint"] as? String, shown != fingerprint.description {
                throw UsageFailure(message: "\(here()): \"fingerprint\" says \(shown) but types and reason say \(fingerprint.description)")
            }
            guard counts[fingerprint] == nil else { throw UsageFailure(message: "\(here()): \(fingerprint.description) is listed twice") }
            counts[fingerprint] = count
        }
        return LeakBaseline(counts: counts, census: try readPaths(root["paths"], path: path, text: text))
    }

    /// The `paths` list: each path a run exercised with the most coordinators in use on it at its end. Missing in
    /// baselines written before it existed, which then check no pile-ups.
    private static func readPaths(_ value: Any?, path: String, text: String) throws -> PathCensus {
        guard let value else { return PathCensus() }
        guard let items = value as? [Any] else { throw UsageFailure(message: "\(path): \"paths\" must be a list") }
        var alive: [PathCensus.Path: Int] = [:]
        for (index, item) in items.enumerated() {
            guard let entry = item as? [String: Any], let types = entry["types"] as? [String], !types.isEmpty,
                let count = entry["alive"] as? Int, count >= 0
            else {
                throw UsageFailure(message: "\(path): path \(index + 1) needs \"types\" (a list of type names) and \"alive\" (0 or more)")
            }
            let omitted = entry["omittedSteps"] as? Int ?? 0
            let key = PathCensus.Path(types: types, omittedSteps: max(0, omitted))
            guard alive[key] == nil else { throw UsageFailure(message: "\(path): path \(key) is listed twice") }
            alive[key] = count
        }
        return PathCensus(alive: alive)
    }

    /// The one escaper of the package's JSON (a JSONEncoder per string was most of `baseline`'s time on a big run).
    private static func quoted(_ text: String) -> String {
        JSONString.quoted(text)
    }

    /// The 1-based lines of the leaks in order: each line after `"leaks"` that opens an object.
    private static func entryLines(in text: String) -> [Int] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains("\"leaks\"") }) else { return [] }
        return lines.indices.filter { $0 > start && lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("{") }.map { $0 + 1 }
    }

    /// `path:line` for Foundation's "around character N" (a 0-based character offset).
    private static func place(_ path: String, _ text: String, characterIn detail: String) -> String {
        guard let range = detail.range(of: #"character \d+"#, options: .regularExpression),
            let offset = Int(detail[range].dropFirst("character ".count))
        else { return path }
        let line = text.prefix(offset).reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        return "\(path):\(line)"
    }
}
