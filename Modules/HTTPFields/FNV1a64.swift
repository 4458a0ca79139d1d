import Foundation

/// The 64-bit FNV-1a hash as 16 hex digits: a cheap, stable digest that tells representations
/// apart, for validators made from bytes (the mock server's ETags, a sync's content validators)
/// and file names. Not for security.
public enum FNV1a64 {
    /// The hash of `bytes` as 16 lowercase hex digits.
    public static func hex(_ bytes: some ContiguousBytes) -> String {
        let digits = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash of `bytes` (a lock's key, say).
    public static func hash(_ bytes: some ContiguousBytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBytes { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return hash
    }
}
