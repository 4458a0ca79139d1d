import Foundation

/// A document's recorded nodes and its bytes, borrowed for the length of a walk: reading a
/// page's hundred items through it costs no reference counting, where copying a
/// ``JSONValue`` for each step retains and releases the document's storage.
struct JSONNodeView {
    let nodes: UnsafeBufferPointer<JSONNode>
    let bytes: UnsafeRawBufferPointer

    /// The first member of object node `index` named `target` (UTF-8), or -1.
    func member(of index: Int, named target: UnsafeBufferPointer<UInt8>) -> Int {
        guard nodes[index].kind == .object else { return -1 }
        var child = nodes[index].firstChild
        while child >= 0 {
            if nameEquals(nodes[child], target) { return child }
            child = nodes[child].nextSibling
        }
        return -1
    }

    /// The integer number node `index` holds, when it fits in `Int`.
    func integer(of index: Int) -> Int? {
        let node = nodes[index]
        guard node.kind == .number else { return nil }
        return Int(decimalDigits: text(node.start, node.end))
    }

    /// The value of string node `index`, escapes resolved.
    func string(of index: Int) -> String? {
        let node = nodes[index]
        guard node.kind == .string else { return nil }
        return decoded(node.start + 1, node.end - 1, hasEscapes: node.hasEscapes)
    }

    func text(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[start..<end]) }

    func decoded(_ start: Int, _ end: Int, hasEscapes: Bool) -> String {
        hasEscapes ? JSONStringEscapes.decode(text(start, end)) : String(decoding: text(start, end), as: UTF8.self)
    }

    private func nameEquals(_ candidate: JSONNode, _ target: UnsafeBufferPointer<UInt8>) -> Bool {
        guard candidate.nameStart >= 0 else { return false }
        if candidate.nameHasEscapes {
            return decoded(candidate.nameStart, candidate.nameEnd, hasEscapes: true).utf8.elementsEqual(target)
        }
        guard candidate.nameEnd - candidate.nameStart == target.count else { return false }
        return target.isEmpty || memcmp(bytes.baseAddress! + candidate.nameStart, target.baseAddress!, target.count) == 0
    }
}

extension JSONDocument {
    func withNodeView<Result>(_ body: (JSONNodeView) -> Result) -> Result {
        nodes.withUnsafeBufferPointer { nodes in
            bytes.withUnsafeBytes { body(JSONNodeView(nodes: nodes, bytes: $0)) }
        }
    }
}
