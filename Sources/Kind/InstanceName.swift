/// The rule for widget instance names, shared by widgets.yaml and the control FIFO: a name becomes a file
/// name (`<name>.<format>`) and a word on FIFO lines, so it is ASCII letters, digits, `_` and `-`.
public enum InstanceName {
    public static let maximumLength = 64

    /// What is wrong with `name`, as the end of a sentence that starts with it; nil when it is fine.
    public static func problem(_ name: String) -> String? {
        guard !name.isEmpty, name.utf8.allSatisfy(isNameByte), !name.hasPrefix("-") else {
            return "may use only letters, digits, '_' and '-', and may not start with '-'"
        }
        guard name.utf8.count <= maximumLength else { return "is longer than \(maximumLength) characters" }
        return nil
    }

    public static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
