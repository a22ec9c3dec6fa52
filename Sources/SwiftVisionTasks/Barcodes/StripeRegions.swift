import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Places where many strong, parallel edges run side by side, as the bars of a linear code do: cells
/// of the image (or of a copy reduced by a whole factor) whose Sobel gradients are dense, lie along
/// one line and point both ways along it about equally (dark to light and light to dark: bars, not
/// one long edge), joined with neighbours of nearly the same direction. Cheap evidence of where a linear code may lie, and at which slant.
enum StripeRegions {
    /// One place: its box in the image's pixels, the direction of its gradients in degrees
    /// (0 ≤ angle < 180, 0 pointing right, clockwise), and the boxes of its cells.
    struct Region {
        var box: CGRect
        var direction: Double
        var cells: [CGRect]
    }

    /// Cells are this many pixels square in the image or its reduced copy.
    static let cellSide = 16
    /// Gradients are taken at every second pixel of every second row: each edge still meets a sampled
    /// pixel (a Sobel gradient spans three), and the shares of strong pixels stay, at a quarter of the cost.
    static let sampling = 2
    /// A striped cell has at least this share of its pixels on strong edges...
    static let minimumDensity = 0.2
    /// ...and at least this coherence of direction (1 when all its gradients point one way).
    static let minimumCoherence = 0.7
    /// ...and its gradients' unit vectors add up to at most this share of their count.
    static let maximumPolarity = 0.5
    /// Neighbouring cells join when their directions differ by less than this, in degrees.
    static let joiningAngle = 12.0
    /// A place has at least this many cells.
    static let minimumCells = 4

    /// A busy cell has at least this share of its pixels on strong edges, running every way (below
    /// the striped cells' coherence), as the modules of a matrix code do.
    static let busyDensity = 0.35

    /// The places of one image: striped places, the largest first, and busy places (boxes of joined
    /// busy cells, the largest first).
    struct Places {
        var striped: [Region]
        var busy: [CGRect]
    }

    /// Images are reduced by the whole factor that keeps their longer side below twice this many pixels.
    static let reducedSide = 1024

    /// The striped and the busy places of `gray`, a gray buffer.
    static func find(in gray: PixelBuffer) throws -> Places {
        let (small, scale) = try reduced(gray)
        let columns = small.width / cellSide, rows = small.height / cellSide
        guard columns > 0, rows > 0 else { return Places(striped: [], busy: []) }
        let cells = cellStatistics(of: small, columns: columns, rows: rows)
        let area = Double((cellSide / sampling) * (cellSide / sampling))
        let striped = cells.map { cell in
            cell.count >= minimumDensity * area && cell.coherence >= minimumCoherence
                && cell.polarity <= maximumPolarity ? cell.direction : nil
        }
        let busy = cells.map { $0.count >= busyDensity * area && $0.coherence < minimumCoherence }
        func box(_ index: Int) -> CGRect {
            let (row, column) = index.quotientAndRemainder(dividingBy: columns)
            return CGRect(
                x: Double(column * cellSide) * scale.width, y: Double(row * cellSide) * scale.height,
                width: Double(cellSide) * scale.width, height: Double(cellSide) * scale.height)
        }
        let stripes = components(columns: columns, rows: rows) { a, b in
            guard let first = striped[a], let second = striped[b] else { return false }
            return angleBetween(first, second) < joiningAngle
        }.filter { $0.count >= minimumCells }.map { members in
            let boxes = members.map(box)
            var direction = DirectionSum()
            for member in members { direction.add(degrees: striped[member]!, weight: cells[member].strength) }
            return Region(box: boxes.reduce(CGRect.null) { $0.union($1) }, direction: direction.degrees, cells: boxes)
        }
        let busyPlaces = components(columns: columns, rows: rows) { busy[$0] && busy[$1] }
            .filter { $0.count >= 2 }.sorted { $0.count > $1.count }
            .map { $0.map(box).reduce(CGRect.null) { $0.union($1) } }
        return Places(striped: stripes.sorted { $0.cells.count > $1.cells.count }, busy: busyPlaces)
    }

    /// `gray` reduced by a whole factor (OpenCV averages areas quickly then; most photos need none,
    /// their sampled gradients cost no more than a reduced copy's), and the factors back to `gray`. A strip
    /// narrower than the factor stays as it is: it holds no cell either way.
    private static func reduced(_ gray: PixelBuffer) throws -> (buffer: PixelBuffer, scale: CGSize) {
        let factor = max(1, max(gray.width, gray.height) / reducedSide)
        guard factor > 1, min(gray.width, gray.height) >= factor else { return (gray, CGSize(width: 1, height: 1)) }
        let (width, height) = (gray.width / factor, gray.height / factor)
        let whole = try gray.cropped(x: 0, y: 0, width: width * factor, height: height * factor)
        return (try whole.resized(width: width, height: height), CGSize(width: factor, height: factor))
    }

    /// The groups of a grid's cells joined through 4-neighbours for which `joins` holds; a cell belongs
    /// to a group when `joins` holds for it with itself.
    private static func components(columns: Int, rows: Int, joins: (Int, Int) -> Bool) -> [[Int]] {
        var seen = [Bool](repeating: false, count: columns * rows)
        var groups: [[Int]] = []
        for start in seen.indices where !seen[start] && joins(start, start) {
            var members = [start], next = 0
            seen[start] = true
            while next < members.count {
                let index = members[next]
                next += 1
                let (row, column) = index.quotientAndRemainder(dividingBy: columns)
                for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    let r = row + dr, c = column + dc
                    guard r >= 0, r < rows, c >= 0, c < columns else { continue }
                    let neighbour = r * columns + c
                    guard !seen[neighbour], joins(index, neighbour) else { continue }
                    seen[neighbour] = true
                    members.append(neighbour)
                }
            }
            groups.append(members)
        }
        return groups
    }

    /// `regions` gathered by direction: each group holds the places within `joiningAngle` of its
    /// largest one that lie close enough for its box to stay mostly covered by cells (the start and stop
    /// patterns of a PDF417 symbol, whose middle is less regular, or codes printed side by side), with
    /// the box of all of them; scattered places are read one group each, not as one crop of the whole image.
    static func grouped(_ regions: [Region]) -> [Region] {
        var groups: [Region] = []
        for region in regions.sorted(by: { $0.cells.count > $1.cells.count }) {
            if let index = groups.firstIndex(where: { group in
                angleBetween(group.direction, region.direction) < joiningAngle
                    && area(group.box.union(region.box)) <= maximumSpread * area(of: group.cells + region.cells)
            }) {
                groups[index].box = groups[index].box.union(region.box)
                groups[index].cells += region.cells
            } else {
                groups.append(region)
            }
        }
        return groups
    }

    /// A group's box holds at most this many times its cells' area: places far apart make groups of their own.
    static let maximumSpread = 16.0

    private static func area(_ box: CGRect) -> Double { box.width * box.height }
    private static func area(of cells: [CGRect]) -> Double { cells.reduce(0) { $0 + area($1) } }

    /// The difference of two directions in degrees, which wrap around at 180°.
    static func angleBetween(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 180)
        return min(difference, 180 - difference)
    }

    /// Per cell: how many strong gradients, their summed strength, the sum of their directions, and the
    /// sum of their unit vectors.
    private struct Cell {
        var count = 0.0
        var strength = 0.0
        var directions = DirectionSum()
        var x = 0.0
        var y = 0.0

        var polarity: Double { count > 0 ? (x * x + y * y).squareRoot() / count : 1 }
        var coherence: Double { strength > 0 ? directions.length / strength : 0 }
        var direction: Double { directions.degrees }
    }

    /// The weakest gradient that counts, on ``sobel(at:stride:in:)``'s scale.
    static let minimumSobel = Int(StripeDirections.minimumGradient * 4)

    /// The integer Sobel gradient (four times the change per pixel) at `index`, an inner pixel of a
    /// gray buffer whose rows are `stride` bytes apart.
    @inline(__always)
    static func sobel(at index: Int, stride: Int, in pixels: UnsafeBufferPointer<UInt8>) -> (x: Int, y: Int) {
        let above = index - stride, below = index + stride
        let a0 = Int(pixels[above - 1]), a1 = Int(pixels[above]), a2 = Int(pixels[above + 1])
        let h0 = Int(pixels[index - 1]), h2 = Int(pixels[index + 1])
        let b0 = Int(pixels[below - 1]), b1 = Int(pixels[below]), b2 = Int(pixels[below + 1])
        return ((a2 + 2 * h2 + b2) - (a0 + 2 * h0 + b0), (b0 + 2 * b1 + b2) - (a0 + 2 * a1 + a2))
    }

    private static func cellStatistics(of gray: PixelBuffer, columns: Int, rows: Int) -> [Cell] {
        var cells = [Cell](repeating: Cell(), count: columns * rows)
        let threshold = minimumSobel
        let stride = gray.bytesPerRow
        gray.bytes.withUnsafeBufferPointer { pixels in
            cells.withUnsafeMutableBufferPointer { cells in
                for y in Swift.stride(from: 1, to: rows * cellSide - 1, by: sampling) {
                    let cellRow = (y / cellSide) * columns
                    for x in Swift.stride(from: 1, to: columns * cellSide - 1, by: sampling) {
                        let (gx, gy) = sobel(at: y * stride + x, stride: stride, in: pixels)
                        let squared = gx * gx + gy * gy
                        guard squared >= threshold * threshold else { continue }
                        let (x2, y2) = (Double(gx), Double(gy))
                        let magnitude = Double(squared).squareRoot(), inverse = 1 / magnitude
                        let index = cellRow + x / cellSide
                        cells[index].count += 1
                        cells[index].strength += magnitude
                        cells[index].directions.add(gradientX: x2, y: y2, inverseMagnitude: inverse)
                        cells[index].x += x2 * inverse
                        cells[index].y += y2 * inverse
                    }
                }
            }
        }
        return cells
    }
}
