/// The hardware a MediaPipe task asks to run its model on (MediaPipe's `Delegate`, `MPPDelegate`).
///
/// Every task here runs LiteRT on the CPU (XNNPACK). `.GPU` is accepted so that code written for iOS,
/// where it selects the Metal delegate, compiles and runs unchanged: it runs on the CPU, as MediaPipe
/// itself runs a graph whose parts the GPU cannot run.
public enum Delegate: Int, Sendable, CaseIterable {
    /// The CPU, MediaPipe's default.
    case CPU = 0
    /// The GPU on iOS; the CPU here.
    case GPU = 1
}
