import Dispatch
import Synchronization

/// An `async` call made from the UI thread, which waits for its answer: the reader's screen code
/// is synchronous (it runs between two keys), the mirror's interface is not. The UI thread is a
/// thread of its own (``UIThread``), never one of Swift's pool, so blocking it is safe.
enum BlockingCall {
    static func wait<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
        let answered = DispatchSemaphore(value: 0)
        let answer = Mutex<Result<Value, any Error>?>(nil)
        Task {
            let result: Result<Value, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            answer.withLock { $0 = result }
            answered.signal()
        }
        answered.wait()
        return try answer.withLock { $0! }.get()
    }
}
