import ArgumentParser
import Testing
@testable import FreshReader

@Suite("Keymap")
struct KeymapTests {
    @Test func helpAndDashDashHelpListEveryBinding() {
        let help = Keymap.helpLines().joined(separator: "\n")
        let usage = ReaderCommand.helpMessage()
        #expect(Keymap.bindings.count >= 15, "the keymap is there to check")
        for binding in Keymap.bindings {
            #expect(help.contains(binding.help))
            #expect(usage.contains(binding.keys.map(\.name).joined(separator: ", ")))
        }
    }

    @Test func noKeyMeansTwoThingsOnOneScreen() {
        #expect(Keymap.Screen.allCases.count == 4)
        for screen in Keymap.Screen.allCases {
            let keys = Keymap.bindings.filter { $0.screens.contains(screen) }.flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "\(screen)")
        }
    }

    /// less's own control keys move as they do in less (Ctrl-N/E a line down, Ctrl-P/Y up, Ctrl-F/B a screen).
    @Test func lessControlKeysMoveAsInLess() {
        let expected: [(Character, Keymap.Action)] = [("n", .down), ("e", .down), ("p", .up), ("y", .up), ("f", .pageDown), ("b", .pageUp),
                                                       ("d", .halfPageDown), ("u", .halfPageUp)]
        for screen in Keymap.Screen.allCases {
            for (letter, action) in expected { #expect(Keymap.action(for: .control(letter), on: screen) == action, "Ctrl-\(letter) on \(screen)") }
        }
    }

    @Test func controlKeysAreNamedAsLessNamesThem() {
        #expect(KeyInput.control("d").name == "Ctrl-D")
        #expect(KeyInput.character(" ").name == "Space")
    }
}
