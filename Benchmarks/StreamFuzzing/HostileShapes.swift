/// Whole inputs built to hurt: the shapes the hardening issue measured, generated at a chosen size.
public enum HostileShapes {
    /// Every shape, by name, at `size` (how many coordinators or lines a shape makes).
    public static func all(size: Int) -> [(name: String, bytes: [UInt8])] {
        [
            ("sparse doubling ids", sparseIDs()),
            ("deep chain", deepChain(depth: size)),
            ("star, every child removed", starRemovingAll(children: size)),
            ("over-long line", overLongLine(bytes: (1 << 20) + 10)),
            ("warning flood", warningFlood(lines: size)),
            ("time going backwards", backwardsTime(events: 200)),
            ("ids beyond 2^53 and Int", hugeIDs()),
            ("BOM and CRLF", bomAndCRLF()),
            ("invalid UTF-8", invalidUTF8()),
            ("control characters in names", controlNames()),
            ("deeply nested JSON", nestedJSON(depth: 100_000)),
            ("a flow moved about a deep chain", deepMoves(depth: size, moves: 4 * size)),
            ("marks with big labels", bigLabels(marks: 20, bytes: 200_000)),
        ]
    }

    static let session = #"{"event":"session","v":1,"app":"Fuzz","run":"shape"}"#

    static func lines(_ body: [String]) -> [UInt8] {
        Array(([session] + body).joined(separator: "\n").utf8) + [0x0A]
    }

    static func event(_ seq: Int, _ time: Double, _ fields: String) -> String {
        #"{"seq":\#(seq),"t":\#(time),\#(fields)}"#
    }

    /// Ids 1023, 3071, 7167, … each about twice the last, then 2^62: they used to size an array.
    public static func sparseIDs() -> [UInt8] {
        var ids = [1_023]
        while ids.count < 40, ids.last! < Int.max / 4 { ids.append(2 * ids.last! + 1_025) }
        ids.append(1 << 62)
        return lines(
            ids.enumerated().map { index, id in
                event(
                    index + 1, Double(index),
                    #""event":"add","id":\#(id),"type":"Sparse""#
                        + (index > 0 ? #","parent":\#(ids[index - 1])"# : ""))
            })
    }

    /// One chain `depth` deep, every step dismissed: as many leaks as steps, each at its own depth.
    public static func deepChain(depth: Int) -> [UInt8] {
        var body = [event(1, 0, #""event":"add","id":1,"type":"AppCoordinator""#)]
        for id in 2...max(2, depth) { body.append(event(id, 0.001, #""event":"add","id":\#(id),"type":"Step","parent":\#(id - 1)"#)) }
        for id in 2...max(2, depth) { body.append(event(body.count + 1, 0.002, #""event":"dismiss","id":\#(id)"#)) }
        body.append(event(body.count + 1, 10, #""event":"end""#))
        return lines(body)
    }

    /// A chain `depth` deep and a 40-coordinator flow moved `moves` times among its bottom 50 nodes, one of its screens
    /// removed and the flow's root sometimes put under that screen or its own child (refused: cycles): quadratic while
    /// every move walked the chain.
    public static func deepMoves(depth: Int, moves: Int) -> [UInt8] {
        var body = [event(1, 0, #""event":"add","id":1,"type":"AppCoordinator""#)]
        for id in 2...max(2, depth) { body.append(event(body.count + 1, 0.001, #""event":"add","id":\#(id),"type":"Step","parent":\#(id - 1)"#)) }
        let flow = 1_000_000_000
        body.append(event(body.count + 1, 0.002, #""event":"add","id":\#(flow),"type":"Flow""#))
        for id in flow + 1..<flow + 40 {
            body.append(event(body.count + 1, 0.002, #""event":"add","id":\#(id),"type":"Screen","parent":\#((id - flow) / 2 + flow)"#))
        }
        body.append(event(body.count + 1, 0.003, #""event":"remove","id":\#(flow + 1),"parent":\#(flow)"#))
        for move in 0..<moves {
            let parent = move % 97 == 0 ? flow + 1 + move % 3 : max(1, depth - move % 50)
            body.append(event(body.count + 1, 0.004, #""event":"add","id":\#(flow),"type":"Flow","parent":\#(parent)"#))
        }
        body.append(event(body.count + 1, 10, #""event":"end""#))
        return lines(body)
    }

    /// `marks` marks whose labels are `bytes` long each: memory must follow the events, not the label bytes.
    public static func bigLabels(marks: Int, bytes: Int) -> [UInt8] {
        let label = String(repeating: "checkout ", count: bytes / 9)
        var body = [event(1, 0, #""event":"add","id":1,"type":"AppCoordinator""#)]
        for _ in 0..<marks { body.append(event(body.count + 1, 1, #""event":"mark","label":"\#(label)""#)) }
        return lines(body)
    }

    /// One parent with `children` children, then each removed in the order added: the worst order for array removal.
    public static func starRemovingAll(children: Int) -> [UInt8] {
        var body = [event(1, 0, #""event":"add","id":1,"type":"Hub""#)]
        for id in 2...max(2, children + 1) { body.append(event(body.count + 1, 0.5, #""event":"add","id":\#(id),"type":"Spoke","parent":1"#)) }
        for id in 2...max(2, children + 1) { body.append(event(body.count + 1, 1, #""event":"remove","id":\#(id),"parent":1"#)) }
        return lines(body)
    }

    /// A line of `bytes` bytes between two good ones.
    public static func overLongLine(bytes: Int) -> [UInt8] {
        let head = #"{"seq":2,"t":0,"event":"add","id":2,"type":""#
        var out = lines([event(1, 0, #""event":"add","id":1,"type":"Before""#)])
        out += Array(head.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, bytes - head.utf8.count - 2)) + Array(#""}"#.utf8)
        out += [0x0A] + Array(event(3, 0, #""event":"add","id":3,"type":"After""#).utf8) + [0x0A]
        return out
    }

    /// `lines` malformed lines: more warnings than a session keeps.
    public static func warningFlood(lines count: Int) -> [UInt8] {
        lines((0..<count).map { "not json \($0)" })
    }

    public static func backwardsTime(events: Int) -> [UInt8] {
        lines(
            (1...events).map { index in
                event(index, Double((index * 7_919) % 101), index == 1 ? #""event":"add","id":1,"type":"Clock""# : #""event":"mark","label":"m""#)
            })
    }

    public static func hugeIDs() -> [UInt8] {
        lines([
            event(1, 0, #""event":"add","id":9007199254740992,"type":"Even""#),
            event(2, 0, #""event":"add","id":9007199254740993,"type":"Odd","parent":9007199254740992"#),
            event(3, 0, #""event":"add","id":9223372036854775807,"type":"Max""#),
            event(4, 0, #""event":"add","id":-9223372036854775808,"type":"Min","parent":9223372036854775807"#),
            event(5, 0, #""event":"add","id":99999999999999999999999,"type":"Over""#),
            event(6, 0, #""event":"add","id":1e400,"type":"Inf""#),
            event(7, 1e300, #""event":"dismiss","id":-9223372036854775808"#),
        ])
    }

    public static func bomAndCRLF() -> [UInt8] {
        [0xEF, 0xBB, 0xBF] + Array((session + "\r\n" + event(1, 0, #""event":"add","id":1,"type":"App""#) + "\r\n").utf8)
    }

    public static func invalidUTF8() -> [UInt8] {
        var out = Array(#"{"event":"session","v":1,"app":"Bad"#.utf8) + [0xFF, 0xC0, 0x80] + Array(#"","run":"r"}"#.utf8)
        out += [0x0A] + Array(#"{"seq":1,"t":0,"event":"add","id":1,"type":""#.utf8) + [0xED, 0xA0, 0x80, 0xF8] + Array(#""}"#.utf8)
        return out + [0x0A]
    }

    /// An event with an unknown key holding arrays nested `depth` deep, which the decoder skips without recursion.
    public static func nestedJSON(depth: Int) -> [UInt8] {
        let open = String(repeating: "[", count: depth)
        let close = String(repeating: "]", count: depth)
        return lines([event(1, 0, #""event":"add","id":1,"type":"App","extra":\#(open)\#(close)"#)])
    }

    public static func controlNames() -> [UInt8] {
        lines([
            event(1, 0, #""event":"add","id":1,"type":"\u001b[2J\n\r\u0000""#),
            event(2, 0, #""event":"add","id":2,"type":"","parent":1"#),
            event(3, 0, #""event":"bind","id":2,"screen":"\u2028\u0085""#),
            event(4, 5, #""event":"dismiss","id":2"#),
        ])
    }
}
