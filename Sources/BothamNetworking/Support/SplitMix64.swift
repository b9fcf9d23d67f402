/// SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators", 2014): a small generator
/// whose whole sequence is fixed by its seed.
///
/// The package's one seeded generator: a chaos schedule (`ChaosInterceptor.Schedule.random(seed:_:)`) draws from
/// it, so a seed names a run that can be repeated, and the test targets use it for their randomised inputs (a
/// failure names an input that can be replayed). Not for anything secret.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// The next number in `0..<1`, from the top 53 bits of ``next()`` (every value a `Double` spaces evenly there).
    package mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
