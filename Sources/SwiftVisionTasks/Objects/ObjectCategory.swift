import SwiftVisionCore
import SwiftVisionRuntime

/// ML Kit's coarse object categories, derived from the detector's COCO class. The raw values are ML
/// Kit's label indices (`PredefinedCategory.FASHION_GOOD_INDEX` 0, `HOME_GOOD_INDEX` 1, `FOOD_INDEX` 2,
/// `PLACE_INDEX` 3, `PLANT_INDEX` 4; iOS's `DetectedObjectLabelIndex` the same).
public enum ObjectCategory: Int, Sendable, CaseIterable {
    /// Clothes and accessories, household goods, food, places and plants (ML Kit's `PredefinedCategory`).
    case fashionGood = 0, homeGood = 1, food = 2, place = 3, plant = 4

    /// The label text ML Kit uses.
    public var text: String {
        switch self {
        case .fashionGood: "Fashion good"
        case .food: "Food"
        case .homeGood: "Home good"
        case .place: "Place"
        case .plant: "Plant"
        }
    }

    /// The category of a COCO class name (Darknet spelling), nil for classes ML Kit calls unknown
    /// (people, animals, vehicles, sports gear).
    public init?(cocoClass name: String) {
        switch name {
        case "backpack", "umbrella", "handbag", "tie", "suitcase": self = .fashionGood
        case "banana", "apple", "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake":
            self = .food
        case "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "chair", "sofa", "bed", "diningtable",
            "toilet", "tvmonitor", "laptop", "mouse", "remote", "keyboard", "cell phone", "microwave", "oven", "toaster",
            "sink", "refrigerator", "book", "clock", "vase", "scissors", "teddy bear", "hair drier", "toothbrush":
            self = .homeGood
        case "bench", "fire hydrant", "stop sign", "parking meter", "traffic light": self = .place
        case "pottedplant": self = .plant
        default: return nil
        }
    }
}
