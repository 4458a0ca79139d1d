/// Every key the reader knows, in one table: behaviour (``ReaderState`` looks keys up here),
/// `?` help and `fresh-reader --help` are all made from it, so they cannot disagree.
public enum Keymap {
    /// Where a key is pressed.
    public enum Screen: String, CaseIterable, Sendable {
        case collections = "the collection list"
        case list = "an item list"
        case item = "an item"
        case text = "help and messages"
    }

    /// What a key does; what that means on each screen is ``ReaderState``'s business.
    public enum Action: Sendable, Equatable {
        case down, up, halfPageDown, halfPageUp, pageDown, pageUp, first, last
        case open, back, nextItem, previousItem
        case search, nextMatch, previousMatch
        case refresh, retryPage, help, statusDetail
    }

    /// Keys, the screens they work on, what they do there (for help).
    public struct Binding: Sendable {
        public var keys: [KeyInput]
        public var action: Action
        public var screens: Set<Screen>
        public var help: String
    }

    private static let everywhere = Set(Screen.allCases)

    /// The table, in the order help lists it.
    public static let bindings: [Binding] = [
        Binding(keys: [.character("j"), .down, .control("n"), .control("e")], action: .down, screens: everywhere, help: "next row; scroll down a line (5j: five)"),
        Binding(keys: [.character("k"), .up, .control("p"), .control("y")], action: .up, screens: everywhere, help: "previous row; scroll up a line"),
        Binding(keys: [.control("d")], action: .halfPageDown, screens: everywhere, help: "half a screen down"),
        Binding(keys: [.control("u")], action: .halfPageUp, screens: everywhere, help: "half a screen up"),
        Binding(keys: [.character(" "), .pageDown, .character("f"), .control("f")], action: .pageDown, screens: everywhere, help: "a screen down"),
        Binding(keys: [.character("b"), .pageUp, .control("b")], action: .pageUp, screens: everywhere, help: "a screen up"),
        Binding(keys: [.character("g"), .home], action: .first, screens: everywhere, help: "to the top"),
        Binding(keys: [.character("G"), .end], action: .last, screens: everywhere, help: "to the bottom, then the next page loads (50G: row 50)"),
        Binding(keys: [.enter], action: .open, screens: [.collections, .list], help: "open the selected collection or item"),
        Binding(keys: [.character("J")], action: .nextItem, screens: [.item], help: "next item"),
        Binding(keys: [.character("K")], action: .previousItem, screens: [.item], help: "previous item"),
        Binding(keys: [.character("/")], action: .search, screens: [.list, .item], help: "search titles and bodies, matches highlighted (Esc cancels)"),
        Binding(keys: [.character("n")], action: .nextMatch, screens: [.list, .item], help: "next match"),
        Binding(keys: [.character("N")], action: .previousMatch, screens: [.list, .item], help: "previous match"),
        Binding(keys: [.character("r")], action: .refresh, screens: [.list, .item], help: "refresh in the background, the pages on screen first"),
        Binding(keys: [.character("R")], action: .retryPage, screens: [.list], help: "retry the page that failed to load"),
        Binding(keys: [.character("e")], action: .statusDetail, screens: everywhere, help: "the full status message (why offline)"),
        Binding(keys: [.character("?")], action: .help, screens: everywhere, help: "this help"),
        Binding(keys: [.character("q"), .escape], action: .back, screens: everywhere, help: "back; quit from the first screen"),
    ]

    private static let table: [Screen: [KeyInput: Action]] = Dictionary(uniqueKeysWithValues: Screen.allCases.map { screen in
        (screen, Dictionary(bindings.filter { $0.screens.contains(screen) }.flatMap { binding in binding.keys.map { ($0, binding.action) } },
                            uniquingKeysWith: { first, _ in first }))
    })

    /// The action of `key` on `screen`, or `nil` for a key that does nothing there.
    public static func action(for key: KeyInput, on screen: Screen) -> Action? { table[screen]?[key] }

    /// The help text: one line per binding (its keys, then what they do), grouped by the
    /// screens they work on, each group in the order of its first binding.
    public static func helpLines() -> [String] {
        var groups: [Set<Screen>] = []
        for binding in bindings where !groups.contains(binding.screens) { groups.append(binding.screens) }
        return groups.flatMap { screens in
            [heading(screens)] + bindings.filter { $0.screens == screens }.map { binding in
                let keys = binding.keys.map(\.name).joined(separator: ", ")
                return "  " + keys.padding(toLength: max(keys.count, 16), withPad: " ", startingAt: 0) + "  " + binding.help
            } + [""]
        }
    }

    /// "Everywhere:", "In an item list and an item:".
    private static func heading(_ screens: Set<Screen>) -> String {
        guard screens != everywhere else { return "Everywhere:" }
        let names = Screen.allCases.filter(screens.contains).map(\.rawValue)
        return "In " + (names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names[0]) + ":"
    }
}
