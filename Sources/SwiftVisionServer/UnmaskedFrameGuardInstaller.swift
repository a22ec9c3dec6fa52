import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Waits, behind the upgrade handler, for a connection's WebSocket upgrade to complete, then places an
/// ``UnmaskedFrameGuard`` right after the frame decoder the upgrade added and leaves the pipeline. A
/// connection that stays plain HTTP keeps it as a pass-through.
final class UnmaskedFrameGuardInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case HTTPServerUpgradeEvents.upgradeComplete = event,
            let decoder = try? context.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self)
        else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        try? context.pipeline.syncOperations.addHandler(UnmaskedFrameGuard(), position: .after(decoder.handler))
        context.fireUserInboundEventTriggered(event)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
