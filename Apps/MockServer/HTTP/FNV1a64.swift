// MARK: - FNV-1a

/// The 64-bit FNV-1a hash: tiny, fast and good enough to tell representations apart.
enum FNV1a64 {
    /// The hash of `bytes` as 16 lowercase hex digits.
    static func hexDigest(of bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
