import HTTPFields
import MirrorStore
import StoreAddress
import Synchronization

/// One sync of a collection at a time across every machine that shares the database: a
/// PostgreSQL advisory lock on a connection of its own, keyed by the collection's identity.
/// The server releases it when that connection ends, so a sync killed by `kill -9`, or a
/// machine that lost the network, never leaves a collection locked.
final class AdvisoryLock: CollectionLock {
    private let connection: ServerConnection
    private let key: Int64
    private let held = Mutex(true)

    private init(connection: ServerConnection, key: Int64) {
        self.connection = connection
        self.key = key
    }

    /// Takes the lock of `identity`, waiting while another session holds it; `onWait` is called once
    /// if it does, with the holder as its session names itself (`process 1234 on ws-2`).
    static func acquire(identity: String, at address: PostgresAddress, onWait: (String?) -> Void) async throws -> AdvisoryLock {
        let key = Int64(bitPattern: FNV1a64.hash(Array("fresh collection \(identity)".utf8)))
        let connection = try await ServerConnection.open(address)
        do {
            let taken = try await connection.query("SELECT pg_try_advisory_lock(\(key))").first?.decode(Bool.self) ?? false
            if !taken {
                onWait(try await holder(of: key, on: connection))
                try await connection.query("SELECT pg_advisory_lock(\(key))")
            }
        } catch {
            await connection.close()
            throw error
        }
        return AdvisoryLock(connection: connection, key: key)
    }

    /// The holder's session name, without the `fresh: ` every Fresh session starts with.
    private static func holder(of key: Int64, on connection: ServerConnection) async throws -> String? {
        let bits = UInt64(bitPattern: key)
        let name = try await connection.query("""
            SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                AND l.classid::bigint = \(Int64(bits >> 32)) AND l.objid::bigint = \(Int64(bits & 0xFFFF_FFFF))
            """).first?.decode(String?.self)
        guard let name, !name.isEmpty else { return nil }
        return name.hasPrefix("fresh: ") ? String(name.dropFirst("fresh: ".count)) : name
    }

    func release() async {
        guard held.withLock({ held in defer { held = false }; return held }) else { return }
        _ = try? await connection.query("SELECT pg_advisory_unlock(\(key))")
        await connection.close()
    }

    deinit {
        // Ending the connection releases the lock on the server.
        if held.withLock({ $0 }) { Task { [connection] in await connection.close() } }
    }
}
