import CCurl
import Synchronization

/// Idle easy handles kept for reuse. A reused handle keeps its connection cache, so
/// requests to the same origin share a kept-alive connection.
final class CurlHandlePool: Sendable {
    /// An easy handle; only one transfer uses it at a time.
    struct Handle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
    }

    private let idle = Mutex<[Handle]>([])
    private let maximumIdle = 8

    func checkOut() -> Handle {
        if let handle = idle.withLock({ $0.popLast() }) {
            fresh_curl_easy_reset(handle.raw)
            return handle
        }
        return Handle(raw: fresh_curl_easy_init())
    }

    func checkIn(_ handle: Handle) {
        let kept = idle.withLock { handles in
            guard handles.count < maximumIdle else { return false }
            handles.append(handle)
            return true
        }
        if !kept { fresh_curl_easy_cleanup(handle.raw) }
    }

    deinit {
        for handle in idle.withLock({ $0 }) { fresh_curl_easy_cleanup(handle.raw) }
    }
}
