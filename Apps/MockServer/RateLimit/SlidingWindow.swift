/// The rate limiter's bookkeeping: when each request still inside the window was admitted. A
/// request is admitted while fewer than the limit were admitted in the last window; otherwise it
/// must wait until the oldest of them leaves the window, which is exactly its `Retry-After`.
/// Refused requests do not count.
///
/// Pure: the caller passes the time, so tests step through it without sleeping.
struct SlidingWindow: Sendable {
    /// What became of one request.
    enum Admission: Sendable, Equatable {
        /// Admitted; `remaining` more fit in the window now, and a slot frees in `resetIn`.
        case admitted(remaining: Int, resetIn: Duration)
        /// Refused; the first slot frees in `retryAfter`.
        case refused(retryAfter: Duration)
    }

    let limit: RateLimit
    /// Admission times, oldest first, from `head` on (earlier entries have left the window).
    private var admitted: [ContinuousClock.Instant] = []
    private var head = 0

    init(limit: RateLimit) {
        self.limit = limit
    }

    /// Admits or refuses a request arriving at `now` (which never goes backwards).
    mutating func admit(at now: ContinuousClock.Instant) -> Admission {
        while head < admitted.count, now - admitted[head] >= limit.window {
            head += 1
        }
        if head > 64, head * 2 > admitted.count {
            admitted.removeFirst(head)
            head = 0
        }
        let inWindow = admitted.count - head
        guard inWindow < limit.requests else {
            return .refused(retryAfter: admitted[head] + limit.window - now)
        }
        admitted.append(now)
        return .admitted(remaining: limit.requests - inWindow - 1, resetIn: admitted[head] + limit.window - now)
    }

    /// Forgets every admission (part of `/_admin/reset`).
    mutating func clear() {
        admitted.removeAll()
        head = 0
    }
}
