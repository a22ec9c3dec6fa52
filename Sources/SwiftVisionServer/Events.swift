import Foundation
import Synchronization

/// Something that happened in a source's frames: a tracked object entered or left, a face appeared or
/// left, a barcode was read, a watched phrase appeared in the text, a person appeared in or left the
/// segmentation. Its JSON is what webhooks receive and what the event stream sends.
struct SourceEvent: Codable, Sendable, Equatable {
    /// Unique across sources and restarts: the source's ID, when its run began, and a sequence number.
    var id: String
    /// `object.entered`, `object.left`, `face.appeared`, `face.left`, `barcode.read`, `text.matched`,
    /// `segment.person_present` or `segment.person_absent`.
    var type: String
    /// The source's ID.
    var source: String
    /// When the event was made, in milliseconds since 1970.
    var timestampMs: Int64
    /// The tracking ID of an object or face.
    var trackingID: Int?
    /// An object's most confident class, when the task classifies.
    var label: String?
    /// A barcode's text, or the watched phrase that `text.matched` found.
    var value: String?
    /// The recognised line that holds the phrase (`text.matched`).
    var text: String?
    /// The share of the frame that is a person (`segment.person_present`).
    var personFraction: Double?
    /// The box, in pixels of the upright frame, where the track was last seen.
    var box: EventBox?
    /// When the track was first and last seen, in milliseconds since 1970.
    var firstSeenMs: Int64?
    var lastSeenMs: Int64?

    /// The event as one JSON object, keys sorted.
    func encoded() -> Data {
        (try? serviceEncoder.encode(self)) ?? Data("{}".utf8)
    }
}

/// A box in pixels.
struct EventBox: Codable, Sendable, Equatable {
    var x, y, width, height: Double
}

/// Turns a source's per-frame outputs into events, by tracking ID (objects, faces), value (barcodes),
/// watched phrase (text) or a person's presence (segmentation).
/// A track leaves once it has not been seen for ``leaveAfterMilliseconds`` of stream time, or when the
/// source stops. Not safe for concurrent use: one source's results arrive one at a time.
struct EventTracker {
    /// How long a track may go unseen before it counts as gone.
    static let leaveAfterMilliseconds: Int64 = 1000
    /// The most phrases a text source watches for.
    static let phraseLimit = 16
    /// The share of a frame that must be a person for `segment.person_present`: 0.5 %, about a head and
    /// shoulders 60 pixels tall in a 640×480 frame; below it a mask's stray pixels would count.
    static let personFractionThreshold = 0.005

    private struct Track {
        var kind: Kind
        var trackingID: Int?
        var label: String?
        var value: String?
        var text: String?
        var personFraction: Double?
        var box: EventBox?
        var firstSeen: Int64
        var lastSeen: Int64
    }

    private enum Kind {
        case object, face, barcode, phrase, person

        var left: String? {
            switch self {
            case .object: "object.left"
            case .face: "face.left"
            case .person: "segment.person_absent"
            case .barcode, .phrase: nil
            }
        }
    }

    let source: String
    /// The phrases a text source watches for, lowercased.
    private let phrases: [String]
    private let run: String
    private var sequence = 0
    private var tracks: [String: Track] = [:]
    /// Whether the source has ended: a frame still in flight when it did makes no event.
    private var isFinished = false

    /// Whether the output of task `name` can make an event (a text task only when it watches `phrases`):
    /// the others' answers need not be read back.
    static func makesEvents(forTask name: String, phrases: [String] = []) -> Bool {
        eventTasks.contains(name) || (name == "text" && !phrases.isEmpty)
    }

    /// The tasks whose output makes events whatever the source watches (docs/sources.md).
    static let eventTasks = ["objects", "faces", "barcodes", "segment"]

    /// A tracker for `source`, whose event IDs carry `runStartMs` so that they stay unique across restarts,
    /// watching a text source's recognised text for `phrases` (any case).
    init(source: String, runStartMs: Int64, phrases: [String] = []) {
        self.source = source
        self.phrases = phrases.map { $0.lowercased() }
        run = String(runStartMs, radix: 36)
    }

    /// The events of one frame's output (the task's JSON object) seen at `time` (ms since 1970).
    mutating func events(for output: [String: Any], at time: Int64) -> [SourceEvent] {
        guard !isFinished else { return [] }
        var seen: [(String, Track, String)] = []
        for object in output["objects"] as? [[String: Any]] ?? [] {
            guard let id = object["trackingID"] as? Int else { continue }
            let labels = object["labels"] as? [[String: Any]] ?? []
            let track = Track(
                kind: .object, trackingID: id, label: labels.first?["text"] as? String, box: Self.box(object["frame"]),
                firstSeen: time, lastSeen: time)
            seen.append(("object:\(id)", track, "object.entered"))
        }
        for face in output["faces"] as? [[String: Any]] ?? [] {
            guard let id = face["trackingID"] as? Int else { continue }
            let track = Track(kind: .face, trackingID: id, box: Self.box(face["boundingBox"]), firstSeen: time, lastSeen: time)
            seen.append(("face:\(id)", track, "face.appeared"))
        }
        for barcode in output["barcodes"] as? [[String: Any]] ?? [] {
            guard let text = barcode["text"] as? String else { continue }
            seen.append(("barcode:\(text)", Track(kind: .barcode, value: text, firstSeen: time, lastSeen: time), "barcode.read"))
        }
        if !phrases.isEmpty, let text = output["text"] as? String {
            let lines = text.split(whereSeparator: \.isNewline).map(String.init)
            for phrase in phrases {
                guard let line = lines.first(where: { $0.lowercased().contains(phrase) }) else { continue }
                let track = Track(kind: .phrase, value: phrase, text: line, firstSeen: time, lastSeen: time)
                seen.append(("phrase:\(phrase)", track, "text.matched"))
            }
        }
        if let fraction = output["personFraction"] as? Double, fraction >= Self.personFractionThreshold {
            let track = Track(kind: .person, personFraction: fraction, firstSeen: time, lastSeen: time)
            seen.append(("person", track, "segment.person_present"))
        }
        var events: [SourceEvent] = []
        for (key, track, type) in seen {
            if var known = tracks[key] {
                known.lastSeen = time
                known.box = track.box ?? known.box
                known.label = known.label ?? track.label
                tracks[key] = known
            } else {
                tracks[key] = track
                events.append(event(type, track, at: time))
            }
        }
        events += leave(at: time) { time - $0.lastSeen > Self.leaveAfterMilliseconds }
        return events
    }

    /// `left` events for every track still present: the source was opened again after a gap, and its
    /// tracking starts afresh.
    mutating func leaveAll() -> [SourceEvent] {
        leave(at: WebhookOutbox.nowMilliseconds()) { _ in true }
    }

    /// `left` events for every track still present, and no more events: the source stopped or ended.
    mutating func finish() -> [SourceEvent] {
        isFinished = true
        return leaveAll()
    }

    /// `left` events, made at `time`, for the tracks that are `gone`. A frame's leaving is timed by that
    /// frame, in the time its other events have (a live stream's own `timestampMs`, docs/sources.md); a
    /// source that stops has no frame, and takes the clock's time, which its frames are timed by too.
    private mutating func leave(at time: Int64, where gone: (Track) -> Bool) -> [SourceEvent] {
        let leaving = tracks.filter { gone($0.value) }.sorted { ($0.value.firstSeen, $0.key) < ($1.value.firstSeen, $1.key) }
        var events: [SourceEvent] = []
        for (key, track) in leaving {
            tracks[key] = nil
            if let type = track.kind.left { events.append(event(type, track, at: time)) }
        }
        return events
    }

    private mutating func event(_ type: String, _ track: Track, at time: Int64) -> SourceEvent {
        sequence += 1
        let isLeaving = type == track.kind.left
        return SourceEvent(
            id: "\(source).\(run).\(sequence)", type: type, source: source, timestampMs: time, trackingID: track.trackingID,
            label: track.label, value: track.value, text: track.text, personFraction: track.personFraction, box: track.box,
            firstSeenMs: track.kind == .barcode || track.kind == .phrase ? nil : track.firstSeen,
            lastSeenMs: isLeaving ? track.lastSeen : nil)
    }

    private static func box(_ value: Any?) -> EventBox? {
        guard let box = value as? [String: Any], let x = box["x"] as? Double, let y = box["y"] as? Double,
            let width = box["width"] as? Double, let height = box["height"] as? Double
        else { return nil }
        return EventBox(x: x, y: y, width: width, height: height)
    }
}

/// Where a source's events go to listeners of `GET /v1/sources/{id}/events`: each listener gets the
/// events made after it subscribed, up to ``bufferLimit`` waiting (older ones are dropped for a slow
/// listener; webhooks, not listeners, are the at-least-once path).
final class EventHub: Sendable {
    /// Events waiting for one listener.
    static let bufferLimit = 256
    /// Listeners of one source at once.
    static let listenerLimit = 8

    private struct State {
        var listeners: [Int: AsyncStream<SourceEvent>.Continuation] = [:]
        var nextID = 0
        var closed = false
    }
    private let state = Mutex(State())

    /// A stream of the events published from now on (one already finished when the hub is closed: the
    /// source has ended), or nil when ``listenerLimit`` listen already.
    func subscribe() -> AsyncStream<SourceEvent>? {
        let (stream, continuation) = AsyncStream<SourceEvent>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let id = state.withLock { state -> Int?? in
            guard !state.closed else { return .some(nil) }
            guard state.listeners.count < Self.listenerLimit else { return nil }
            state.nextID += 1
            state.listeners[state.nextID] = continuation
            return state.nextID
        }
        guard let id else { return nil }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `events` to every listener.
    func publish(_ events: [SourceEvent]) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners {
            for event in events { listener.yield(event) }
        }
    }

    /// Ends every listener's stream; later subscriptions are refused.
    func close() {
        let listeners = state.withLock { state -> [AsyncStream<SourceEvent>.Continuation] in
            state.closed = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}
