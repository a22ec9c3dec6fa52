import Foundation

/// The logistic function: a model's logit as a probability 0–1.
func sigmoid(_ value: Float) -> Float { 1 / (1 + exp(-value)) }
