/// One libyaml parse event, copied out of C memory into Swift values.
///
/// The reader converts each `yaml_event_t` to this immediately and frees the C event, so nothing downstream ever
/// holds a pointer into libyaml.
enum YAMLEvent {
    /// The anchor, tag and start mark a node may carry.
    struct Properties {
        var anchor: String?
        var tag: String?
        var mark: YAMLMark
    }

    case streamStart
    case streamEnd(YAMLMark)
    /// `explicit` is true when the source wrote `---`.
    case documentStart(YAMLMark, explicit: Bool)
    case documentEnd(YAMLMark)
    case alias(anchor: String, mark: YAMLMark)
    case scalar(YAMLScalar, Properties)
    case sequenceStart(Properties)
    case sequenceEnd
    case mappingStart(Properties)
    case mappingEnd
}

extension YAMLEvent {
    /// Lets the composer handle both collection starts in one `case` and still tell them apart.
    var isMappingStart: Bool {
        if case .mappingStart = self { return true }
        return false
    }
}
