import Foundation

/// A barcode's content read as ML Kit reads it: its kind, the value to show, and the fields of the
/// published formats it follows (`MEBKM:`, `WIFI:`, `mailto:`, `MATMSG:`, `tel:`, `SMSTO:`, `sms:`,
/// `geo:`, vCard, `MECARD:`, vCalendar's `VEVENT`, AAMVA driver's licences).
struct BarcodeContent {
    var valueType = BarcodeValueType.text
    var displayValue: String?
    var url: BarcodeURLBookmark?
    var wifi: BarcodeWifi?
    var email: BarcodeEmail?
    var phone: BarcodePhone?
    var sms: BarcodeSMS?
    var geoPoint: BarcodeGeoPoint?
    var contactInfo: BarcodeContactInfo?
    var calendarEvent: BarcodeCalendarEvent?
    var driverLicense: BarcodeDriverLicense?

    /// The content `text` of a code of `format`: EAN and UPC codes are products (books for EAN-13 from
    /// 978 or 979), a PDF417 code may be a driver's licence, and any code may hold a structured value;
    /// what follows no format is text, shown as it is.
    init(_ text: String, format: BarcodeFormat) {
        displayValue = text
        if [.EAN13, .EAN8, .UPCA, .UPCE].contains(format) {
            valueType = format == .EAN13 && (text.hasPrefix("978") || text.hasPrefix("979")) ? .ISBN : .product
            return
        }
        if format == .PDF417, let license = Self.driverLicense(text) {
            (valueType, driverLicense, displayValue) = (.driversLicense, license, license.licenseNumber)
            return
        }
        let lowered = text.lowercased()
        func after(_ prefix: String) -> String? {
            lowered.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : nil
        }
        if let body = after("mebkm:") {
            let fields = Self.fields(body)
            (valueType, url, displayValue) = (.URL, BarcodeURLBookmark(title: fields["TITLE"], url: fields["URL"]), fields["URL"])
        } else if lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), !text.contains(where: \.isWhitespace) {
            (valueType, url) = (.URL, BarcodeURLBookmark(title: nil, url: text))
        } else if let body = after("wifi:") {
            let fields = Self.fields(body)
            let network = BarcodeWifi(ssid: fields["S"], password: fields["P"], type: Self.encryption(fields["T"]))
            (valueType, wifi, displayValue) = (.wiFi, network, network.ssid)
        } else if let body = after("mailto:") {
            let (address, query) = Self.splitQuery(body)
            let message = BarcodeEmail(address: address, body: query["body"], subject: query["subject"])
            (valueType, email, displayValue) = (.email, message, address)
        } else if let body = after("matmsg:") {
            let fields = Self.fields(body)
            let message = BarcodeEmail(address: fields["TO"], body: fields["BODY"], subject: fields["SUB"])
            (valueType, email, displayValue) = (.email, message, message.address)
        } else if let number = after("tel:") {
            (valueType, phone, displayValue) = (.phone, BarcodePhone(number: number), number)
        } else if let body = after("smsto:") ?? after("mmsto:") {
            let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let message = BarcodeSMS(message: parts.count > 1 ? parts[1] : nil, phoneNumber: parts[0])
            (valueType, sms, displayValue) = (.SMS, message, parts[0])
        } else if let body = after("sms:") {
            let (number, query) = Self.splitQuery(body)
            (valueType, sms, displayValue) = (.SMS, BarcodeSMS(message: query["body"], phoneNumber: number), number)
        } else if let body = after("geo:"), let point = Self.geoPoint(body) {
            (valueType, geoPoint, displayValue) = (.geographicCoordinates, point, String(body.prefix { $0 != "?" }))
        } else if let body = after("mecard:") {
            let card = Self.meCard(Self.fieldValues(body))
            (valueType, contactInfo, displayValue) = (.contactInfo, card, card.name?.formattedName ?? card.organization)
        } else if lowered.hasPrefix("begin:vcard") {
            let card = Self.vCard(Self.contentLines(text))
            (valueType, contactInfo, displayValue) = (.contactInfo, card, card.name?.formattedName ?? card.organization)
        } else if lowered.contains("begin:vevent") {
            let event = Self.event(Self.contentLines(text))
            (valueType, calendarEvent, displayValue) = (.calendarEvent, event, event.summary)
        }
    }

    // MARK: - Fields of the MECARD family (`KEY:value;…;;`)

    /// The fields of a `KEY:value;KEY:value;;` body (MEBKM, WIFI, MATMSG), the last of a repeated key
    /// winning, with `\` escapes removed.
    static func fields(_ body: String) -> [String: String] {
        fieldValues(body).mapValues { $0.last ?? "" }
    }

    /// The values of each key of a `KEY:value;…;;` body, in order, with `\` escapes removed.
    static func fieldValues(_ body: String) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        for field in split(body, at: ";") {
            guard let colon = field.firstIndex(of: ":") else { continue }
            let key = field[..<colon].uppercased()
            fields[key, default: []].append(unescaped(String(field[field.index(after: colon)...])))
        }
        return fields
    }

    /// `text` split at each `separator` not escaped by a backslash (escapes kept).
    static func split(_ text: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                current += "\\" + String(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// `text` with each backslash escape replaced by the character it escapes (`\n` by a line break).
    static func unescaped(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A Wi-Fi `T:` value as ML Kit's type: no type or `nopass` is open.
    static func encryption(_ type: String?) -> BarcodeWiFiEncryptionType {
        switch type?.uppercased() ?? "" {
        case "", "NOPASS": .open
        case "WEP": .WEP
        case let name where name.hasPrefix("WPA") || name == "SAE": .WPA
        default: .unknown
        }
    }

    /// A URI's part before `?` and its query's parameters, percent-decoded, with lowercased names.
    static func splitQuery(_ text: String) -> (String, [String: String]) {
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var query: [String: String] = [:]
        for pair in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
            let item = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let value = item.count > 1 ? item[1].replacingOccurrences(of: "+", with: " ") : ""
            query[item[0].lowercased()] = value.removingPercentEncoding ?? value
        }
        return (parts[0].removingPercentEncoding ?? parts[0], query)
    }

    /// The point of a `geo:` body, `latitude,longitude[,altitude][?query]`, when both are in range.
    static func geoPoint(_ body: String) -> BarcodeGeoPoint? {
        let numbers = body.prefix { $0 != "?" && $0 != ";" }.split(separator: ",").map { Double($0) }
        guard numbers.count >= 2, let latitude = numbers[0], let longitude = numbers[1], abs(latitude) <= 90,
            abs(longitude) <= 180
        else { return nil }
        return BarcodeGeoPoint(latitude: latitude, longitude: longitude)
    }

    /// The card of a MECARD's fields: `N:last,first`, `SOUND`, `TEL`, `EMAIL`, `ADR`, `ORG`, `URL`.
    static func meCard(_ fields: [String: [String]]) -> BarcodeContactInfo {
        let name = fields["N"]?.first.map { full in
            let parts = full.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let (last, first) = (parts.first, parts.count > 1 ? parts[1] : nil)
            return BarcodePersonName(
                formattedName: [first, last].compactMap { $0 }.joined(separator: " "), first: first, last: last, middle: nil,
                prefix: nil, pronunciation: fields["SOUND"]?.first, suffix: nil)
        }
        return BarcodeContactInfo(
            addresses: (fields["ADR"] ?? []).map { BarcodeAddress(addressLines: [$0], type: .unknown) },
            emails: (fields["EMAIL"] ?? []).map { BarcodeEmail(address: $0) }, name: name,
            phones: (fields["TEL"] ?? []).map { BarcodePhone(number: $0) }, urls: fields["URL"] ?? [], jobTitle: nil,
            organization: fields["ORG"]?.first)
    }

    // MARK: - Content lines (vCard, vCalendar)

    /// A content line of a vCard or vCalendar: `NAME;PARAM=value:value`.
    struct ContentLine {
        /// The property's name, uppercased, without a group (`item1.`).
        var name: String
        /// The parameters' values and bare parameters, uppercased (`TYPE=WORK,VOICE` gives `WORK`, `VOICE`).
        var types: Set<String>
        /// The parameters by name, uppercased names (`TZID`).
        var parameters: [String: String]
        /// The value as written.
        var value: String
    }

    /// The content lines of `text`, folded lines joined.
    static func contentLines(_ text: String) -> [ContentLine] {
        let unfolded = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .replacingOccurrences(of: "\n\t", with: "")
        return unfolded.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            var head = line[..<colon].split(separator: ";").map { $0.uppercased() }
            guard !head.isEmpty else { return nil }
            let name = head.removeFirst().split(separator: ".").last.map(String.init) ?? ""
            var types = Set<String>()
            var parameters: [String: String] = [:]
            for parameter in head {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2 {
                    parameters[pair[0]] = pair[1]
                    types.formUnion(pair[1].split(separator: ",").map(String.init))
                } else {
                    types.insert(parameter)
                }
            }
            return ContentLine(name: name, types: types, parameters: parameters, value: String(line[line.index(after: colon)...]))
        }
    }

    /// The card of a vCard's lines: `FN`, `N`, `TEL`, `EMAIL`, `ADR`, `ORG`, `TITLE`, `URL`, with their
    /// `TYPE`s.
    static func vCard(_ lines: [ContentLine]) -> BarcodeContactInfo {
        func values(_ name: String) -> [ContentLine] { lines.filter { $0.name == name } }
        func text(_ line: ContentLine) -> String { unescaped(line.value) }
        func parts(_ line: ContentLine) -> [String?] {
            split(line.value, at: ";").map(unescaped).map { $0.isEmpty ? nil : $0 }
        }
        let name = values("N").first.map { line in
            let part = parts(line) + Array(repeating: nil, count: 5)
            let composed = [part[3], part[1], part[2], part[0], part[4]].compactMap { $0 }.joined(separator: " ")
            return BarcodePersonName(
                formattedName: values("FN").first.map(text) ?? composed, first: part[1], last: part[0], middle: part[2],
                prefix: part[3], pronunciation: nil, suffix: part[4])
        } ?? values("FN").first.map {
            BarcodePersonName(
                formattedName: text($0), first: nil, last: nil, middle: nil, prefix: nil, pronunciation: nil, suffix: nil)
        }
        let phones = values("TEL").map { line in
            let type: BarcodePhoneType =
                line.types.contains("FAX") ? .fax : line.types.contains("CELL") ? .mobile
                : line.types.contains("WORK") ? .work : line.types.contains("HOME") ? .home : .unknown
            return BarcodePhone(number: text(line), type: type)
        }
        let emails = values("EMAIL").map { line in
            BarcodeEmail(
                address: text(line), type: line.types.contains("WORK") ? .work : line.types.contains("HOME") ? .home : .unknown)
        }
        let addresses = values("ADR").map { line in
            BarcodeAddress(
                addressLines: [parts(line).compactMap { $0 }.joined(separator: ", ")],
                type: line.types.contains("WORK") ? .work : line.types.contains("HOME") ? .home : .unknown)
        }
        return BarcodeContactInfo(
            addresses: addresses, emails: emails, name: name, phones: phones, urls: values("URL").map(text),
            jobTitle: values("TITLE").first.map(text),
            organization: values("ORG").first.map { parts($0).compactMap { $0 }.joined(separator: ", ") })
    }

    /// The event of a vCalendar's lines, those of its first `VEVENT`.
    static func event(_ lines: [ContentLine]) -> BarcodeCalendarEvent {
        let start = lines.firstIndex { $0.name == "BEGIN" && $0.value.uppercased() == "VEVENT" } ?? 0
        let event = lines[start...].prefix { !($0.name == "END" && $0.value.uppercased() == "VEVENT") }
        func value(_ name: String) -> String? { event.first { $0.name == name }.map { unescaped($0.value) } }
        let organizer = value("ORGANIZER").map { $0.lowercased().hasPrefix("mailto:") ? String($0.dropFirst(7)) : $0 }
        return BarcodeCalendarEvent(
            eventDescription: value("DESCRIPTION"), location: value("LOCATION"), organizer: organizer, status: value("STATUS"),
            summary: value("SUMMARY"), start: event.first { $0.name == "DTSTART" }.flatMap(date),
            end: event.first { $0.name == "DTEND" }.flatMap(date))
    }

    /// The date of a `DTSTART` or `DTEND` line: `yyyyMMdd'T'HHmmss` with `Z` for UTC or a `TZID`, or a day.
    static func date(_ line: ContentLine) -> Date? {
        let value = line.value.trimmingCharacters(in: .whitespaces)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = value.hasSuffix("Z") ? TimeZone(identifier: "UTC") : line.parameters["TZID"].flatMap(TimeZone.init(identifier:)) ?? .current
        formatter.dateFormat = value.count == 8 ? "yyyyMMdd" : value.hasSuffix("Z") ? "yyyyMMdd'T'HHmmss'Z'" : "yyyyMMdd'T'HHmmss"
        return formatter.date(from: value)
    }

    // MARK: - AAMVA driver's licences

    /// The licence in an AAMVA card's data (`@`, then `ANSI ` or `AAMVA` and the subfile directory), or nil.
    ///
    /// The header's directory gives the first subfile's type (`DL` or `ID`); the data elements are the
    /// lines of the subfiles, each a three-letter element ID and its value, the first after its subfile type.
    static func driverLicense(_ text: String) -> BarcodeDriverLicense? {
        guard text.hasPrefix("@"), let marker = text.range(of: "ANSI ") ?? text.range(of: "AAMVA") else { return nil }
        let data = text[marker.upperBound...]
        let header = Array(data.prefix(16))
        // IIN (6 digits), AAMVA version (2), jurisdiction version (2, from version 2), number of entries (2),
        // then one entry per subfile: type (2), offset (4), length (4).
        guard header.count >= 10, let version = Int(String(header[6..<8])) else { return nil }
        let entries = version >= 2 ? 12 : 10
        guard header.count >= entries + 2, let count = Int(String(header[(entries - 2)..<entries])) else { return nil }
        let documentType = String(header[entries..<(entries + 2)])
        guard ["DL", "ID"].contains(documentType) else { return nil }
        var body = data.dropFirst(entries + 10 * count).drop { $0.isNewline || $0 == " " }
        if body.hasPrefix(documentType) { body = body.dropFirst(2) }
        var elements: [String: String] = [:]
        for line in body.split(whereSeparator: { $0.isNewline || $0 == "\u{1e}" }) {
            let id = String(line.prefix(3))
            guard id.count == 3, id.allSatisfy({ $0.isASCII && $0.isUppercase }), elements[id] == nil else { continue }
            let value = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { elements[id] = value }
        }
        return elements.isEmpty ? nil : BarcodeDriverLicense(elements: elements, documentType: documentType)
    }
}
