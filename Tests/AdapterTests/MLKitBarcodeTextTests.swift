import Foundation
import MLKit
import SwiftVisionTestSupport
import Testing

/// ML Kit's barcode and text shapes: codes written by zxing-cpp's Python binding (the reference venv)
/// holding payloads in their published formats (the Wi-Fi QR format, docomo's MEBKM, MATMSG and MECARD,
/// RFC 6068 `mailto:`, RFC 3966 `tel:`, RFC 5724 `sms:`, RFC 5870 `geo:`, vCard 3.0, iCalendar's VEVENT,
/// the AAMVA 2016 standard's sample licence), each parsed field checked against the payload it was written
/// from; and the words printed on page.png.
@Suite(.serialized) struct MLKitBarcodeTextTests {
    /// The payloads, by file name, with the format each is written in.
    static let payloads: [(name: String, format: String, payload: String)] = [
        ("wifi", "QRCode", #"WIFI:T:WPA;S:Cafe\;Net;P:pa\:ss;H:true;;"#),
        ("bookmark", "QRCode", #"MEBKM:TITLE:Swift;URL:https\://www.swift.org/;;"#),
        ("link", "Aztec", "https://example.com/a?b=c"),
        ("mailto", "QRCode", "mailto:ada@example.com?subject=Hello%20there&body=See%20you"),
        ("matmsg", "DataMatrix", "MATMSG:TO:bob@example.com;SUB:Lunch;BODY:At noon;;"),
        ("tel", "QRCode", "tel:+1-555-0100"),
        ("smsto", "QRCode", "SMSTO:+15550100:Running late"),
        ("sms", "QRCode", "sms:+15550101?body=On%20my%20way"),
        ("geo", "QRCode", "geo:48.8584,2.2945"),
        ("vcard", "QRCode", [
            "BEGIN:VCARD", "VERSION:3.0", "N:Lovelace;Ada;King;Countess;", "FN:Ada King Lovelace",
            "ORG:Analytical Engines Ltd;Research", "TITLE:Programmer", "TEL;TYPE=WORK,VOICE:+44 20 7946 0000",
            "TEL;TYPE=CELL:+44 7700 900000", "EMAIL;TYPE=HOME:ada@example.org",
            "ADR;TYPE=WORK:;;12 St James's Square;London;;SW1Y 4JH;United Kingdom", "URL:https://example.org/ada",
            "END:VCARD",
        ].joined(separator: "\r\n")),
        ("mecard", "QRCode", "MECARD:N:Turing,Alan;SOUND:tyuuringu;TEL:+441234567;EMAIL:alan@example.com;ADR:Bletchley Park;;"),
        ("vevent", "QRCode", [
            "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "SUMMARY:Launch review", "DESCRIPTION:Go over the plan",
            "LOCATION:Room 4", "ORGANIZER:mailto:lead@example.com", "STATUS:CONFIRMED", "DTSTART:20240607T120000Z",
            "DTEND:20240607T133000Z", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n")),
        // The sample of the AAMVA DL/ID Card Design Standard (2016), annex D.
        ("licence", "PDF417", "@\n\u{1e}\rANSI 636000090002DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\n"
            + "DDFN\nDADJOHN\nDDGN\nDCUJR\nDCAD\nDCBK\nDCDPH\nDBD06062019\nDBB06061986\nDBA12102024\nDBC1\nDAU068 in\n"
            + "DAYBRO\nDAG2300 WEST BROAD STREET\nDAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\n"
            + "DCGUSA\nDCK123456789\nDDAF\nDDB06062018\nDDC06062020\nDDD1\rZVZVA01\r"),
        ("isbn", "EAN13", "9780201633610"),
        ("product", "UPCA", "036000291452"),
        ("text", "Code128", "Hello, world"),
    ]

    /// The codes, written as PNG files into a temporary folder and read back, by name.
    static let codes = Result<[String: VisionImage], any Error> {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = """
            import json, sys, zxingcpp, numpy, cv2
            for name, fmt, payload in json.loads(sys.argv[2]):
                code = zxingcpp.create_barcode(payload, getattr(zxingcpp.BarcodeFormat, fmt))
                cv2.imwrite(f"{sys.argv[1]}/{name}.png", numpy.array(code.to_image(scale=4)))
            """
        let list = try JSONSerialization.data(withJSONObject: payloads.map { [$0.name, $0.format, $0.payload] })
        let python = Fixtures.cache.root.appendingPathComponent("venv/bin/python")
        let run = try Fixtures.run(python, ["-c", script, folder.path, String(decoding: list, as: UTF8.self)])
        try #require(run.status == 0, "writing the codes failed: \(run.errors)")
        return try Dictionary(uniqueKeysWithValues: payloads.map {
            ($0.name, try VisionImage(contentsOf: folder.appendingPathComponent("\($0.name).png")))
        })
    }

    /// The code `name` as ML Kit's image.
    static func image(_ name: String) throws -> MLKitVision.VisionImage {
        try #require(try codes.get()[name]).mlKitImage
    }

    /// The one code read from the image `name`, whose content must be its payload.
    func read(_ name: String, options: BarcodeScannerOptions = BarcodeScannerOptions()) throws -> Barcode {
        let scanner = BarcodeScanner.barcodeScanner(options: options, callbackQueue: .global())
        let found = try scanner.results(in: Self.image(name))
        let payload = try #require(Self.payloads.first { $0.name == name }?.payload)
        try #require(found.count == 1 && found[0].rawValue == payload, "\(name): read \(found.map(\.rawValue))")
        #expect(found[0].rawData == Data(payload.utf8), "\(name)")
        return found[0]
    }

    @Test func wifiBookmarkAndLinks() throws {
        let wifi = try read("wifi")
        #expect(wifi.valueType == .wiFi && wifi.format == .qrCode && wifi.displayValue == "Cafe;Net")
        #expect(wifi.wifi?.ssid == "Cafe;Net" && wifi.wifi?.password == "pa:ss" && wifi.wifi?.type == .WPA)
        #expect(wifi.url == nil && wifi.email == nil && wifi.contactInfo == nil)

        let bookmark = try read("bookmark")
        #expect(bookmark.valueType == .URL && bookmark.displayValue == "https://www.swift.org/")
        #expect(bookmark.url?.title == "Swift" && bookmark.url?.url == "https://www.swift.org/")

        let link = try read("link")
        #expect(link.valueType == .URL && link.format == .aztec && link.url?.url == "https://example.com/a?b=c")
        #expect(link.url?.title == nil && link.displayValue == "https://example.com/a?b=c")
    }

    @Test func emailPhoneMessagesAndPlaces() throws {
        let mailto = try read("mailto")
        #expect(mailto.valueType == .email && mailto.displayValue == "ada@example.com")
        #expect(mailto.email?.address == "ada@example.com" && mailto.email?.subject == "Hello there")
        #expect(mailto.email?.body == "See you" && mailto.email?.type == .unknown)

        let matmsg = try read("matmsg")
        #expect(matmsg.valueType == .email && matmsg.format == .dataMatrix && matmsg.email?.address == "bob@example.com")
        #expect(matmsg.email?.subject == "Lunch" && matmsg.email?.body == "At noon")

        let tel = try read("tel")
        #expect(tel.valueType == .phone && tel.phone?.number == "+1-555-0100" && tel.displayValue == "+1-555-0100")

        let smsto = try read("smsto")
        #expect(smsto.valueType == .SMS && smsto.sms?.phoneNumber == "+15550100" && smsto.sms?.message == "Running late")
        let sms = try read("sms")
        #expect(sms.valueType == .SMS && sms.sms?.phoneNumber == "+15550101" && sms.sms?.message == "On my way")

        let geo = try read("geo")
        #expect(geo.valueType == .geographicCoordinates && geo.geoPoint?.latitude == 48.8584)
        #expect(geo.geoPoint?.longitude == 2.2945 && geo.displayValue == "48.8584,2.2945")
    }

    @Test func businessCards() throws {
        let vcard = try read("vcard")
        let card = try #require(vcard.contactInfo)
        #expect(vcard.valueType == .contactInfo && vcard.displayValue == "Ada King Lovelace")
        #expect(card.name?.formattedName == "Ada King Lovelace" && card.name?.first == "Ada" && card.name?.last == "Lovelace")
        #expect(card.name?.middle == "King" && card.name?.prefix == "Countess" && card.name?.suffix == nil)
        #expect(card.organization == "Analytical Engines Ltd, Research" && card.jobTitle == "Programmer")
        #expect(card.phones?.map(\.number) == ["+44 20 7946 0000", "+44 7700 900000"])
        #expect(card.phones?.map(\.type) == [.work, .mobile])
        #expect(card.emails?.map(\.address) == ["ada@example.org"] && card.emails?.first?.type == .home)
        #expect(card.addresses?.first?.addressLines == ["12 St James's Square, London, SW1Y 4JH, United Kingdom"])
        #expect(card.addresses?.first?.type == .work && card.urls == ["https://example.org/ada"])

        let mecard = try read("mecard")
        let person = try #require(mecard.contactInfo)
        #expect(mecard.valueType == .contactInfo && mecard.displayValue == "Alan Turing")
        #expect(person.name?.first == "Alan" && person.name?.last == "Turing" && person.name?.pronunciation == "tyuuringu")
        #expect(person.phones?.map(\.number) == ["+441234567"] && person.emails?.map(\.address) == ["alan@example.com"])
        #expect(person.addresses?.first?.addressLines == ["Bletchley Park"])
    }

    @Test func calendarEventAndDriversLicence() throws {
        let vevent = try read("vevent")
        let event = try #require(vevent.calendarEvent)
        #expect(vevent.valueType == .calendarEvent && vevent.displayValue == "Launch review")
        #expect(event.summary == "Launch review" && event.eventDescription == "Go over the plan" && event.location == "Room 4")
        #expect(event.organizer == "lead@example.com" && event.status == "CONFIRMED")
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        #expect(event.start == utc.date(from: DateComponents(year: 2024, month: 6, day: 7, hour: 12)))
        #expect(event.end == utc.date(from: DateComponents(year: 2024, month: 6, day: 7, hour: 13, minute: 30)))

        let licence = try read("licence")
        let card = try #require(licence.driverLicense)
        #expect(licence.valueType == .driversLicense && licence.format == .PDF417 && licence.displayValue == "T64235789")
        #expect(card.documentType == "DL" && card.licenseNumber == "T64235789")
        #expect(card.firstName == "MICHAEL" && card.middleName == "JOHN" && card.lastName == "SAMPLE" && card.gender == "1")
        #expect(card.addressStreet == "2300 WEST BROAD STREET" && card.addressCity == "RICHMOND")
        #expect(card.addressState == "VA" && card.addressZip == "232690000" && card.issuingCountry == "USA")
        #expect(card.birthDate == "06061986" && card.issuingDate == "06062019" && card.expiryDate == "12102024")
    }

    @Test func productsTextFormatsAndCorners() throws {
        let isbn = try read("isbn")
        #expect(isbn.valueType == .ISBN && isbn.format == .EAN13 && isbn.displayValue == isbn.rawValue)
        let product = try read("product")
        #expect(product.valueType == .product && product.format == .UPCA)
        let text = try read("text")
        #expect(text.valueType == .text && text.format == .code128 && text.displayValue == "Hello, world")
        #expect(text.url == nil && text.wifi == nil && text.phone == nil)

        // ML Kit's raw values (its API reference).
        #expect(BarcodeFormat.qrCode.rawValue == 0x0100 && BarcodeFormat.PDF417.rawValue == 0x0800 && BarcodeFormat.all.rawValue == 0xFFFF)
        #expect(BarcodeValueType.wiFi.rawValue == 9 && BarcodeValueType.driversLicense.rawValue == 12)

        // Corners clockwise from the top left of the upright code, on the frame: zxing-cpp writes the QR
        // code with a 4-module quiet zone at 4 pixels a module.
        let wifi = try read("wifi")
        let corners = try #require(wifi.cornerPoints).map(\.cgPointValue)
        #expect(corners.count == 4)
        #expect(corners[0].x < corners[1].x && corners[1].y < corners[2].y && corners[2].x > corners[3].x)
        #expect(abs(corners[0].x - 16) <= 2 && abs(corners[0].y - 16) <= 2)
        #expect(abs(wifi.frame.minX - corners[0].x) <= 1 && abs(wifi.frame.maxY - corners[2].y) <= 1)

        // Formats limit what is read.
        #expect(try read("wifi", options: BarcodeScannerOptions(formats: [.qrCode, .EAN13])).format == .qrCode)
        let scanner = BarcodeScanner.barcodeScanner(options: BarcodeScannerOptions(formats: [.qrCode, .EAN13]), callbackQueue: .global())
        #expect(try scanner.results(in: Self.image("text")).isEmpty)
    }

    @Test func optionsWithoutAFormatAreAnMLKitError() async throws {
        let image = try Self.image("wifi")
        let scanner = BarcodeScanner.barcodeScanner(options: BarcodeScannerOptions(formats: []), callbackQueue: .global())
        let error = #expect(throws: NSError.self) { try scanner.results(in: image) }
        #expect(error?.domain == mlKitErrorDomain && error?.code == MLKitErrorCode.invalidArgument.rawValue)
        let delivered: ([Barcode]?, NSError?) = await withCheckedContinuation { continuation in
            scanner.process(image) { codes, error in continuation.resume(returning: (codes, error as NSError?)) }
        }
        #expect(delivered.0 == nil && delivered.1?.domain == mlKitErrorDomain)
    }

    @Test func textOfThePageAsMLKitShapesIt() async throws {
        let image = try MLKitVision.VisionImage(contentsOf: Fixtures.sample("page.png"))
        let textRecognizer = TextRecognizer.textRecognizer(options: TextRecognizerOptions(), callbackQueue: .global())
        let result = try textRecognizer.results(in: image)
        var words = result.blocks.flatMap(\.lines).flatMap(\.elements).map(\.text)
        let found = Fixtures.pageWords.filter { word in words.firstIndex(of: word).map { words.remove(at: $0) } != nil }
        #expect(Double(found.count) >= 0.9 * Double(Fixtures.pageWords.count), "\(result.text)")
        #expect(result.text == result.blocks.map(\.text).joined(separator: "\n\n"))
        for block in result.blocks {
            #expect(block.text == block.lines.map(\.text).joined(separator: "\n"))
            #expect(block.recognizedLanguages.map(\.languageCode) == ["en"])
            for line in block.lines {
                #expect(line.text == line.elements.map(\.text).joined(separator: " "))
                #expect(block.frame.contains(line.frame) && line.recognizedLanguages.map(\.languageCode) == ["en"])
                for element in line.elements {
                    #expect(line.frame.contains(element.frame) && element.recognizedLanguages.first?.languageCode == "en")
                    let frame = element.frame
                    let corners = [CGPoint(x: frame.minX, y: frame.minY), CGPoint(x: frame.maxX, y: frame.minY),
                                   CGPoint(x: frame.maxX, y: frame.maxY), CGPoint(x: frame.minX, y: frame.maxY)]
                    #expect(element.cornerPoints.map(\.cgPointValue) == corners)
                }
            }
        }
        let delivered: (Text?, (any Error)?) = await withCheckedContinuation { continuation in
            textRecognizer.process(image) { text, error in continuation.resume(returning: (text, error)) }
        }
        #expect(delivered.1 == nil && delivered.0?.text == result.text)
    }

    @Test func languagesWithoutDataAreAnMLKitError() throws {
        let options = TextRecognizerOptions()
        options.languages = ["tlh"]
        let image = try MLKitVision.VisionImage(contentsOf: Fixtures.sample("page.png"))
        let error = #expect(throws: NSError.self) {
            try TextRecognizer.textRecognizer(options: options, callbackQueue: .global()).results(in: image)
        }
        #expect(error?.domain == mlKitErrorDomain && error?.code == MLKitErrorCode.invalidArgument.rawValue)
    }
}
