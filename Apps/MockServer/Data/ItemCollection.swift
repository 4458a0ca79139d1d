import JSON
import Foundation

/// One collection the API serves (`posts`, `users`, or one array of a `--data` file): items in
/// ascending key order, so that keyset pages ("the items after key K") are a binary search away
/// and stay correct while items are created and deleted.
struct ItemCollection: Sendable {
    /// Whether the collection's keys are integers or strings (never both).
    enum KeyKind: String, Sendable, Equatable {
        case integer, string
    }

    /// The collection's name, its URL path segment (`/NAME`, `/NAME/{id}`).
    let name: String
    /// The member of each item that holds its key (`id` unless `--key` says otherwise).
    let keyField: String
    let keyKind: KeyKind
    /// The prefix of string keys the server makes up for created items (`usr_`).
    let generatedKeyPrefix: String
    /// The `Last-Modified` of a page with no items: when the collection's data came to be.
    let baseline: Date
    /// Every item, ascending by key (or in a mirror's order: ``listedPositions``).
    private(set) var items: ItemList
    /// A mirror's collection re-paged (`fresh-mock --mirror --style`): the items in the order the
    /// mirror lists them, each key's index here; such a collection is never written.
    private var listedPositions: [ItemKey: Int]?
    /// The integer key the next created item gets: never one that was already used.
    private var nextInteger: Int

    /// A collection of `items` (in any order; their keys must be distinct and of `keyKind`).
    init(name: String, keyField: String, keyKind: KeyKind, items: [MockItem], baseline: Date, generatedKeyPrefix: String = "") {
        self.init(name: name, keyField: keyField, keyKind: keyKind, list: ItemList(sorted: items.sorted { $0.key < $1.key }),
                  baseline: baseline, generatedKeyPrefix: generatedKeyPrefix)
    }

    /// A mirror's collection in the order it lists `items` (keys distinct), which pages follow.
    init(name: String, keyKind: KeyKind, listed items: [MockItem], baseline: Date) {
        self.init(name: name, keyField: "id", keyKind: keyKind, list: ItemList(sorted: items), baseline: baseline)
        listedPositions = Dictionary(items.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The seeded posts of `posts`, made when they are asked for.
    init(name: String, generated posts: GeneratedPosts, baseline: Date) {
        self.init(name: name, keyField: "id", keyKind: .integer, list: ItemList(generated: posts), baseline: baseline)
    }

    private init(name: String, keyField: String, keyKind: KeyKind, list: ItemList, baseline: Date, generatedKeyPrefix: String = "") {
        self.name = name
        self.keyField = keyField
        self.keyKind = keyKind
        self.items = list
        self.baseline = baseline
        self.generatedKeyPrefix = generatedKeyPrefix
        self.nextInteger = (list.largestInteger ?? 0) + 1
    }

    // MARK: Reading

    var count: Int { items.count }

    /// The collection with only the items `isIncluded` keeps (`since=`), in the same order.
    func filtered(_ isIncluded: (MockItem) -> Bool) -> ItemCollection {
        var kept = self
        kept.items = ItemList(sorted: items.all.filter(isIncluded))
        return kept
    }

    /// The top-level member names of the items (what json-server's filters may name).
    var memberNames: Set<String> {
        Set(items.all.flatMap { $0.members.keys })
    }

    /// The item with `key`, if there is one.
    func item(_ key: ItemKey) -> MockItem? {
        index(of: key).map { items.items(in: $0..<$0 + 1)[0] }
    }

    /// The index of the item with `key`, if there is one.
    func index(of key: ItemKey) -> Int? {
        let index = firstIndex(notBelow: key)
        return index < items.count && items.key(at: index) == key ? index : nil
    }

    /// The index of the first item whose key is greater than `key` (`count` when none is).
    func firstIndex(after key: ItemKey) -> Int {
        if let listedPositions { return listedPositions[key].map { $0 + 1 } ?? items.count }
        return (0..<items.count).partitionPoint { items.key(at: $0) <= key }
    }

    /// The index of the first item whose key is `key` or greater (`count` when none is).
    func firstIndex(notBelow key: ItemKey) -> Int {
        if let listedPositions { return listedPositions[key] ?? items.count }
        return (0..<items.count).partitionPoint { items.key(at: $0) < key }
    }

    // MARK: Writing

    /// Adds `item`; `false` (and no change) when its key is taken.
    mutating func insert(_ item: MockItem) -> Bool {
        let index = firstIndex(notBelow: item.key)
        guard index == items.count || items.key(at: index) != item.key else { return false }
        items.insert(item, at: index)
        if case .integer(let value) = item.key { nextInteger = max(nextInteger, value + 1) }
        return true
    }

    /// Replaces the item with `item.key`; `false` when there is none.
    mutating func replace(_ item: MockItem) -> Bool {
        guard let index = index(of: item.key) else { return false }
        items.replace(at: index, with: item)
        return true
    }

    /// Removes the item with `key` and returns it; `nil` when there is none.
    mutating func remove(_ key: ItemKey) -> MockItem? {
        guard let index = index(of: key) else { return nil }
        return items.remove(at: index)
    }

    /// A key no item has had: the next integer, or the prefix and eight random base-36
    /// characters drawn from `random` (seeded, so a run repeats).
    mutating func makeKey(using random: inout SplitMix64) -> ItemKey {
        switch keyKind {
        case .integer:
            return .integer(makeIntegerKey())
        case .string:
            while true {
                let key = ItemKey.string(generatedKeyPrefix + Self.randomText(length: 8, using: &random))
                if index(of: key) == nil { return key }
            }
        }
    }

    /// The next integer key, never one already used (even by a deleted item).
    mutating func makeIntegerKey() -> Int {
        defer { nextInteger += 1 }
        return nextInteger
    }

    /// `length` characters from `0-9a-z`.
    static func randomText(length: Int, using random: inout SplitMix64) -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return String((0..<length).map { _ in alphabet[random.next(below: alphabet.count)] })
    }
}
