import Foundation
import SwiftVisionCore
import Synchronization

/// One model download in flight, shared by everyone who asked for it: its Foundation `Progress`,
/// the streams of those following it, and how it ended.
final class ModelDownload: Sendable {
    private struct State {
        var followers: [AsyncThrowingStream<ModelDownloadProgress, any Error>.Continuation] = []
        var latest: ModelDownloadProgress?
        var outcome: Result<Void, ModelManagerError>?
    }

    /// ML Kit's progress object, updated under `state`'s lock. Linux has no key-value observing:
    /// read its `fractionCompleted` when needed, or ``follow()`` the download instead.
    let progress = Progress(totalUnitCount: -1)
    private let state = Mutex(State())

    /// A stream of this download's progress that finishes when it succeeds, or throws its error.
    func follow() -> AsyncThrowingStream<ModelDownloadProgress, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ModelDownloadProgress, any Error>.makeStream()
        state.withLock { state in
            if let latest = state.latest { continuation.yield(latest) }
            switch state.outcome {
            case nil: state.followers.append(continuation)
            case .success: continuation.finish()
            case .failure(let error): continuation.finish(throwing: error)
            }
        }
        return stream
    }

    func report(_ update: ModelDownloadProgress) {
        state.withLock { state in
            state.latest = update
            progress.totalUnitCount = update.totalBytes ?? -1
            progress.completedUnitCount = update.completedBytes
            for follower in state.followers { follower.yield(update) }
        }
    }

    func finish(_ outcome: Result<Void, ModelManagerError>) {
        let followers = state.withLock { state in
            state.outcome = outcome
            if case .success = outcome, progress.totalUnitCount < 0 { progress.totalUnitCount = progress.completedUnitCount }
            defer { state.followers = [] }
            return state.followers
        }
        for follower in followers {
            switch outcome {
            case .success: follower.finish()
            case .failure(let error): follower.finish(throwing: error)
            }
        }
    }
}
