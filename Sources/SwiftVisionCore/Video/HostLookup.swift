import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Host names looked up (`getaddrinfo`) within a time-out. The C resolver cannot be interrupted, and a name
/// server that is slow or silent holds it for as long as resolv.conf's time-outs allow (glibc's defaults: 5 s a
/// try, 2 tries for each of up to 3 servers, 30 s), far past a connection's time-out. So each lookup runs on
/// a thread of its own that is waited on for at most the time-out; one that outlasts it is abandoned, and its
/// thread ends, freeing what it found, when the resolver returns.
///
/// The threads are bounded twice: a connection attempt starts at most one lookup, and at most
/// ``mostUnfinished`` lookups run at once in the process, abandoned ones included. A lookup that finds them
/// all running waits for one to end, within its own time-out, so a silent name server costs at most that
/// many threads, each for at most the resolver's own time-outs, however many connections are tried.
enum HostLookup {
    /// The most lookups running at once.
    static let mostUnfinished = 8

    /// What a lookup found.
    enum Outcome {
        /// The addresses of the host.
        case found(Addresses)
        /// The resolver answered that the name is not found (or cannot be looked up).
        case notFound
        /// The resolver did not answer within the time-out.
        case timedOut
    }

    /// The list of addresses `getaddrinfo` returned, freed with the last reference to it.
    final class Addresses: @unchecked Sendable {
        /// The first address; the others follow through `ai_next`.
        let first: UnsafeMutablePointer<addrinfo>

        fileprivate init(_ first: UnsafeMutablePointer<addrinfo>) {
            self.first = first
        }

        deinit {
            freeaddrinfo(first)
        }
    }

    /// The addresses of `host` for a TCP connection to `port`, looked up by `end`.
    static func addresses(of host: String, port: Int, until end: ContinuousClock.Instant) -> Outcome {
        // NSCondition waits until a wall-clock date: the same moment, on that clock.
        let deadline = Date(timeIntervalSinceNow: Swift.max(0, (end - .now).inMilliseconds / 1000))
        guard slots.take(before: deadline) else { return .timedOut }
        let answer = Answer()
        Thread.detachNewThread {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var found: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &found)
            answer.give(status == 0 ? found.map(Addresses.init) : nil)
            slots.give()
        }
        return answer.wait(until: deadline)
    }

    /// The count of lookups running, and their waits for a slot.
    private final class Slots: @unchecked Sendable {
        private let condition = NSCondition()
        private var unfinished = 0

        /// Takes a slot, waiting until `deadline` for one to be given back; whether one was taken.
        func take(before deadline: Date) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while unfinished >= HostLookup.mostUnfinished {
                if !condition.wait(until: deadline), unfinished >= HostLookup.mostUnfinished { return false }
            }
            unfinished += 1
            return true
        }

        /// Gives a slot back.
        func give() {
            condition.lock()
            unfinished -= 1
            condition.signal()
            condition.unlock()
        }
    }

    private static let slots = Slots()

    /// One lookup's answer, handed from its thread to the waiter.
    private final class Answer: @unchecked Sendable {
        private let condition = NSCondition()
        private var answered = false
        private var addresses: Addresses?

        /// Hands over the addresses found, or nil when the name was not found.
        func give(_ found: Addresses?) {
            condition.lock()
            (answered, addresses) = (true, found)
            condition.signal()
            condition.unlock()
        }

        /// The answer, waited for until `deadline`.
        func wait(until deadline: Date) -> Outcome {
            condition.lock()
            defer { condition.unlock() }
            while !answered {
                if !condition.wait(until: deadline), !answered { return .timedOut }
            }
            return addresses.map(Outcome.found) ?? .notFound
        }
    }
}
