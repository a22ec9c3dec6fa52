import NIOCore
import NIOWebSocket

/// Closes a WebSocket with status 1002 (protocol error) when the client sends a frame without a
/// masking key: RFC 6455 §5.1 requires every client frame to be masked and the server to close the
/// connection on one that is not. The WebSocket library unmasks what it is given and checks nothing.
///
/// It sits right after the frame decoder, where ``UnmaskedFrameGuardInstaller`` places it once the
/// upgrade is complete, before any frame of the connection is decoded.
final class UnmaskedFrameGuard: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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
