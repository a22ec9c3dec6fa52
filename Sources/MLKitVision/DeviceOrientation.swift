import SwiftVisionCore

/// How the device is held, as `UIDeviceOrientation`, for ``imageOrientation(deviceOrientation:cameraPosition:)``.
public enum DeviceOrientation: Sendable, CaseIterable {
    /// Upright, the home button (or bottom edge) at the bottom.
    case portrait
    /// Upside down.
    case portraitUpsideDown
    /// Turned so that the top edge points left.
    case landscapeLeft
    /// Turned so that the top edge points right.
    case landscapeRight
    /// Lying flat, screen up.
    case faceUp
    /// Lying flat, screen down.
    case faceDown
    /// Not known.
    case unknown
}

/// Which camera took the frame, as `AVCaptureDevice.Position`.
public enum CameraPosition: Sendable, CaseIterable {
    /// The selfie camera, whose preview is mirrored.
    case front
    /// The rear camera.
    case back
    /// Neither said (a webcam): handled as the back camera.
    case unspecified
}

/// The orientation to give a camera frame (`VisionImage.orientation`) taken with the device held in
/// `deviceOrientation` by the camera at `cameraPosition`: the table of ML Kit's iOS samples
/// (`imageOrientation(deviceOrientation:cameraPosition:)`), for a sensor mounted in landscape.
public func imageOrientation(deviceOrientation: DeviceOrientation, cameraPosition: CameraPosition) -> ImageOrientation {
    let front = cameraPosition == .front
    switch deviceOrientation {
    case .portrait: return front ? .leftMirrored : .right
    case .landscapeLeft: return front ? .downMirrored : .up
    case .portraitUpsideDown: return front ? .rightMirrored : .left
    case .landscapeRight: return front ? .upMirrored : .down
    case .faceUp, .faceDown, .unknown: return .up
    }
}
