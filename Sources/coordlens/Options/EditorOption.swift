import ArgumentParser

/// `--editor-url TEMPLATE`: how the page's leak rows open a call site in the user's editor.
struct EditorOption: ParsableArguments {
    @Option(
        name: .customLong("editor-url"),
        help: ArgumentHelp(
            "Open call sites from the page's leak rows with this template: {path} and {line} are filled in.",
            discussion:
                "A URL becomes a link (vscode://file/{path}:{line}, idea://open?file={path}&line={line}); anything else is a command the page copies (xed --line {line} {path} for Xcode).",
            valueName: "template")
    )
    var editorURL: String?

    mutating func validate() throws {
        if let editorURL, !editorURL.contains("{path}") {
            throw ValidationError("--editor-url needs {path} where the file goes (and {line} for the line): \(editorURL)")
        }
    }
}
