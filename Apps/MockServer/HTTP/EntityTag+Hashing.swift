import Foundation
import HTTPFields

extension EntityTag {
    /// The strong tag of `bytes`: their FNV-1a 64-bit hash as 16 hex digits.
    init(hashing bytes: some ContiguousBytes) {
        self.init(opaqueTag: FNV1a64.hex(bytes))
    }
}
