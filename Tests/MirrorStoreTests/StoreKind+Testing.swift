import StoreTestSupport
import Testing

/// Each store's name in the test report: `…(sqlite)`, `…(postgresql)`.
extension StoreKind: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
