import Dispatch
import Foundation
import HeapModule
import Synchronization

/// Actions due at instants, run on a thread of their own unless withdrawn first: the requests'
/// deadlines. Withdrawing one is a lock and a removal from a dictionary, and the thread wakes only for
/// an action still held (or an instant earlier than any it waits for), so that a request answered in
/// time leaves nothing to fire later; a Dispatch timer per request fired for every request at its
/// deadline, long after its answer.
final class Deadlines: Sendable {
    /// An action's place, to withdraw it with ``withdraw(_:)``.
    struct Ticket: Sendable {
        fileprivate let id: Int
    }

    /// The actions, shared with the thread (which must not hold the set itself, or it never ends).
    private final class Schedule: Sendable {
        private struct Due: Comparable {
            let instant: ContinuousClock.Instant
            let id: Int

            static func < (left: Due, right: Due) -> Bool {
                (left.instant, left.id) < (right.instant, right.id)
            }
        }

        private struct State {
            /// The instants; withdrawn entries stay until they come first.
            var heap = Heap<Due>()
            var actions: [Int: @Sendable () -> Void] = [:]
            var nextID = 0
            var ended = false

            /// Drops withdrawn entries from the top, then takes the actions due by `now`; returns them and
            /// the instant of the next action held, if any.
            mutating func takeDue(by now: ContinuousClock.Instant) -> (due: [@Sendable () -> Void], next: ContinuousClock.Instant?) {
                var due: [@Sendable () -> Void] = []
                while let top = heap.min {
                    guard let action = actions[top.id] else {
                        heap.removeMin()
                        continue
                    }
                    guard top.instant <= now else { return (due, top.instant) }
                    actions[top.id] = nil
                    due.append(action)
                    heap.removeMin()
                }
                return (due, nil)
            }
        }

        private let state = Mutex(State())
        private let changed = DispatchSemaphore(value: 0)

        func add(at instant: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Int {
            let (id, isEarliest) = state.withLock { state -> (Int, Bool) in
                state.nextID += 1
                state.actions[state.nextID] = action
                state.heap.insert(Due(instant: instant, id: state.nextID))
                return (state.nextID, state.heap.min?.id == state.nextID)
            }
            // The thread sleeps until the earliest instant it knew of: only an earlier one needs to wake it.
            if isEarliest { changed.signal() }
            return id
        }

        func withdraw(_ id: Int) {
            state.withLock { _ = $0.actions.removeValue(forKey: id) }
        }

        func end() {
            state.withLock { $0.ended = true }
            changed.signal()
        }

        /// Runs the actions as they come due until the set ends.
        func serve() {
            while true {
                let clock = ContinuousClock()
                let (ended, due, next) = state.withLock { state in
                    let (due, next) = state.takeDue(by: clock.now)
                    return (state.ended, due, next)
                }
                if ended { return }
                due.forEach { $0() }
                guard let next else {
                    changed.wait()
                    continue
                }
                _ = changed.wait(timeout: .now() + .nanoseconds(Int(max(clock.now.duration(to: next).wholeNanoseconds, 0))))
            }
        }
    }

    private let schedule = Schedule()

    /// Starts the thread, named `name`.
    init(name: String) {
        let schedule = schedule
        let thread = Thread { schedule.serve() }
        thread.name = name
        thread.start()
    }

    deinit {
        schedule.end()
    }

    /// Runs `action` at `instant` (at once if it has passed), unless withdrawn before.
    func add(at instant: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Ticket {
        Ticket(id: schedule.add(at: instant, action))
    }

    /// Withdraws the action of `ticket`; nothing happens if it has run.
    func withdraw(_ ticket: Ticket) {
        schedule.withdraw(ticket.id)
    }
}
