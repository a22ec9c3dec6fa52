import Foundation
import MediaPipeTasksVision

/// What `body` throws when it is MediaPipe's `NSError` (domain `com.google.mediapipe.tasks`): its code and
/// the SwiftVision error under it; nil when `body` throws nothing or an error of another kind.
func mediaPipeFailure(_ body: () throws -> Void) -> (code: TasksErrorCode, underlying: (any Error)?)? {
    do {
        try body()
        return nil
    } catch let error as NSError where error.domain == MPPTasksErrorDomain {
        return TasksErrorCode(rawValue: UInt(error.code)).map { ($0, error.userInfo[NSUnderlyingErrorKey] as? any Error) }
    } catch {
        return nil
    }
}
