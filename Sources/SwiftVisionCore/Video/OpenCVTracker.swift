import CVisionShim
import Foundation

/// One of OpenCV contrib's single-object trackers, started on a box of a frame and updated frame by
/// frame. Owns its C handle, released when the tracker is. Not safe for concurrent use.
package final class OpenCVTracker {
    /// The tracking algorithm.
    package enum Kind: Sendable {
        /// Kernelized correlation filters: fast, fixed scale.
        case kcf
        /// Discriminative correlation filter with channel and spatial reliability: slower, follows scale.
        case csrt
    }

    private let handle: OpaquePointer

    /// Starts a tracker of `kind` on `box` (whole pixels inside `frame`) of the BGR `frame`.
    package init(kind: Kind, frame: PixelBuffer, box: CGRect) throws {
        let shimKind = kind == .kcf ? SV_TRACKER_KCF : SV_TRACKER_CSRT
        guard let handle = frame.withView({ view in
            sv_tracker_create(shimKind, view, Int32(box.minX), Int32(box.minY), Int32(box.width), Int32(box.height))
        }) else {
            throw ImageError.processingFailed(String(cString: sv_last_error()))
        }
        self.handle = handle
    }

    /// The object's box in the BGR `frame`, nil when the tracker finds no match.
    package func update(with frame: PixelBuffer) throws -> CGRect? {
        var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        let status = frame.withView { sv_tracker_update(handle, $0, &x, &y, &width, &height) }
        guard status >= 0 else { throw ImageError.processingFailed(String(cString: sv_last_error())) }
        return status == 1 ? CGRect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)) : nil
    }

    deinit {
        sv_tracker_release(handle)
    }
}
