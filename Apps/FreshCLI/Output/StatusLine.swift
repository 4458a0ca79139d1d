import HTTPCache
import HTTPTypes
import TerminalText

/// The status line `-i`, `-I` and `-v` print: the response's own protocol version and reason
/// phrase (`HTTP/1.0 301 Moved Permanently`, `HTTP/2 200 `). A stored response, whose phrase
/// was not kept, gets the standard one for its code.
enum StatusLine {
    static func text(of response: CachedResponse) -> String {
        let phrase = response.status.reasonPhrase.isEmpty
            ? standardPhrases[response.status.code] ?? "" : TerminalText.sanitized(response.status.reasonPhrase)
        return "\(TerminalText.sanitized(response.version)) \(response.status.code) \(phrase)"
    }

    private static let known: [HTTPResponse.Status] = [
        .switchingProtocols, .earlyHints, .ok, .created, .accepted, .nonAuthoritativeInformation, .noContent, .resetContent,
        .partialContent, .multipleChoices, .movedPermanently, .found, .seeOther, .notModified, .temporaryRedirect,
        .permanentRedirect, .badRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .notAcceptable,
        .proxyAuthenticationRequired, .requestTimeout, .conflict, .gone, .lengthRequired, .preconditionFailed,
        .contentTooLarge, .uriTooLong, .unsupportedMediaType, .rangeNotSatisfiable, .expectationFailed, .misdirectedRequest,
        .unprocessableContent, .tooEarly, .upgradeRequired, .preconditionRequired, .tooManyRequests,
        .requestHeaderFieldsTooLarge, .unavailableForLegalReasons, .internalServerError, .notImplemented, .badGateway,
        .serviceUnavailable, .gatewayTimeout, .httpVersionNotSupported, .networkAuthenticationRequired
    ]
    private static let standardPhrases = Dictionary(uniqueKeysWithValues: known.map { ($0.code, $0.reasonPhrase) })
}
