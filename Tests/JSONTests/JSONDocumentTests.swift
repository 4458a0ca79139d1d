import Foundation
import JSON
import Testing

@Suite("JSON documents")
struct JSONDocumentTests {
    func document(_ text: String) throws(JSONSyntaxError) -> JSONDocument {
        try JSONDocument(Data(text.utf8))
    }

    @Test func readsAnEnvelopeWithoutDecodingItsItems() throws {
        let page = try document(#"{"data": [{"id": 1, "t": "a\"b"}, {"id": "x"}], "meta": {"next_cursor": "c2", "n": 2.5e3}, "ok": true, "z": null}"#)
        let items = try #require(page.value(at: JSONPath(["data"])))
        #expect(items.kind == .array && items.count == 2)
        #expect(items.elements.map { $0.member("id")?.rawText } == ["1", "\"x\""])
        #expect(items.elements[0].member("t")?.string == "a\"b")
        #expect(page.value(at: JSONPath(["meta", "next_cursor"]))?.string == "c2")
        #expect(page.value(at: JSONPath(["meta", "n"]))?.double == 2500)
        #expect(page.root.member("ok")?.bool == true)
        #expect(page.root.member("z")?.kind == .null)
        #expect(page.root.member("missing") == nil)
    }

    @Test func decodesEscapesInNamesAndStrings() throws {
        let page = try document(#"{"n\u0061me": "\u00e9\ud83d\ude00\n\/"}"#)
        #expect(page.root.member("name")?.string == "é😀\n/")
    }

    @Test func keepsTheTextBetweenEscapesAndReplacesALoneSurrogate() throws {
        let page = try document(#"{"a": "한글 \"quoted\"\tand\u00e9 then \ud83d alone, 끝\\", "b": "\u0041"}"#)
        #expect(page.root.member("a")?.string == "한글 \"quoted\"\tandé then \u{FFFD} alone, 끝\\")
        #expect(page.root.member("b")?.string == "A")
    }

    @Test func quotesTextAsAJSONStringThatReadsBackTheSame() throws {
        for text in ["", "plain ASCII", "한글 🚀 é", "a \"quote\" and \\", "tab\tnew line\n\u{1}\u{1F}"] {
            let quoted = JSONText.quoted(text)
            #expect(try document(quoted).root.string == text)
        }
        #expect(JSONText.quoted("한 /x") == "\"한 /x\"")
        #expect(JSONText.quoted("a\"b\\c\u{1}") == #""a\"b\\c\u0001""#)
    }

    @Test func countsBeyondTheRecordedDepth() throws {
        let page = try JSONDocument(Data(#"[[[[1, 2, 3]]]]"#.utf8), recordedDepth: 2)
        let inner = page.root.elements[0].elements[0]
        #expect(inner.count == 1 && inner.elements.isEmpty)
    }

    @Test(arguments: [
        ("", "the body is empty"), ("{\"a\": 1,}", "expected a member name in quotes"), ("[1 2]", "expected ',' or ']' in an array"),
        ("{\"a\" 1}", "expected ':' after a member name"), ("[01]", "expected ',' or ']' in an array"), ("[1.]", "a number needs digits after '.'"),
        ("\"tab\there\"", "a control character (byte 0x9) inside a string"), ("[\"\\x\"]", "an invalid escape in a string"),
        ("[tru]", "unexpected 't'"), ("{} {}", "unexpected text after the JSON value"), ("[\"abc", "the text ends inside a string"),
        ("{\"data\": [", "the text ends inside an array"), ("<html>", "unexpected '<'"),
    ])
    func refusesWhatIsNotJSON(_ text: String, _ reason: String) {
        #expect(throws: JSONSyntaxError.self) { try document(text) }
        do throws(JSONSyntaxError) { _ = try document(text) } catch { #expect(error.reason == reason) }
    }

    @Test(arguments: [
        [0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xFF, 0x22],
        // Inside a run of valid three-byte characters (한): an overlong form, a surrogate, a
        // sequence cut short by the closing quote, a lone continuation byte, the text ending.
        [0x22, 0xED, 0x95, 0x9C, 0xE0, 0x80, 0x80, 0x22], [0x22, 0xED, 0x95, 0x9C, 0xED, 0xBF, 0xBF, 0x22],
        [0x22, 0xED, 0x95, 0x9C, 0xEA, 0xB0, 0x22], [0x22, 0xED, 0x95, 0x9C, 0x80, 0x22], [0x22, 0xED, 0x95, 0x9C, 0xC3],
    ] as [[UInt8]])
    func refusesInvalidUTF8(_ bytes: [UInt8]) {
        do throws(JSONSyntaxError) {
            _ = try JSONDocument(Data(bytes))
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.reason.hasPrefix("invalid UTF-8"))
        }
    }

    @Test func findsEachSpecialByteWhereverItStandsInTheTextAroundIt() throws {
        // Strings are read eight bytes at a time while they are plain ASCII: a byte that ends the
        // plain text must be seen at every offset in a word, after ASCII and after 한.
        for prefix in ["", "abcdefghijklmnop", "한글 텍스트 a"] {
            for offset in 0..<17 {
                let head = prefix + String(repeating: "x", count: offset)
                let text = "[\"\(head)\\\"\\\\한 yz0123456789\"]"
                #expect(try document(text).root.elements.first?.string == head + "\"\\한 yz0123456789")
                let skimmed = try JSONDocument(skimming: Data(text.utf8), recordedDepth: 1)
                #expect(skimmed.root.elements.first?.string == head + "\"\\한 yz0123456789")
                do throws(JSONSyntaxError) {
                    _ = try document("[\"\(head)\u{1F}tail of the string\"]")
                    Issue.record("accepted a control character at offset \(offset)")
                } catch {
                    #expect(error.reason == "a control character (byte 0x1F) inside a string")
                }
            }
        }
    }

    @Test func acceptsValidMultibyteTextAndAByteOrderMark() throws {
        let page = try JSONDocument(Data([0xEF, 0xBB, 0xBF]) + Data(#"{"t": "한국어 🏋️"}"#.utf8))
        #expect(page.root.member("t")?.string == "한국어 🏋️")
    }

    @Test func acceptsTheEdgesOfEachMultibyteRange() throws {
        // U+0080, U+07FF, U+0800, U+D7FF (the last before the surrogates), U+E000, U+FFFF, U+10000, U+10FFFF.
        let text = "\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}é한😀"
        let page = try document("[\"\(text)\"]")
        #expect(page.root.elements.first?.string == text)
    }

    @Test(arguments: [
        ("0", 0), ("-0", 0), ("42", 42), ("-17", -17), ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
        ("9223372036854775808", nil), ("-9223372036854775809", nil), ("1.0", nil), ("1e3", nil), ("2E+1", nil),
    ] as [(String, Int?)])
    func readsIntegersThatFitAndNothingElse(_ number: String, _ integer: Int?) throws {
        #expect(try document("[\(number)]").root.elements.first?.integer == integer)
    }

    @Test func refusesNestingBeyondTheLimit() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONSyntaxError.self) { try document(deep) }
    }

    @Test func errorsSayTheLine() {
        do throws(JSONSyntaxError) {
            _ = try document("{\n\"a\": 1,\n\"b\": }")
            Issue.record("a member without a value was accepted")
        } catch {
            #expect(error.line == 3)
            #expect(error.description.hasPrefix("unexpected '}' at line 3"))
        }
    }

    @Test func compactBytesOfACompactDocumentAreItsOwnBytes() throws {
        let page = try document(#"{"data":[{"id":1,"t":"é"},{"id":2}]}"#)
        let items = try #require(page.value(at: JSONPath(["data"]))?.elements)
        #expect(items.map { String(decoding: $0.compactBytes, as: UTF8.self) } == [#"{"id":1,"t":"é"}"#, #"{"id":2}"#])
    }

    @Test func compactBytesDropOnlyInsignificantWhitespace() throws {
        let page = try document("[\n  {\n    \"id\": 1,\n    \"t\": \"a  b\\\" c\",\n    \"n\": 1.50e+2\n  }\n]")
        #expect(String(decoding: page.root.elements[0].compactBytes, as: UTF8.self) == #"{"id":1,"t":"a  b\" c","n":1.50e+2}"#)
    }

    @Test func pathsParseQuotedNames() {
        #expect(JSONPath(parsing: "links.next")?.components == ["links", "next"])
        #expect(JSONPath(parsing: #""@odata.nextLink""#)?.components == ["@odata.nextLink"])
        #expect(JSONPath(parsing: "a..b") == nil)
        #expect(JSONPath(parsing: "")?.isRoot == true)
        #expect(JSONPath(["@odata.nextLink"]).description == #""@odata.nextLink""#)
        #expect(JSONPath(["links", "next"]).sqlitePath == #"$."links"."next""#)
        #expect(JSONPath.root.sqlitePath == "$")
    }
}
