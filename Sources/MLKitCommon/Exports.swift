// Foundation comes with ML Kit's frameworks (their Objective-C headers import it), so a file that imports `MLKit` or any `MLKit…` module alone
// finds `URL`, `NSError`, `DispatchQueue` and `CGRect`, as on iOS.
@_exported import Foundation
