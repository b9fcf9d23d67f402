import BothamNetworking

/// The seeded generator of the randomised tests: the library's own SplitMix64 (which `ChaosSchedule` draws from), so
/// the package has one. A fixed seed makes every run see the same inputs, so a failure names an input that can be
/// replayed.
package typealias SplitMix64 = BothamNetworking.SplitMix64
