import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Closes a WebSocket with status 1002 (protocol error) when the client sends a frame without a
/// masking key: RFC 6455 §5.1 requires every client frame to be masked and the server to close the
/// connection on one that is not. The WebSocket library unmasks what it is given and checks nothing.
///
/// Added behind the upgrade handler when the connection is set up, it waits for the upgrade to
/// complete, then places a checking copy of itself right after the frame decoder — before any frame
/// of the connection is decoded — and leaves the pipeline.
final class UnmaskedFrameGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Whether this copy sits after the frame decoder and checks frames (otherwise it waits for the upgrade).
    private let checksFrames: Bool
    private var closing = false

    init() {
        checksFrames = false
    }

    private init(checkingFrames: Void) {
        checksFrames = true
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !checksFrames, case HTTPServerUpgradeEvents.upgradeComplete = event,
            let decoder = try? context.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self)
        {
            try? context.pipeline.syncOperations.addHandler(UnmaskedFrameGuard(checkingFrames: ()), position: .after(decoder.handler))
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard checksFrames else {
            context.fireChannelRead(data)
            return
        }
        guard !closing else { return }
        guard unwrapInboundIn(data).maskKey == nil else {
            context.fireChannelRead(data)
            return
        }
        closing = true
        let reason = "client frames must be masked"
        var payload = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        payload.write(webSocketErrorCode: .protocolError)
        payload.writeString(reason)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)))
            .whenComplete { _ in channel.close(promise: nil) }
    }
}
