import Foundation
import HTTPCache
import Testing
@testable import FreshCLI

@Suite("fresh get on a terminal: JSON re-indented, coloured unless NO_COLOR")
struct JSONPrettyPrinterTests {
    let body = Data(#"{"z":[1,2.50,{"k":null}],"a":"x\u001b\"y","e":{},"f":[]}"#.utf8)

    @Test func reindentsKeepingTheServersOrderAndExactScalars() throws {
        let text = try #require(JSONPrettyPrinter(colored: false).format(body).map { String(decoding: $0, as: UTF8.self) })
        #expect(text == """
            {
              "z": [
                1,
                2.50,
                {
                  "k": null
                }
              ],
              "a": "x\\u001b\\"y",
              "e": {},
              "f": []
            }

            """)
    }

    /// JSON allows C1 controls (U+009B is the 8-bit CSI), bidi overrides and U+2028 raw inside a
    /// string; on a terminal they become JSON escapes, coloured or not, so what it shows is still
    /// JSON with the same meaning (docs/cli.md), as `fresh items` and `get --json` show them.
    @Test(arguments: [false, true])
    func rawControlsInsideStringsAreEscapedForTheTerminal(colored: Bool) throws {
        let raw = Data("{\"t\":\"a\u{9B}31mb\u{202E}c\u{2028}d é\"}".utf8)
        let text = try #require(JSONPrettyPrinter(colored: colored).format(raw).map { String(decoding: $0, as: UTF8.self) })
        #expect(text.contains(#"a\u009b31mb\u202ec\u2028d é"#))
        let plain = try #require(JSONPrettyPrinter(colored: false).format(raw))
        #expect(try JSONSerialization.jsonObject(with: plain) as? [String: String] == ["t": "a\u{9B}31mb\u{202E}c\u{2028}d é"])
        #expect(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E || $0.value == 0x2028 })
    }

    @Test func aBodyWrittenToAPipeIsExactlyAsReceived() throws {
        let raw = Data("{\"t\":\"a\u{9B}31m\"}".utf8)
        let response = CachedResponse(status: .ok, headerFields: [.contentType: "application/json"], body: raw,
                                      url: URL(string: "http://o.test/")!, decision: CacheDecision(outcome: .downloaded), version: "HTTP/1.1")
        let printer = ResponsePrinter(include: false, json: false, output: nil, toTerminal: false, prettyJSON: JSONPrettyPrinter(colored: false))
        #expect(try printer.rendered(response) == raw)
    }

    @Test func coloursKeysStringsAndNull() throws {
        let text = try #require(JSONPrettyPrinter(colored: true).format(Data(#"{"k":"v","n":null,"d":1}"#.utf8))
            .map { String(decoding: $0, as: UTF8.self) })
        #expect(text.contains("\u{1B}[34;1m\"k\"\u{1B}[0m: \u{1B}[32m\"v\"\u{1B}[0m"))
        #expect(text.contains("\u{1B}[1;30mnull\u{1B}[0m"))
        #expect(text.contains("\"\u{1B}[0m: 1\n"))
    }

    @Test func whatIsNotJSONIsLeftAlone() {
        #expect(JSONPrettyPrinter(colored: false).format(Data("{not json".utf8)) == nil)
        #expect(JSONPrettyPrinter(colored: false).format(Data()) == nil)
    }

    @Test func noColorAndDumbTerminalsTurnColoursOff() {
        #expect(JSONPrettyPrinter.colorsWanted(environment: ["TERM": "xterm-256color"]))
        #expect(!JSONPrettyPrinter.colorsWanted(environment: ["TERM": "xterm", "NO_COLOR": "1"]))
        #expect(JSONPrettyPrinter.colorsWanted(environment: ["TERM": "xterm", "NO_COLOR": ""]))
        #expect(!JSONPrettyPrinter.colorsWanted(environment: ["TERM": "dumb"]))
    }

    @Test func onlyATerminalGetsThePrettyForm() throws {
        let response = CachedResponse(status: .ok, headerFields: [.contentType: "application/json; charset=utf-8"], body: body,
                                      url: URL(string: "http://o.test/a")!, decision: CacheDecision(outcome: .downloaded))
        let pretty = JSONPrettyPrinter(colored: false)
        let piped = try ResponsePrinter(include: false, json: false, output: nil, toTerminal: false, prettyJSON: pretty).rendered(response)
        #expect(piped == body)
        let raw = try ResponsePrinter(include: false, json: false, output: nil, toTerminal: true, prettyJSON: nil).rendered(response)
        #expect(!raw.contains(0x0A))
        let shown = try ResponsePrinter(include: false, json: false, output: nil, toTerminal: true, prettyJSON: pretty).rendered(response)
        #expect(shown == pretty.format(body))
    }
}
