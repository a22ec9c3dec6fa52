// The public umbrella: `import SwiftVision` brings every layer's public API.
@_exported import SwiftVisionCore
@_exported import SwiftVisionRuntime
@_exported import SwiftVisionTasks
