import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// How a request fits an image to its model's square input, as Vision's `ImageCropAndScaleOption`.
public enum ImageCropAndScaleOption: Sendable, Hashable, CaseIterable {
    /// Scale to cover the input, cutting the overflow equally from both sides.
    case centerCrop
    /// Scale to fit inside the input, keeping the aspect ratio, and pad the rest.
    case scaleFit
    /// Scale each axis on its own to fill the input.
    case scaleFill

    var resizeMode: ImageTensorFormat.ResizeMode {
        switch self {
        case .centerCrop: .centerCrop
        case .scaleFit: .letterbox
        case .scaleFill: .stretch
        }
    }
}
