/// Counts as reports print them for people.
package enum NumberText {
    /// `12345` as `12,345`.
    package static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return number < 0 ? "-" + out : out
    }
}
