import Foundation
import SwiftVisionTasks

/// A barcode read from an image, as ML Kit's `Barcode`: where it is, what it holds, and that content
/// parsed into the structured value of its kind (``valueType``).
public final class Barcode: @unchecked Sendable {
    /// The smallest upright rectangle holding the code, in pixels of the upright image.
    public let frame: CGRect
    /// The content as encoded, structured values unparsed (`MEBKM:TITLE:…;URL:…;;`), control characters
    /// (the line breaks of a driver's licence) as they are.
    public let rawValue: String?
    /// The content's bytes as encoded in the symbol.
    public let rawData: Data?
    /// The content as shown to a person: the address of a URL, the network of a Wi-Fi code, the name on a
    /// business card, the summary of an event, the number of a phone, message or licence, the coordinates
    /// of a place; ``rawValue`` for text and product codes.
    public let displayValue: String?
    /// The format; empty (ML Kit's unknown) for a format ML Kit does not name, such as Micro QR Code.
    public let format: BarcodeFormat
    /// The four corners, clockwise from the top left of the code as it reads upright, in pixels of the
    /// upright image: `CGPoint`s in `NSValue`s, as on iOS (`cgPointValue` reads one).
    public let cornerPoints: [NSValue]?
    /// The kind of content, which says which of the structured values below is set.
    public let valueType: BarcodeValueType
    /// The e-mail, for ``BarcodeValueType/email``.
    public let email: BarcodeEmail?
    /// The phone number, for ``BarcodeValueType/phone``.
    public let phone: BarcodePhone?
    /// The text message, for ``BarcodeValueType/SMS``.
    public let sms: BarcodeSMS?
    /// The web address, for ``BarcodeValueType/URL``.
    public let url: BarcodeURLBookmark?
    /// The Wi-Fi network, for ``BarcodeValueType/wiFi``.
    public let wifi: BarcodeWifi?
    /// The place, for ``BarcodeValueType/geographicCoordinates``.
    public let geoPoint: BarcodeGeoPoint?
    /// The business card, for ``BarcodeValueType/contactInfo``.
    public let contactInfo: BarcodeContactInfo?
    /// The calendar event, for ``BarcodeValueType/calendarEvent``.
    public let calendarEvent: BarcodeCalendarEvent?
    /// The driver's licence or ID card, for ``BarcodeValueType/driversLicense``.
    public let driverLicense: BarcodeDriverLicense?

    /// The code the reader read as `code`.
    init(_ code: SwiftVisionTasks.Barcode) {
        frame = code.frame
        // The reader's text shows control characters as `<LF>`, `<RS>`…; ML Kit keeps them.
        let controls = code.rawData.contains { $0 < 0x20 || $0 == 0x7F }
        let text = controls ? String(data: code.rawData, encoding: .utf8) ?? code.rawValue : code.rawValue
        rawValue = text
        rawData = code.rawData
        format = BarcodeFormat(reading: code.format)
        cornerPoints = code.corners.corners.map { NSValue(cgPoint: $0) }
        let content = BarcodeContent(text, format: format)
        (valueType, displayValue) = (content.valueType, content.displayValue)
        (email, phone, sms, url, wifi) = (content.email, content.phone, content.sms, content.url, content.wifi)
        (geoPoint, contactInfo, calendarEvent, driverLicense) = (
            content.geoPoint, content.contactInfo, content.calendarEvent, content.driverLicense
        )
    }
}
