import Foundation

/// A web address and its title, from `MEBKM:` or a plain URL, as ML Kit's `BarcodeURLBookmark`.
public final class BarcodeURLBookmark: Sendable {
    /// The bookmark's title (`TITLE:`); nil for a plain URL.
    public let title: String?
    /// The address.
    public let url: String?

    init(title: String?, url: String?) {
        (self.title, self.url) = (title, url)
    }
}

/// A Wi-Fi network, from `WIFI:S:…;T:…;P:…;;`, as ML Kit's `BarcodeWifi`.
public final class BarcodeWifi: Sendable {
    /// The network's name (`S:`).
    public let ssid: String?
    /// The password (`P:`).
    public let password: String?
    /// How the network is secured (`T:`).
    public let type: BarcodeWiFiEncryptionType

    init(ssid: String?, password: String?, type: BarcodeWiFiEncryptionType) {
        (self.ssid, self.password, self.type) = (ssid, password, type)
    }
}

/// An e-mail, from `mailto:`, `MATMSG:` or a business card, as ML Kit's `BarcodeEmail`.
public final class BarcodeEmail: Sendable {
    /// The address.
    public let address: String?
    /// The message's text.
    public let body: String?
    /// The message's subject.
    public let subject: String?
    /// Work or home, where a business card says so.
    public let type: BarcodeEmailType

    init(address: String?, body: String? = nil, subject: String? = nil, type: BarcodeEmailType = .unknown) {
        (self.address, self.body, self.subject, self.type) = (address, body, subject, type)
    }
}

/// A phone number, from `tel:` or a business card, as ML Kit's `BarcodePhone`.
public final class BarcodePhone: Sendable {
    /// The number as written.
    public let number: String?
    /// Work, home, fax or mobile, where a business card says so.
    public let type: BarcodePhoneType

    init(number: String?, type: BarcodePhoneType = .unknown) {
        (self.number, self.type) = (number, type)
    }
}

/// A text message, from `SMSTO:number:message` or `sms:number?body=message`, as ML Kit's `BarcodeSMS`.
public final class BarcodeSMS: Sendable {
    /// The message.
    public let message: String?
    /// The number to send it to.
    public let phoneNumber: String?

    init(message: String?, phoneNumber: String?) {
        (self.message, self.phoneNumber) = (message, phoneNumber)
    }
}

/// A place, from `geo:latitude,longitude`, as ML Kit's `BarcodeGeoPoint`.
public final class BarcodeGeoPoint: Sendable {
    /// Degrees north.
    public let latitude: Double
    /// Degrees east.
    public let longitude: Double

    init(latitude: Double, longitude: Double) {
        (self.latitude, self.longitude) = (latitude, longitude)
    }
}

/// A postal address of a business card, as ML Kit's `BarcodeAddress`.
public final class BarcodeAddress: Sendable {
    /// The address on one line, its parts separated by commas (as ML Kit, which keeps parsing simple).
    public let addressLines: [String]?
    /// Work or home, where the card says so.
    public let type: BarcodeAddressType

    init(addressLines: [String]?, type: BarcodeAddressType) {
        (self.addressLines, self.type) = (addressLines, type)
    }
}

/// A person's name on a business card, as ML Kit's `BarcodePersonName`.
public final class BarcodePersonName: Sendable {
    /// The name as it is shown (vCard `FN`), else its parts joined.
    public let formattedName: String?
    /// The first (given) name.
    public let first: String?
    /// The last (family) name.
    public let last: String?
    /// The middle name.
    public let middle: String?
    /// The prefix, such as `Dr.`.
    public let prefix: String?
    /// How the name is read (MECARD `SOUND:`, for Japanese names).
    public let pronunciation: String?
    /// The suffix, such as `Jr.`.
    public let suffix: String?

    init(
        formattedName: String?, first: String?, last: String?, middle: String?, prefix: String?, pronunciation: String?,
        suffix: String?
    ) {
        (self.formattedName, self.first, self.last, self.middle) = (formattedName, first, last, middle)
        (self.prefix, self.pronunciation, self.suffix) = (prefix, pronunciation, suffix)
    }
}

/// A business card, from a vCard (`BEGIN:VCARD`) or `MECARD:`, as ML Kit's `BarcodeContactInfo`.
public final class BarcodeContactInfo: Sendable {
    /// The postal addresses.
    public let addresses: [BarcodeAddress]?
    /// The e-mail addresses.
    public let emails: [BarcodeEmail]?
    /// The person's name.
    public let name: BarcodePersonName?
    /// The phone numbers.
    public let phones: [BarcodePhone]?
    /// The web addresses.
    public let urls: [String]?
    /// The job title.
    public let jobTitle: String?
    /// The organisation.
    public let organization: String?

    init(
        addresses: [BarcodeAddress], emails: [BarcodeEmail], name: BarcodePersonName?, phones: [BarcodePhone], urls: [String],
        jobTitle: String?, organization: String?
    ) {
        (self.addresses, self.emails, self.name, self.phones) = (addresses, emails, name, phones)
        (self.urls, self.jobTitle, self.organization) = (urls, jobTitle, organization)
    }
}

/// A calendar event, from `BEGIN:VEVENT`, as ML Kit's `BarcodeCalendarEvent`.
public final class BarcodeCalendarEvent: Sendable {
    /// `DESCRIPTION`.
    public let eventDescription: String?
    /// `LOCATION`.
    public let location: String?
    /// `ORGANIZER`, without a `mailto:` prefix.
    public let organizer: String?
    /// `STATUS`.
    public let status: String?
    /// `SUMMARY`.
    public let summary: String?
    /// `DTSTART`: in UTC when it ends in `Z`, in its `TZID` when it names one, else in this machine's time zone.
    public let start: Date?
    /// `DTEND`, read as ``start``.
    public let end: Date?

    init(
        eventDescription: String?, location: String?, organizer: String?, status: String?, summary: String?, start: Date?,
        end: Date?
    ) {
        (self.eventDescription, self.location, self.organizer, self.status) = (eventDescription, location, organizer, status)
        (self.summary, self.start, self.end) = (summary, start, end)
    }
}

/// A driver's licence or ID card, from the AAMVA data of a PDF417 code, as ML Kit's
/// `BarcodeDriverLicense`; the other fields of the card are in ``Barcode/rawValue``.
public final class BarcodeDriverLicense: Sendable {
    /// `DAC`, or `DCT` in older cards.
    public let firstName: String?
    /// `DAD`.
    public let middleName: String?
    /// `DCS`, or `DAB` in older cards.
    public let lastName: String?
    /// `DBC`: `1` male, `2` female.
    public let gender: String?
    /// `DAI`.
    public let addressCity: String?
    /// `DAJ`.
    public let addressState: String?
    /// `DAG`.
    public let addressStreet: String?
    /// `DAK`.
    public let addressZip: String?
    /// `DBB`, in the issuing country's date format.
    public let birthDate: String?
    /// `DL` for a driver's licence, `ID` for an ID card: the card's first subfile.
    public let documentType: String?
    /// `DAQ`.
    public let licenseNumber: String?
    /// `DBA`, in the issuing country's date format.
    public let expiryDate: String?
    /// `DBD`, in the issuing country's date format.
    public let issuingDate: String?
    /// `DCG`.
    public let issuingCountry: String?

    /// The card whose data elements (three-letter ID to value) are `elements`, its first subfile of `documentType`.
    init(elements: [String: String], documentType: String?) {
        firstName = elements["DAC"] ?? elements["DCT"]
        middleName = elements["DAD"]
        lastName = elements["DCS"] ?? elements["DAB"]
        gender = elements["DBC"]
        addressCity = elements["DAI"]
        addressState = elements["DAJ"]
        addressStreet = elements["DAG"]
        addressZip = elements["DAK"]
        birthDate = elements["DBB"]
        self.documentType = documentType
        licenseNumber = elements["DAQ"]
        expiryDate = elements["DBA"]
        issuingDate = elements["DBD"]
        issuingCountry = elements["DCG"]
    }
}
