import Foundation

/// Instances of something not safe for concurrent use, handed out one caller at a time: the pool
/// makes another instance when every one is busy, up to `limit`, and past that a caller waits for one
/// to come back. Safe to share between threads.
package final class InstancePool<Instance>: @unchecked Sendable {
    /// What a pool has done so far.
    package struct Usage: Sendable, Hashable {
        /// Instances made, the first included.
        package var instances: Int
        /// The most instances that were in use at the same moment.
        package var mostInUseAtOnce: Int
    }

    /// The most instances the pool makes.
    package let limit: Int
    private let make: () throws -> Instance
    /// Guards every stored property below; waited on for an instance to come back.
    private let condition = NSCondition()
    /// Held while an instance is made, so that instances are made one at a time.
    private let making = NSLock()
    private var free: [Instance]
    private var made: Int
    private var inUse = 0
    private var mostInUse = 0

    /// A pool that makes up to `limit` instances (at least 1) with `make`, the first one now.
    package init(limit: Int, make: @escaping () throws -> Instance) throws {
        self.limit = max(1, limit)
        self.make = make
        free = [try make()]
        made = 1
    }

    /// What the pool has done so far.
    package var usage: Usage {
        condition.withLock { Usage(instances: made, mostInUseAtOnce: mostInUse) }
    }

    /// Runs `body` with an instance no other caller uses meanwhile, and gives it back on every path.
    package func withInstance<Result>(_ body: (Instance) throws -> Result) throws -> Result {
        let instance = try take()
        defer { giveBack(instance) }
        return try body(instance)
    }

    /// A free instance, a new one when none is free and the limit allows, or the next one given back.
    private func take() throws -> Instance {
        condition.lock()
        while free.isEmpty, made >= limit { condition.wait() }
        inUse += 1
        mostInUse = max(mostInUse, inUse)
        if let instance = free.popLast() {
            condition.unlock()
            return instance
        }
        made += 1
        condition.unlock()
        do {
            return try making.withLock { try make() }
        } catch {
            condition.withLock {
                made -= 1
                inUse -= 1
                condition.signal()
            }
            throw error
        }
    }

    private func giveBack(_ instance: Instance) {
        condition.withLock {
            free.append(instance)
            inUse -= 1
            condition.signal()
        }
    }
}
