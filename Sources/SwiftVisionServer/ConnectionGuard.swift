import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

/// The connections of one server: how many are open, and the time limits each is held to.
final class ConnectionPolicy: Sendable {
    let maxConnections: Int
    let headerTimeout: TimeAmount
    let bodyTimeout: TimeAmount
    let idleTimeout: TimeAmount
    /// The largest body the service reads (`maxBodyBytes`).
    let maxBodyBytes: Int
    private let open = Atomic<Int>(0)

    init(configuration: ServerConfiguration) {
        maxConnections = configuration.maxConnections
        headerTimeout = Self.timeAmount(configuration.headerTimeout)
        bodyTimeout = Self.timeAmount(configuration.bodyTimeout)
        idleTimeout = Self.timeAmount(configuration.idleTimeout)
        maxBodyBytes = configuration.maxBodyBytes
    }

    /// Counts a new connection; false when it is one too many.
    func opened() -> Bool {
        open.add(1, ordering: .relaxed).newValue <= maxConnections
    }

    /// Counts a connection that closed.
    func closed() {
        open.subtract(1, ordering: .relaxed)
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.wholeNanoseconds)
    }

    /// A complete HTTP/1.1 answer with a JSON error body that closes the connection, as raw bytes for a
    /// connection whose request was never parsed.
    static func rawAnswer(_ error: APIError) -> ByteBuffer {
        let body = error.body
        var head = "HTTP/1.1 \(error.status.code) \(error.status.reasonPhrase)\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for field in error.headers where field.name != .connection && field.name != .contentType {
            head += "\(field.name.rawName): \(field.value)\r\n"
        }
        var buffer = ByteBuffer(string: head + "\r\n")
        buffer.writeBytes(body)
        return buffer
    }
}

/// Wraps the server's connection set-up so that every connection first passes a ``ConnectionWatch``:
/// counted against the connection cap, and held to the first request's header deadline.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let policy: ConnectionPolicy

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionWatch(policy: policy), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let value = inner.setup(channel: channel, logger: logger)
        // Behind the HTTP decoder and the upgrade handler, which leave a parse error of the first request unanswered.
        try? channel.pipeline.syncOperations.addHandler(ParseErrorWatch(), position: .last)
        // Also behind the upgrade handler, to see the upgrade complete and check the WebSocket's frames from then on.
        try? channel.pipeline.syncOperations.addHandler(UnmaskedFrameGuardInstaller(), position: .last)
        return value
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// The first handler of every connection, on its raw bytes: refuses a connection past the cap with 503,
/// and closes one whose first request's headers do not arrive in time (answering 408). It sees the bytes
/// before any parsing, so a client that drips its headers one byte at a time is held to the deadline too.
final class ConnectionWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let policy: ConnectionPolicy
    private var started = false
    private var refused = false
    /// Whether the first request's headers are complete (an empty line seen).
    private var headComplete = false
    /// The last three bytes read, to find an empty line split across reads.
    private var tail: [UInt8] = []
    private var deadline: Scheduled<Void>?
    /// This handler's place in the pipeline, for answers written from elsewhere (``answer(_:on:)``).
    private var context: ChannelHandlerContext?

    init(policy: ConnectionPolicy) {
        self.policy = policy
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context) }
    }

    /// Answers `error` on `channel` as raw bytes and closes it: for requests that the HTTP layer can no
    /// longer answer (a refused WebSocket upgrade, a request the parser rejected before the first head).
    static func answer(_ error: APIError, on channel: any Channel) {
        channel.eventLoop.execute {
            guard let watch = try? channel.pipeline.syncOperations.handler(type: ConnectionWatch.self), let context = watch.context
            else {
                channel.close(promise: nil)
                return
            }
            watch.answerAndClose(context, error)
        }
    }

    /// A client that closes its side has left: close ours too, so that its work is cancelled rather
    /// than finished for nobody.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        if !refused { context.fireChannelActive() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        self.context = nil
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        let policy = policy
        context.channel.closeFuture.whenComplete { _ in policy.closed() }
        guard policy.opened() else {
            refused = true
            var error = APIError(
                .serviceUnavailable, "too_many_connections",
                "the service has \(policy.maxConnections) connections open; try again shortly")
            error.headers[.retryAfter] = "1"
            answerAndClose(context, error)
            return
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: policy.headerTimeout) {
            let (watch, context) = bound.value
            guard !watch.headComplete else { return }
            watch.answerAndClose(
                context, APIError(.requestTimeout, "header_timeout", "the request's headers did not arrive in time"))
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if !headComplete {
            let bytes = unwrapInboundIn(data)
            let window = tail + (bytes.getBytes(at: bytes.readerIndex, length: bytes.readableBytes) ?? [])
            if Self.containsEmptyLine(window) {
                headComplete = true
                deadline?.cancel()
                deadline = nil
            } else {
                tail = Array(window.suffix(3))
            }
        }
        context.fireChannelRead(data)
    }

    /// Whether `bytes` hold CRLF CRLF (or LF LF, which HTTP parsers accept too).
    static func containsEmptyLine(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        for index in 1..<bytes.count where bytes[index] == 0x0A {
            if bytes[index - 1] == 0x0A { return true }
            if index >= 3, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D { return true }
        }
        return false
    }

    private var answered = false

    private func answerAndClose(_ context: ChannelHandlerContext, _ error: APIError) {
        guard !answered else { return }
        answered = true
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ConnectionPolicy.rawAnswer(error))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

/// Holds each request of a kept-alive HTTP/1.1 connection to its body deadline (answering 408 when the
/// body stalls), and the connection to its idle deadline between requests (a next request's headers
/// must arrive within it, however slowly they drip).
///
/// A request may be answered before its body has arrived (an unknown task, a bad option, a full queue);
/// Hummingbird then reads the rest of the body and drops it. That answer stays the request's only one:
/// a body that stalls after it closes the connection without a 408, and the idle deadline starts once
/// the body has ended. An answer that says `Connection: close` (a full queue's 503) is followed by the
/// end of the sending side, so that a client still sending reads the answer rather than a reset, and
/// the connection closes once the rest of the body has come or its deadline has passed. Past
/// `maxBodyBytes` read after the answer, the rest of such a body is only load: the connection closes.
///
/// A client that waits for leave to send its body (`Expect: 100-continue`) gets `100 Continue` when the
/// service begins to read the body (``letBodyCome(on:)``), so that a request refused first is refused
/// without its upload, and one admitted never waits out the client's own timer (curl's is 1 s).
final class RequestWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let policy: ConnectionPolicy
    private var readingBody = false
    private var responding = false
    /// Whether the current request's answer has been written in full.
    private var answered = false
    /// Whether the answer being written says `Connection: close`.
    private var closesAfterAnswer = false
    /// Whether the current request's client waits for `100 Continue` before it sends the body.
    private var awaitsContinue = false
    /// The bytes of the current request's body read after its answer was written.
    private var bytesAfterAnswer = 0
    private var deadline: Scheduled<Void>?

    init(policy: ConnectionPolicy) {
        self.policy = policy
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    /// Sends `100 Continue` on `channel` when its current request's client waits for it and nothing has
    /// been answered: called as the service begins to read a request's body.
    static func letBodyCome(on channel: any Channel) {
        channel.eventLoop.execute {
            guard let context = try? channel.pipeline.syncOperations.context(handlerType: RequestWatch.self),
                let watch = context.handler as? RequestWatch, watch.awaitsContinue, !watch.responding, !watch.answered
            else { return }
            watch.awaitsContinue = false
            context.writeAndFlush(watch.wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
    }

    /// Whether a request with `headers` waits for `100 Continue` before it sends its body.
    static func awaitsContinue(_ headers: HTTPFields) -> Bool {
        headers[.expect]?.lowercased() == "100-continue"
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            readingBody = true
            answered = false
            bytesAfterAnswer = 0
            awaitsContinue = Self.awaitsContinue(head.headerFields)
            arm(context, after: policy.bodyTimeout) { watch, context in
                guard watch.readingBody else { return }
                watch.expire(context, APIError(.requestTimeout, "body_timeout", "the request's body did not arrive in time"))
            }
        case .body(let part):
            // A client that sends its body without waiting needs no leave.
            awaitsContinue = false
            if answered {
                bytesAfterAnswer += part.readableBytes
                guard bytesAfterAnswer <= policy.maxBodyBytes else {
                    context.close(promise: nil)
                    return
                }
            }
        case .end:
            readingBody = false
            awaitsContinue = false
            // The request's own deadline governs it from here.
            deadline?.cancel()
            deadline = nil
            if answered {
                context.fireChannelRead(data)
                closesAfterAnswer ? context.close(promise: nil) : armIdleDeadline(context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            responding = true
            closesAfterAnswer = head.headerFields[.connection]?.lowercased() == "close"
        case .body: break
        case .end:
            responding = false
            answered = true
            if closesAfterAnswer {
                let channel = context.channel
                let readingBody = readingBody
                context.writeAndFlush(data).whenComplete { result in
                    promise?.completeWith(result)
                    channel.close(mode: readingBody ? .output : .all, promise: nil)
                }
                return
            }
            if !readingBody { armIdleDeadline(context) }
        }
        context.write(data, promise: promise)
    }

    private func armIdleDeadline(_ context: ChannelHandlerContext) {
        arm(context, after: policy.idleTimeout) { _, context in context.close(promise: nil) }
    }

    private func arm(_ context: ChannelHandlerContext, after delay: TimeAmount, _ expire: @escaping (RequestWatch, ChannelHandlerContext) -> Void) {
        deadline?.cancel()
        let bound = NIOLoopBound((self, context, expire), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: delay) {
            let (watch, context, expire) = bound.value
            expire(watch, context)
        }
    }

    /// Answers `error` (unless the request has an answer, whole or begun) and closes the connection.
    private func expire(_ context: ChannelHandlerContext, _ error: APIError) {
        guard !responding, !answered else {
            context.close(promise: nil)
            return
        }
        var fields = error.headers
        fields[.contentType] = "application/json"
        fields[.connection] = "close"
        fields[.contentLength] = String(error.body.count)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: error.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: error.body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Answers a request the HTTP parser rejects with 400 and closes the connection. Hummingbird does so
/// once a connection carries plain HTTP; before the first request's head is parsed, the WebSocket
/// upgrade handler holds the connection and the error would go unanswered, the client left waiting.
final class ParseErrorWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        ConnectionWatch.answer(APIError(.badRequest, "bad_request", "the request is not valid HTTP/1.1"), on: context.channel)
    }
}
