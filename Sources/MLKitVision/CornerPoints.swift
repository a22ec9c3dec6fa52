import Foundation

extension NSValue {
    /// A value holding `point`, as UIKit's `NSValue(cgPoint:)`: ML Kit's `cornerPoints` are such values.
    public convenience init(cgPoint point: CGPoint) {
        self.init(point: point)
    }

    /// The point this value holds, as UIKit's `cgPointValue`.
    public var cgPointValue: CGPoint { pointValue }
}
