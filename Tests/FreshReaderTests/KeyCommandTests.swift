import Testing
@testable import FreshReader

@Suite("Key commands")
struct KeyCommandTests {
    @Test(arguments: [
        (KeyInput.character("j"), KeyCommand.down), (.down, .down),
        (.character("k"), .up), (.up, .up),
        (.pageDown, .pageDown), (.character(" "), .pageDown),
        (.pageUp, .pageUp), (.character("b"), .pageUp),
        (.character("g"), .first), (.home, .first),
        (.character("G"), .last), (.end, .last),
        (.enter, .open),
        (.character("q"), .back), (.escape, .back),
        (.character("r"), .refresh),
    ])
    func keysMapToCommands(input: KeyInput, command: KeyCommand) {
        #expect(KeyCommand(input) == command)
    }

    @Test func otherKeysAndResizeAreNotCommands() {
        #expect(KeyCommand(.character("x")) == nil)
        #expect(KeyCommand(.character("Q")) == nil)
        #expect(KeyCommand(.resize) == nil)
    }
}
