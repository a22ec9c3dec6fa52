import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct GeometryTests {
    let size = CGSize(width: 800, height: 600)

    @Test func convertsBetweenTheThreeCoordinateSpaces() {
        let pixels = CGRect(x: 80, y: 60, width: 160, height: 120)
        let topLeft = pixels.converted(from: .pixels, to: .normalizedTopLeft, imageSize: size)
        #expect(topLeft.equalTo(CGRect(x: 0.1, y: 0.1, width: 0.2, height: 0.2), within: 1e-12))
        let lowerLeft = pixels.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: size)
        #expect(abs(lowerLeft.minY - 0.7) < 1e-12 && abs(lowerLeft.height - 0.2) < 1e-12)
        // Vision's projections scale and never flip (Apple's VNImageRectForNormalizedRect: "projects a rectangle
        // from normalized coordinates into image coordinates"; both are lower-left in Vision).
        let lowerLeftPixels = CGRect(x: 80, y: 420, width: 160, height: 120)
        #expect(imageRect(forNormalizedRect: lowerLeft, width: 800, height: 600).equalTo(lowerLeftPixels, within: 1e-9))
        #expect(normalizedRect(forImageRect: lowerLeftPixels, width: 800, height: 600).equalTo(lowerLeft, within: 1e-12))
        #expect(imageRect(forNormalizedRect: CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25), width: 800, height: 600)
            == CGRect(x: 200, y: 300, width: 400, height: 150))
        #expect(imagePoint(forNormalizedPoint: CGPoint(x: 0.25, y: 0.75), width: 800, height: 600) == CGPoint(x: 200, y: 450))
        for space in [CoordinateSpace.pixels, .normalizedTopLeft, .normalizedLowerLeft] {
            let there = pixels.converted(from: .pixels, to: space, imageSize: size)
            #expect(there.converted(from: space, to: .pixels, imageSize: size).equalTo(pixels, within: 1e-9))
        }
        let point = CGPoint(x: 200, y: 150).converted(from: .pixels, to: .normalizedLowerLeft, imageSize: size)
        #expect(point == CGPoint(x: 0.25, y: 0.75))
    }

    @Test func aspectFitPlacesTheImageInTheView() {
        let fit = AspectFit(imageSize: size, viewSize: CGSize(width: 400, height: 400))
        #expect(fit.scale == 0.5)
        #expect(fit.imageFrame == CGRect(x: 0, y: 50, width: 400, height: 300))
        // Vision's full-image rectangle covers exactly the image frame.
        #expect(fit.viewRect(for: CGRect(x: 0, y: 0, width: 1, height: 1)) == fit.imageFrame)
        // Vision's lower-left corner is the frame's bottom left in view points.
        #expect(fit.viewPoint(for: CGPoint(x: 0, y: 0)) == CGPoint(x: 0, y: 350))
        #expect(fit.viewPoint(for: CGPoint(x: 400, y: 300), in: .pixels) == CGPoint(x: 200, y: 200))
    }

    @Test func mirrorsForFrontCameras() {
        let rect = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(rect.mirroredHorizontally(inWidth: 100) == CGRect(x: 60, y: 20, width: 30, height: 40))
        #expect(rect.mirroredHorizontally(inWidth: 100).mirroredHorizontally(inWidth: 100) == rect)
        #expect(CGPoint(x: 10, y: 5).mirroredHorizontally(inWidth: 100) == CGPoint(x: 90, y: 5))
    }

    @Test func quadrilateralsConvertAndBound() {
        let shape = Quadrilateral(
            topLeft: CGPoint(x: 100, y: 50), topRight: CGPoint(x: 700, y: 80), bottomRight: CGPoint(x: 650, y: 550),
            bottomLeft: CGPoint(x: 120, y: 500))
        #expect(shape.boundingBox == CGRect(x: 100, y: 50, width: 600, height: 500))
        let vision = shape.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: size)
        #expect(vision.topLeft.y > vision.bottomLeft.y)
        #expect(vision.converted(from: .normalizedLowerLeft, to: .pixels, imageSize: size).corners.enumerated().allSatisfy {
            abs($0.element.x - shape.corners[$0.offset].x) < 1e-9 && abs($0.element.y - shape.corners[$0.offset].y) < 1e-9
        })
        #expect(Quadrilateral(rect: CGRect(x: 0, y: 0, width: 2, height: 1)).bottomRight == CGPoint(x: 2, y: 1))
    }

    /// Corners given in any of their 24 orders are named by where they lie: the smallest x + y is the top
    /// left and the others follow clockwise; of two with the same x + y (a square turned 45°), the one that
    /// the clockwise order, which starts just past due left of the centre, reaches first.
    @Test func quadrilateralsNameCornersGivenInAnyOrder() {
        let card = [CGPoint(x: 10, y: 20), CGPoint(x: 110, y: 0), CGPoint(x: 130, y: 60), CGPoint(x: 30, y: 80)]
        let diamond = [CGPoint(x: 50, y: 0), CGPoint(x: 100, y: 50), CGPoint(x: 50, y: 100), CGPoint(x: 0, y: 50)]
        func orders(of points: [CGPoint]) -> [[CGPoint]] {
            guard points.count > 1 else { return [points] }
            return points.indices.flatMap { index in
                orders(of: Array(points[..<index] + points[(index + 1)...])).map { [points[index]] + $0 }
            }
        }
        for (points, named) in [(card, card), (diamond, diamond)] {
            let all = orders(of: points)
            #expect(all.count == 24)
            for order in all {
                #expect(Quadrilateral(orderingCorners: order).corners == named, "\(order)")
            }
        }
    }

    /// A 10×10 square's outline with points inside and on a side: its hull is the four corners, counter-clockwise
    /// on the screen (y down); a bump of 1 pixel on its top side goes at a tolerance of 2 pixels and stays at 0.5.
    @Test func pixelPolygonsGiveHullsAndSimplifications() throws {
        let corners: [SIMD2<Int32>] = [[0, 0], [10, 0], [10, 10], [0, 10]]
        func isTurned(_ points: [SIMD2<Int32>], from expected: [SIMD2<Int32>]) -> Bool {
            expected.indices.contains { start in points == Array(expected[start...] + expected[..<start]) }
        }
        let cloud = PixelPolygon(points: [[5, 5], [0, 0], [2, 3], [10, 0], [10, 5], [10, 10], [7, 2], [0, 10]])
        #expect(isTurned(try cloud.convexHull().points, from: corners.reversed()))
        let bumped = PixelPolygon(points: [[0, 0], [5, 1], [10, 0], [10, 10], [0, 10]])
        #expect(isTurned(try bumped.simplified(epsilon: 2).points, from: corners))
        #expect(isTurned(try bumped.simplified(epsilon: 0.5).points, from: bumped.points))
        #expect(try PixelPolygon(points: []).convexHull().points.isEmpty)
    }

    /// A rhombus of sides 2 with a 60° corner (its corners worked out by hand: (0, 0), (2, 0), (3, √3), (1, √3)) has
    /// inner angles 60°, 120°, 60° and 120°: within 30° of a right angle but not within 29°; a square's are all 90°.
    @Test func quadrilateralsTellRightAnglesWithinATolerance() {
        let root3 = 3.0.squareRoot()
        let rhombus = Quadrilateral(orderingCorners: [
            CGPoint(x: 0, y: 0), CGPoint(x: 2, y: 0), CGPoint(x: 3, y: root3), CGPoint(x: 1, y: root3),
        ])
        #expect(rhombus.cornerAngles.map { ($0 * 1e6).rounded() / 1e6 } == [60, 120, 60, 120])
        #expect(rhombus.hasRightAngles(within: 30.000_001))
        #expect(!rhombus.hasRightAngles(within: 29))
        let square = Quadrilateral(rect: CGRect(x: 3, y: 4, width: 5, height: 5))
        #expect(square.hasRightAngles(within: 0.000_001))
    }

    /// A diamond turned 45°, the lines of its sides worked out by hand: x + y = 5 (top left), x − y = 5
    /// (top right), x + y = 15 (bottom right) and y − x = 5 (bottom left).
    @Test func quadrilateralsContainPointsInsideOnAndNearTheirSides() {
        let diamond = Quadrilateral(
            topLeft: CGPoint(x: 5, y: 0), topRight: CGPoint(x: 10, y: 5), bottomRight: CGPoint(x: 5, y: 10),
            bottomLeft: CGPoint(x: 0, y: 5))
        let reversed = Quadrilateral(
            topLeft: diamond.bottomLeft, topRight: diamond.bottomRight, bottomRight: diamond.topRight, bottomLeft: diamond.topLeft)
        for shape in [diamond, reversed] {
            // Inside, and on a side (x + y = 5, x − y = 5) or a corner: contained.
            for point in [CGPoint(x: 5, y: 5), CGPoint(x: 3, y: 5), CGPoint(x: 2.5, y: 2.5), CGPoint(x: 7.5, y: 2.5), CGPoint(x: 0, y: 5)] {
                #expect(shape.contains(point), "\(point)")
            }
            // Outside the upright box's corners (x + y = 2, 16) and beyond a corner along the x axis.
            for point in [CGPoint(x: 1, y: 1), CGPoint(x: 8, y: 8), CGPoint(x: 10.5, y: 5), CGPoint(x: 2.2, y: 2.5)] {
                #expect(!shape.contains(point), "\(point)")
            }
            // (2.2, 2.5) is 0.3 / √2 ≈ 0.21 outside x + y = 5, (2, 2) 1 / √2 ≈ 0.71 and (10.5, 5) 0.5 / √2 ≈ 0.35
            // outside the two sides that meet at (10, 5).
            #expect(shape.contains(CGPoint(x: 2.2, y: 2.5), tolerance: 0.5))
            #expect(shape.contains(CGPoint(x: 10.5, y: 5), tolerance: 0.5))
            #expect(!shape.contains(CGPoint(x: 2, y: 2), tolerance: 0.5))
            #expect(!shape.contains(CGPoint(x: 10.5, y: 5), tolerance: 0.3))
        }
    }
}
