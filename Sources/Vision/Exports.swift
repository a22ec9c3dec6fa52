// Foundation comes with Apple's Vision framework, so a file that imports `Vision` alone
// finds `URL`, `NSError`, `DispatchQueue` and `CGRect`, as on iOS.
@_exported import Foundation
