import BothamNetworking

extension ChaosInterceptor {
    /// Which requests a ``ChaosInterceptor`` injects a fault into, and which fault: none (``off``), a seeded random draw
    /// per request (``random(seed:_:)``) or a fixed script (``script(_:repeating:)``).
    ///
    /// A schedule is a sequence: the *n*-th request the interceptor's matcher accepts gets its *n*-th entry, whatever
    /// the requests in between that it does not accept. A seed fixes the whole sequence, so a staging run that logs its
    /// seed can be repeated exactly:
    ///
    /// ```swift
    /// let schedule = ChaosInterceptor.Schedule.random(seed: 42, [.fail(.connectionLost): 0.05, .delay(.seconds(2)): 0.10])
    /// ```
    public struct Schedule: Sendable {
        /// A fault and the probability of drawing it.
        struct Odds: Sendable {
            let fault: Fault
            let probability: Double
        }

        enum Plan: Sendable {
            case off
            case random(seed: UInt64, odds: [Odds])
            case script([Fault?], repeating: Bool)
        }

        let plan: Plan

        /// No faults: the interceptor passes every request on untouched. The default.
        public static let off = Schedule(plan: .off)

        /// For each request, one draw `u` in `0..<1` from SplitMix64 seeded with `seed`: the first fault whose
        /// cumulative probability exceeds `u` is injected, none when `u` is past them all. `[.fail(.connectionLost): 0.05,
        /// .truncateBody: 0.02]` fails 5 % of requests and truncates 2 %, in the order listed. Probabilities are clamped
        /// to `0...1` (not a number counts as 0); past a cumulative 1, later faults are never drawn.
        public static func random(seed: UInt64, _ odds: KeyValuePairs<Fault, Double>) -> Schedule {
            let clamped = odds.map { fault, probability in
                Odds(fault: fault, probability: probability.isNaN ? 0 : min(1, max(0, probability)))
            }
            return Schedule(plan: .random(seed: seed, odds: clamped))
        }

        /// `faults` in order, one per request (`nil`: that request gets none); after the last, none, or the script again
        /// from the start when `repeating`.
        ///
        /// ```swift
        /// .script([.fail(.connectionLost), nil, .truncateBody])   // the first request fails, the second passes, …
        /// ```
        public static func script(_ faults: [Fault?], repeating: Bool = false) -> Schedule {
            Schedule(plan: .script(faults, repeating: repeating))
        }

        /// Whether the schedule injects nothing (``off``, an empty script, or odds that are all zero).
        package var isOff: Bool {
            switch plan {
            case .off: return true
            case .random(_, let odds): return odds.allSatisfy { $0.probability == 0 }
            case .script(let faults, _): return faults.allSatisfy { $0 == nil }
            }
        }

        /// The first `count` entries of the schedule: what the first `count` matched requests get.
        package func faults(count: Int) -> [Fault?] {
            var cursor = ChaosCursor(self)
            return (0..<max(0, count)).map { _ in cursor.next() }
        }
    }
}
