extension Zone {
    /// Every zone and link name tzdata defines, sorted (for "did you mean" hints): read from the zoneinfo
    /// directory's `tzdata.zi`, the compact source that Debian's tzdata and tzcode's `make install` ship, whose
    /// `Z NAME …` lines name zones and `L TARGET NAME` lines name links. Empty when the file is missing.
    public static func knownIdentifiers() -> [String] {
        guard case .success(let bytes) = FileBytes.read(path: directory + "/tzdata.zi") else { return [] }
        var names: [String] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let words = line.split(separator: UInt8(ascii: " "))
            switch (words.first.map { String(decoding: $0, as: UTF8.self) }, words.count) {
            case ("Z", 2...): names.append(String(decoding: words[1], as: UTF8.self))
            case ("L", 3...): names.append(String(decoding: words[2], as: UTF8.self))
            default: continue
            }
        }
        return names.sorted()
    }
}
