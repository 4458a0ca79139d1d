import Foundation
import Testing
import TerminalText

@Suite("JSON made safe for a terminal")
struct JSONEscapeTests {
    @Test func controlsC1AndBidiBecomeJSONEscapesAndTheJSONMeansTheSame() throws {
        let json = #"{"title":"a\u001b]0;x\u0007 \#u{9B}31m \#u{202E}exe \#u{7F}","n":1}"#
        let escaped = TerminalText.jsonEscaped(json)
        #expect(escaped == #"{"title":"a\u001b]0;x\u0007 \u009b31m \u202eexe \u007f","n":1}"#)
        let before = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
        let after = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? NSDictionary
        #expect(before == after)
    }

    @Test func whitespaceBetweenTokensAndPlainTextStayAsTheyAre() {
        let pretty = "[\n\t{\"id\": 1, \"title\": \"한글 🚀\"}\r\n]"
        #expect(TerminalText.jsonEscaped(pretty) == pretty)
    }

    @Test func textKeepsTabsAndLineBreaksAndEscapesTheRest() {
        let row = "id,title\r\n1,\"two\nlines\tand \u{1B}[2J\u{9B}\u{202E}\"\r\n"
        #expect(TerminalText.sanitized(row, keepingLineBreaks: true) == "id,title\r\n1,\"two\nlines\tand \\u{1b}[2J\\u{9b}\\u{202e}\"\r\n")
    }
}
