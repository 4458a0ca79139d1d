/// Directive lists such as `Cache-Control` and `Pragma` (RFC 9111 §5.2):
/// `#( token [ "=" ( token / quoted-string ) ] )`.
public enum FieldDirectives {
    /// The directives of one field line in order: names lower-cased, values unquoted, `nil` for
    /// a directive without `=`. Malformed members (a name that is not a token) are skipped;
    /// anything after a quoted value up to the next comma is ignored.
    public static func parse(_ fieldValue: String) -> [(name: String, value: String?)] {
        FieldScanner.scanning(fieldValue) { scanner in
            var directives: [(name: String, value: String?)] = []
            while true {
                scanner.skip { $0 == .space || $0 == .tab || $0 == .comma }
                guard !scanner.isAtEnd else { return directives }
                let name = scanner.lowercasedToken()
                scanner.skipWhitespace()
                var value: String?
                if scanner.consume(.equals) {
                    scanner.skipWhitespace()
                    if let quoted = scanner.quotedString() {
                        value = quoted
                    } else {
                        let start = scanner.index
                        scanner.skipToListSeparator()
                        value = scanner.trimmedText(from: start)
                    }
                } else if let current = scanner.current, current != .comma {
                    scanner.skipToListSeparator() // not a token: the whole member is malformed
                    continue
                }
                scanner.skipToListSeparator()
                if let name { directives.append((name, value)) }
            }
        }
    }
}
