import SwiftVisionCore
import SwiftVisionRuntime

/// Indices into MediaPipe's 468-point face mesh that make up each facial feature, following the
/// chains of MediaPipe's `face_mesh_connections`. "Left" and "right" are the subject's.
package enum FaceMeshTopology {
    package static let faceOval = [
        10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377,
        152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
    ]
    package static let leftEye = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466]
    package static let rightEye = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246]
    package static let leftEyebrowTop = [300, 293, 334, 296, 336]
    package static let leftEyebrowBottom = [276, 283, 282, 295, 285]
    package static let rightEyebrowTop = [70, 63, 105, 66, 107]
    package static let rightEyebrowBottom = [46, 53, 52, 65, 55]
    static let upperLipTop = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291]
    static let upperLipBottom = [191, 80, 81, 82, 13, 312, 311, 310, 415]
    static let lowerLipTop = [95, 88, 178, 87, 14, 317, 402, 318, 324]
    static let lowerLipBottom = [146, 91, 181, 84, 17, 314, 405, 321, 375]
    package static let outerLips = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146]
    package static let innerLips = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95]
    static let noseBridge = [168, 4]
    package static let noseCrest = [168, 6, 197, 195, 5, 4]
    static let noseBottom = [98, 2, 327]
    package static let noseOutline = [98, 97, 2, 326, 327, 294, 278, 344, 440, 275, 4, 45, 220, 115, 48, 64]
    package static let medianLine = [
        10, 151, 9, 8, 168, 6, 197, 195, 5, 4, 1, 19, 94, 2, 164, 0, 11, 12, 13, 14, 15, 16, 17, 18, 200, 199, 175, 152,
    ]
    static let leftCheek = 425
    static let rightCheek = 205
    static let leftEar = 454
    static let rightEar = 234
    static let noseTip = 1
    static let noseBase = 2
    static let mouthLeft = 291
    static let mouthRight = 61
    static let mouthBottom = 17
    /// The corners the iris crop spans: (outer, inner) of each eye.
    static let leftEyeCorners = (outer: 263, inner: 362)
    static let rightEyeCorners = (outer: 33, inner: 133)
}
