@_exported import MLKitVision

/// The kind of content a barcode holds, as ML Kit's `BarcodeValueType` (its raw values are ML Kit's).
public struct BarcodeValueType: RawRepresentable, Hashable, Sendable {
    /// ML Kit's number for the kind.
    public let rawValue: Int

    /// The kind numbered `rawValue` by ML Kit.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Content of no kind below.
    public static let unknown = BarcodeValueType(rawValue: 0)
    /// A business card (`BEGIN:VCARD`, `MECARD:`): ``Barcode/contactInfo``.
    public static let contactInfo = BarcodeValueType(rawValue: 1)
    /// An e-mail (`mailto:`, `MATMSG:`): ``Barcode/email``.
    public static let email = BarcodeValueType(rawValue: 2)
    /// A book's number: an EAN-13 starting with 978 or 979.
    public static let ISBN = BarcodeValueType(rawValue: 3)
    /// A phone number (`tel:`): ``Barcode/phone``.
    public static let phone = BarcodeValueType(rawValue: 4)
    /// A product's number: the other EAN and UPC codes.
    public static let product = BarcodeValueType(rawValue: 5)
    /// A text message (`SMSTO:`, `sms:`): ``Barcode/sms``.
    public static let SMS = BarcodeValueType(rawValue: 6)
    /// Plain text.
    public static let text = BarcodeValueType(rawValue: 7)
    /// A web address or bookmark (`http://`, `https://`, `MEBKM:`): ``Barcode/url``.
    public static let URL = BarcodeValueType(rawValue: 8)
    /// A Wi-Fi network (`WIFI:`): ``Barcode/wifi``.
    public static let wiFi = BarcodeValueType(rawValue: 9)
    /// A place (`geo:`): ``Barcode/geoPoint``.
    public static let geographicCoordinates = BarcodeValueType(rawValue: 10)
    /// A calendar event (`BEGIN:VEVENT`): ``Barcode/calendarEvent``.
    public static let calendarEvent = BarcodeValueType(rawValue: 11)
    /// An AAMVA driver's licence or ID card in a PDF417 code: ``Barcode/driverLicense``.
    public static let driversLicense = BarcodeValueType(rawValue: 12)
}

/// What an address is, as ML Kit's `BarcodeAddressType`.
public struct BarcodeAddressType: RawRepresentable, Hashable, Sendable {
    /// ML Kit's number for the type.
    public let rawValue: Int

    /// The type numbered `rawValue` by ML Kit.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Not said.
    public static let unknown = BarcodeAddressType(rawValue: 0)
    /// A work address.
    public static let work = BarcodeAddressType(rawValue: 1)
    /// A home address.
    public static let home = BarcodeAddressType(rawValue: 2)
}

/// What an e-mail address is, as ML Kit's `BarcodeEmailType`.
public struct BarcodeEmailType: RawRepresentable, Hashable, Sendable {
    /// ML Kit's number for the type.
    public let rawValue: Int

    /// The type numbered `rawValue` by ML Kit.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Not said.
    public static let unknown = BarcodeEmailType(rawValue: 0)
    /// A work address.
    public static let work = BarcodeEmailType(rawValue: 1)
    /// A home address.
    public static let home = BarcodeEmailType(rawValue: 2)
}

/// What a phone number is, as ML Kit's `BarcodePhoneType`.
public struct BarcodePhoneType: RawRepresentable, Hashable, Sendable {
    /// ML Kit's number for the type.
    public let rawValue: Int

    /// The type numbered `rawValue` by ML Kit.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Not said.
    public static let unknown = BarcodePhoneType(rawValue: 0)
    /// A work number.
    public static let work = BarcodePhoneType(rawValue: 1)
    /// A home number.
    public static let home = BarcodePhoneType(rawValue: 2)
    /// A fax number.
    public static let fax = BarcodePhoneType(rawValue: 3)
    /// A mobile number.
    public static let mobile = BarcodePhoneType(rawValue: 4)
}

/// How a Wi-Fi network is secured, as ML Kit's `BarcodeWiFiEncryptionType`.
public struct BarcodeWiFiEncryptionType: RawRepresentable, Hashable, Sendable {
    /// ML Kit's number for the type.
    public let rawValue: Int

    /// The type numbered `rawValue` by ML Kit.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// A type not known.
    public static let unknown = BarcodeWiFiEncryptionType(rawValue: 0)
    /// An open network (`T:nopass`, or no type).
    public static let open = BarcodeWiFiEncryptionType(rawValue: 1)
    /// WPA, WPA2 or WPA3 (`T:WPA`, `T:WPA2`, `T:SAE`, …).
    public static let WPA = BarcodeWiFiEncryptionType(rawValue: 2)
    /// WEP (`T:WEP`).
    public static let WEP = BarcodeWiFiEncryptionType(rawValue: 3)
}
