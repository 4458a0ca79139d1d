import Foundation
import JSON
import Testing

@Suite("Skimming a page for its next page")
struct SkimmingTests {
    @Test func skimmingReadsPastStringsItDoesNotCheck() throws {
        // A raw control character and a byte that is not UTF-8, inside strings.
        let bytes = Data(#"{"data": [{"t": "a"#.utf8) + Data([0x01, 0xFF]) + Data(#"b\"c"}], "meta": {"next": "c2"}, "n": "x\\"}"#.utf8)
        let skimmed = try JSONDocument(skimming: bytes, recordedDepth: 2)
        #expect(skimmed.value(at: JSONPath(["meta", "next"]))?.string == "c2")
        #expect(skimmed.value(at: JSONPath(["n"]))?.string == "x\\")
        #expect(throws: JSONSyntaxError.self) { try JSONDocument(bytes) }
    }

    @Test(arguments: [#"{"a": [1, 2}"#, #"{"a": "open"#, #"{"a" 1}"#, #"[1] 2"#, #"{"x\u00G0": 1, "next": "a"}"#, #"{"a": "\q"}"#])
    func skimmingStillFollowsTheStructureAndTheEscapes(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONDocument(skimming: Data(text.utf8), recordedDepth: 1) }
    }
}
