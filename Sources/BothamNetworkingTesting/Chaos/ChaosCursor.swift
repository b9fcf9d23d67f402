import BothamNetworking

/// Where a ``ChaosInterceptor/Schedule`` is: its generator or its position in the script. One per interceptor, behind its lock.
struct ChaosCursor: Sendable {
    let schedule: ChaosInterceptor.Schedule
    private var generator: SplitMix64
    private var index = 0

    init(_ schedule: ChaosInterceptor.Schedule) {
        self.schedule = schedule
        if case .random(let seed, _) = schedule.plan {
            generator = SplitMix64(seed: seed)
        } else {
            generator = SplitMix64(seed: 0)
        }
    }

    /// The entry for the next matched request; a random schedule makes exactly one draw per call.
    mutating func next() -> ChaosInterceptor.Fault? {
        switch schedule.plan {
        case .off:
            return nil
        case .random(_, let odds):
            let draw = generator.nextUnitInterval()
            var cumulative = 0.0
            for entry in odds {
                cumulative += entry.probability
                if draw < cumulative { return entry.fault }
            }
            return nil
        case .script(let faults, let repeating):
            guard !faults.isEmpty else { return nil }
            defer { index += 1 }
            if index < faults.count { return faults[index] }
            return repeating ? faults[index % faults.count] : nil
        }
    }
}
