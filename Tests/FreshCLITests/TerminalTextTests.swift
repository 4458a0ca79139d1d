import ArgumentParser
import Foundation
import HTTPCache
import MirrorStore
import Storage
import StorageErrors
import SyncEngine
import SyncOrchestration
import TerminalText
import Testing
@testable import FreshCLI

@Suite("Terminal safety")
struct TerminalTextTests {
    @Test func controlCharactersBecomeVisibleEscapes() {
        #expect(TerminalText.sanitized("ok\u{1B}[2Jgone\u{07}") == "ok\\u{1b}[2Jgone\\u{7}")
        #expect(TerminalText.sanitized("한글 emoji 🎉\tok") == "한글 emoji 🎉\tok")
        #expect(TerminalText.sanitized("line\nbreak\r") == "line\\u{a}break\\u{d}")
        #expect(TerminalText.sanitized("a\r\nb\nc\rd\u{1B}]0;title\u{7}", keepingLineBreaks: true)
                == "a\r\nb\nc\\u{d}d\\u{1b}]0;title\\u{7}")
    }
}
