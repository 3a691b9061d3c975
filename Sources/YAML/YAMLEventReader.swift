internal import CYAML

/// Owns one libyaml parser and the input it reads, and hands out its events as Swift values.
///
/// libyaml keeps a raw pointer to the input for the whole parse, so the bytes live in a buffer this object allocates
/// and frees in `deinit`, after `yaml_parser_delete`. The parser struct is heap-allocated as well: `&storedProperty`
/// only promises a pointer for the duration of one call, and libyaml needs the same struct across many calls.
final class YAMLEventReader {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    /// Bytes of `input` actually holding the source (the allocation is never empty, the source may be).
    private let inputCount: Int
    /// False when `yaml_parser_initialize` failed (it can only run out of memory); `next()` then throws.
    private let isInitialized: Bool
    /// Where errors without a position of their own (allocation failures) are reported.
    private static let firstMark = YAMLMark(line: 1, column: 1)

    /// Copies `bytes` into storage this reader owns and points a fresh libyaml parser at it.
    init(bytes: some Collection<UInt8>) {
        // At least one element so that even empty input has a valid pointer of our own to give libyaml.
        input = .allocate(capacity: max(bytes.count, 1))
        inputCount = input.initialize(fromContentsOf: bytes)
        parser = .allocate(capacity: 1)
        isInitialized = yaml_parser_initialize(parser) != 0
        if isInitialized {
            // No yaml_parser_set_encoding: libyaml then honours a BOM, including UTF-16 ones, like other YAML tools.
            yaml_parser_set_input_string(parser, input.baseAddress, inputCount)
        }
    }

    deinit {
        if isInitialized {
            yaml_parser_delete(parser)
        }
        parser.deallocate()
        input.deallocate()
    }

    /// Parses and returns the next event, or throws libyaml's error converted to a 1-based, human-oriented mark.
    func next() throws(YAMLError) -> YAMLEvent {
        guard isInitialized else {
            throw YAMLError(message: "could not create a YAML parser (out of memory)", mark: Self.firstMark)
        }
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) != 0 else {
            throw currentError()
        }
        defer { yaml_event_delete(&event) }
        return Self.convert(event)
    }

    // MARK: - Events

    private static func convert(_ event: yaml_event_t) -> YAMLEvent {
        let mark = YAMLMark(event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            return .streamStart
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(mark, explicit: event.data.document_start.implicit == 0)
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd(mark)
        case YAML_ALIAS_EVENT:
            return .alias(anchor: string(event.data.alias.anchor) ?? "", mark: mark)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            // Decode with the explicit length: a double-quoted "\0" puts a NUL inside the value.
            let text = data.value.map {
                String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self)
            }
            let tag = tagName(data.tag)
            var scalar = YAMLScalar(text: text ?? "", style: style(data.style))
            if tag != nil && tag != "!!null" {
                // An explicit tag such as `!!str ~` or the non-specific `! ~` says the text is not to be resolved.
                scalar.isNull = false
            }
            return .scalar(scalar, YAMLEvent.Properties(anchor: string(data.anchor), tag: tag, mark: mark))
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            return .sequenceStart(YAMLEvent.Properties(anchor: string(data.anchor), tag: tagName(data.tag), mark: mark))
        case YAML_SEQUENCE_END_EVENT:
            return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            return .mappingStart(YAMLEvent.Properties(anchor: string(data.anchor), tag: tagName(data.tag), mark: mark))
        case YAML_MAPPING_END_EVENT:
            return .mappingEnd
        default:
            // YAML_STREAM_END_EVENT, and YAML_NO_EVENT, which is libyaml's answer to every call after the end.
            return .streamEnd(mark)
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(decoding: UnsafeBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }
    }

    /// libyaml resolves `!!str` to `tag:yaml.org,2002:str`; shorten it back so tags read as they were written.
    private static func tagName(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let tag = string(pointer) else { return nil }
        let corePrefix = "tag:yaml.org,2002:"
        return tag.hasPrefix(corePrefix) ? "!!" + tag.dropFirst(corePrefix.count) : tag
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    // MARK: - Errors

    private func currentError() -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown YAML error"
        let source = YAMLSourceText(bytes: UnsafeBufferPointer(rebasing: input[..<inputCount]))
        switch state.error {
        case YAML_MEMORY_ERROR:
            return YAMLError(message: "out of memory while parsing YAML", mark: Self.firstMark)
        case YAML_READER_ERROR:
            // The reader leaves problem_mark untouched (0:0); all it records is a byte offset and the bad value.
            var message = problem
            if state.problem_value != -1 {
                message += " (\(Self.hex(state.problem_value, asOctet: problem.contains("octet"))))"
            }
            return YAMLError(message: message, mark: source.mark(atByteOffset: state.problem_offset))
        default:
            return Self.syntaxError(
                problem: problem,
                context: state.context.map { String(cString: $0) },
                problemMark: state.problem_mark,
                contextMark: state.context_mark,
                source: source
            )
        }
    }

    /// Builds a scanner or parser error, choosing the mark a human should look at.
    ///
    /// libyaml's `problem_mark` is where it gave up, which is not always where the mistake is:
    /// - "while scanning a simple key: could not find expected ':'" is reported at the start of the *next* line; the
    ///   key missing its colon is at `context_mark`.
    /// - An unclosed quote or flow collection is reported at the very end of the input (after any trailing comments);
    ///   the opening `"` or `[` is at `context_mark`.
    /// Everywhere else `problem_mark` is right, and when `context_mark` is on another line the message names it too,
    /// e.g. the `[` of a flow sequence whose `]` is missing but which a later line's `:` tripped over.
    private static func syntaxError(
        problem: String,
        context: String?,
        problemMark: yaml_mark_t,
        contextMark: yaml_mark_t,
        source: YAMLSourceText
    ) -> YAMLError {
        let problemAt = YAMLMark(problemMark)
        var problem = problem
        if problem == "found character that cannot start any token", source.scalar(atIndex: problemMark.index) == "\t" {
            problem += " (a tab; YAML indentation must use spaces)"
        } else if problem == "did not find expected <document start>" {
            // libyaml's wording for anything after the first document's end (`...`, or a flow root's closing bracket).
            problem += " (text after the end of the document)"
        }
        guard let context else {
            return YAMLError(message: problem, mark: problemAt)
        }
        let contextAt = YAMLMark(contextMark)
        let atEnd = source.isEnd(index: problemMark.index)
        if context == "while scanning a simple key" || atEnd {
            let suffix = atEnd && !problem.contains("end of stream") ? " before the end of the input" : ""
            return YAMLError(message: "\(context): \(problem)\(suffix)", mark: contextAt)
        }
        if contextAt.line != problemAt.line {
            return YAMLError(message: "\(context) starting at \(contextAt): \(problem)", mark: problemAt)
        }
        return YAMLError(message: "\(context): \(problem)", mark: problemAt)
    }

    private static func hex(_ value: Int32, asOctet: Bool) -> String {
        let digits = String(UInt32(bitPattern: value), radix: 16, uppercase: true)
        let width = asOctet ? 2 : 4
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return asOctet ? "0x" + padded : "U+" + padded
    }
}

extension YAMLMark {
    /// Converts libyaml's 0-based mark; the only place 0-based positions exist.
    fileprivate init(_ mark: yaml_mark_t) {
        self.init(line: mark.line + 1, column: mark.column + 1)
    }
}
