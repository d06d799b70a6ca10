/// `--grace -1` read as an option and its value: the parser takes `-1` for an option of its own and says the value
/// is missing, where the user needs to hear that it must not be negative. An option followed by a negative number is
/// passed on as `--grace=-1`, which the option's own check then refuses by name.
enum NegativeNumbers {
    static func joined(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), argument.count > 2, !argument.contains("="), index + 1 < arguments.count,
                isNegativeNumber(arguments[index + 1])
            {
                result.append("\(argument)=\(arguments[index + 1])")
                index += 2
                continue
            }
            // After `--` everything is an argument, as the parser reads it.
            if argument == "--" {
                result += arguments[index...]
                break
            }
            result.append(argument)
            index += 1
        }
        return result
    }

    private static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        return Double(text) != nil
    }
}
