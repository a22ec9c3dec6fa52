import CVisionShim

/// How stored pixels must be transformed to appear upright; raw values are the EXIF
/// orientation tags 1–8, and the names follow Core Graphics' `CGImagePropertyOrientation`.
public enum ImageOrientation: UInt8, Sendable, CaseIterable, Codable {
    /// Stored upright (EXIF 1).
    case up = 1
    /// Mirrored left to right (EXIF 2).
    case upMirrored = 2
    /// Rotated by 180° (EXIF 3).
    case down = 3
    /// Mirrored top to bottom (EXIF 4).
    case downMirrored = 4
    /// Mirrored, then rotated 90° counter-clockwise to display (EXIF 5).
    case leftMirrored = 5
    /// Rotated 90° clockwise to display (EXIF 6).
    case right = 6
    /// Mirrored, then rotated 90° clockwise to display (EXIF 7).
    case rightMirrored = 7
    /// Rotated 90° counter-clockwise to display (EXIF 8).
    case left = 8

    /// Whether the upright image swaps the stored width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// Whether the orientation includes a mirror image.
    public var isMirrored: Bool {
        switch self {
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: true
        case .up, .down, .left, .right: false
        }
    }

    /// Maps a point of the upright image to the stored pixels, for stored size `width`×`height`.
    func storedPoint(fromUpright x: Double, _ y: Double, width: Double, height: Double) -> (x: Double, y: Double) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (width - x, y)
        case .down: (width - x, height - y)
        case .downMirrored: (x, height - y)
        case .leftMirrored: (y, x)
        case .right: (y, height - x)
        case .rightMirrored: (width - y, height - x)
        case .left: (width - y, x)
        }
    }

    /// The quarter turn and flip, in that order, that bring stored pixels upright.
    var uprightingSteps: (rotation: SVRotation?, flip: SVFlip?) {
        switch self {
        case .up: (nil, nil)
        case .upMirrored: (nil, SV_FLIP_HORIZONTAL)
        case .down: (SV_ROTATE_180, nil)
        case .downMirrored: (nil, SV_FLIP_VERTICAL)
        case .leftMirrored: (SV_ROTATE_90_CLOCKWISE, SV_FLIP_HORIZONTAL)
        case .right: (SV_ROTATE_90_CLOCKWISE, nil)
        case .rightMirrored: (SV_ROTATE_90_CLOCKWISE, SV_FLIP_VERTICAL)
        case .left: (SV_ROTATE_90_COUNTERCLOCKWISE, nil)
        }
    }

    /// The orientation of an image shown in this orientation and then transformed by `other`
    /// (applied after this one, in upright space).
    func followed(by other: ImageOrientation) -> ImageOrientation {
        let combined = other.dihedral.composed(after: dihedral)
        return ImageOrientation.allCases.first { $0.dihedral == combined } ?? .up
    }

    /// This orientation as an element of the symmetry group of the square: `quarterTurns`
    /// clockwise turns after an optional horizontal mirror.
    private var dihedral: Dihedral {
        switch self {
        case .up: Dihedral(mirrored: false, quarterTurns: 0)
        case .right: Dihedral(mirrored: false, quarterTurns: 1)
        case .down: Dihedral(mirrored: false, quarterTurns: 2)
        case .left: Dihedral(mirrored: false, quarterTurns: 3)
        case .upMirrored: Dihedral(mirrored: true, quarterTurns: 0)
        case .rightMirrored: Dihedral(mirrored: true, quarterTurns: 1)
        case .downMirrored: Dihedral(mirrored: true, quarterTurns: 2)
        case .leftMirrored: Dihedral(mirrored: true, quarterTurns: 3)
        }
    }
}

/// A mirror (optional) followed by clockwise quarter turns.
private struct Dihedral: Equatable {
    var mirrored: Bool
    var quarterTurns: Int

    /// `self` applied after `first`.
    func composed(after first: Dihedral) -> Dihedral {
        // A mirror moved ahead of k turns reverses them: T^k · M = M · T^-k.
        let turns = mirrored ? first.quarterTurns * 3 + quarterTurns : first.quarterTurns + quarterTurns
        return Dihedral(mirrored: first.mirrored != mirrored, quarterTurns: turns % 4)
    }
}
