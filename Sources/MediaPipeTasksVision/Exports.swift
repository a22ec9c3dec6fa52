// Foundation comes with MediaPipe's framework (its Objective-C headers import it), so a file that imports `MediaPipeTasksVision` alone
// finds `URL`, `NSError`, `DispatchQueue` and `CGRect`, as on iOS.
@_exported import Foundation
