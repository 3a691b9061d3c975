/// Rendering a request as the control line the CLI writes: the inverse of `ControlCommand.parse`.
extension ControlCommand {
    /// The request as a control line, without the newline; what the CLI writes to the FIFO.
    ///
    /// `parse(command.line) == command` for every command `parse` can return; names and values are quoted
    /// where they need it, so a value with spaces or quotes survives.
    public var line: String {
        var words: [String]
        switch action {
        case .reload(.all): words = ["reload", "all"]
        case .reload(.kind(let kind)): words = ["reload", "kind", Self.quoted(kind)]
        case .reload(.instance(let instance)):
            // Quoting tells a widget called "all" or "kind" from the keywords.
            let reserved = instance == "all" || instance == "kind"
            words = ["reload", reserved ? "\"\(instance)\"" : Self.quoted(instance)]
        case .config: words = ["config"]
        case .click(let instance, let button, let relativeX, let width, let details):
            words = ["click", Self.quoted(instance), String(button)]
            if let relativeX { words.append(String(relativeX)) }
            if let width { words.append(String(width)) }
            let numbers = [
                ("x", details.x), ("y", details.y), ("relative_y", details.relativeY), ("height", details.height),
            ]
            for case (let key, let value?) in numbers { words.append("\(key)=\(value)") }
            if !details.modifiers.isEmpty { words.append("modifiers=" + details.modifiers.joined(separator: ",")) }
        case .intent(let instance, let intent, let parameters):
            words = ["intent", Self.quoted(instance), Self.quoted(intent)]
            words += parameters.map { Self.quoted($0.name) + "=" + Self.quoted($0.value) }
        }
        if let acknowledgement { words.append("ack=" + acknowledgement.rawValue) }
        return words.joined(separator: " ")
    }

    /// `text` as one word: as it is when nothing in it is special, else in double quotes with escapes.
    static func quoted(_ text: String) -> String {
        let special: Set<Unicode.Scalar> = [" ", "\t", "\"", "\\", "\n", "\r"]
        guard text.isEmpty || text.unicodeScalars.contains(where: special.contains) else { return text }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
