import Foundation
import Testing

@testable import SwiftVisionCore

@Suite struct HexStringTests {
    /// Every byte value spells as Foundation's `%02x` spells it (lowercase, two digits), in order.
    @Test func spellsEveryByteAsPrintfDoes() {
        let bytes = (0...255).map(UInt8.init) + [0xde, 0xad, 0x00, 0x0f]
        #expect(bytes.hexString == bytes.map { String(format: "%02x", $0) }.joined())
        #expect([UInt8]().hexString.isEmpty)
        #expect(Data([0x00, 0x9f, 0xa0, 0xff]).hexString == "009fa0ff")
    }
}
