import Foundation
import HTTPTypes
import Hummingbird

#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 network written as an address with an optional prefix length (`10.0.0.0/8`,
/// `192.0.2.7`, `fd00::/8`). IPv4-mapped IPv6 addresses (`::ffff:192.0.2.7`) count as IPv4.
struct IPNetwork: Sendable, Hashable {
    /// The network's address bytes (4 or 16).
    let bytes: [UInt8]
    /// How many leading bits of an address must equal the network's.
    let prefixLength: Int

    /// The network `text` stands for, or nil when it is not one (or its prefix length is out of range).
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = Self.address(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        if parts.count == 2 {
            guard parts[1].count <= 3, parts[1].allSatisfy(\.isASCII), let length = Int(parts[1]), (0...bits).contains(length)
            else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        self.bytes = bytes
    }

    /// Whether `address` (4 or 16 bytes) lies in the network.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var left = prefixLength
        for (mine, theirs) in zip(bytes, address) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if mine & mask != theirs & mask { return false }
            left -= 8
        }
        return true
    }

    /// The bytes of the IPv4 or IPv6 address `text` (no port, no brackets, no zone), IPv4-mapped IPv6
    /// addresses as their 4 IPv4 bytes; nil when it is not such an address.
    static func address(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    /// `bytes` (4 or 16) written as an address, in the one canonical form `inet_ntop` gives.
    static func text(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return written == nil ? "" : String(cString: buffer)
    }
}

/// The reverse proxies the service trusts (`--trusted-proxy`): a request that comes from one of them is
/// counted, for the admission queue's fairness, as the client its `X-Forwarded-For` names. With none (the
/// default) the header is ignored and the client is the address the connection came from.
struct TrustedProxies: Sendable {
    let networks: [IPNetwork]

    /// At most this many `X-Forwarded-For` entries are read, from the right.
    static let maximumHops = 16

    /// The client of a request that came from `peer` with the `X-Forwarded-For` values `forwardedFor`:
    /// walking the entries from the right (the nearest hop first), the first that is not a trusted proxy;
    /// `peer` itself when `peer` is not trusted, when there is no entry, or when an entry is not a plain
    /// address (a port, a name, garbage: nothing beyond it can be believed).
    func client(peer: String, forwardedFor: [String]) -> String {
        guard !networks.isEmpty, let peerAddress = IPNetwork.address(peer), isTrusted(peerAddress) else { return peer }
        let entries = forwardedFor.flatMap { $0.split(separator: ",") }.suffix(Self.maximumHops)
        var client = peer
        for entry in entries.reversed() {
            guard let address = IPNetwork.address(entry.trimmingCharacters(in: .whitespaces)) else { return client }
            client = IPNetwork.text(address)
            if !isTrusted(address) { return client }
        }
        return client
    }

    private func isTrusted(_ address: [UInt8]) -> Bool {
        networks.contains { $0.contains(address) }
    }
}

/// Names each request's client in its context (``ServiceRequestContext/client``, the connection's address
/// until then) as the address a trusted reverse proxy forwarded; the service adds it only when
/// `--trusted-proxy` names one.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.client = proxies.client(peer: context.client, forwardedFor: request.headers[values: .xForwardedFor])
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`, the addresses a request passed through, the client's first.
    static var xForwardedFor: Self { .init("X-Forwarded-For")! }
}
