import Foundation

/// Where a command's result goes: the `-o` file, or standard output for none or `-`.
enum CommandOutput {
    static func write(_ bytes: [UInt8], to output: String?) throws {
        guard let output, output != "-" else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output))
        } catch {
            throw OutputFailure(message: "cannot write \(output): \(error.localizedDescription)")
        }
    }
}
