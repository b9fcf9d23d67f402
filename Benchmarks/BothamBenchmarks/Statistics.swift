// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport

    /// One line of the results table.
    struct ResultRow: Codable, Sendable {
        /// The case, for example `chain`.
        let benchCase: String
        /// What was measured, for example `botham+8`.
        let variant: String
        /// The metric, for example `ns/call`.
        let metric: String
        let value: Summary
        /// The variant this one is compared with, measured in the same run.
        let baseline: String?
        /// Per-run ratios against the baseline (run i of this variant over run i of the baseline).
        let ratio: Summary?
        /// Why the ratio is not to be trusted (the machine was busy with other work during the case), or `nil`.
        var noise: String?

        init(_ benchCase: BenchCase, _ variant: String, _ metric: String, _ samples: [Double]) {
            self.benchCase = benchCase.rawValue
            self.variant = variant
            self.metric = metric
            value = Summary(samples)
            baseline = nil
            ratio = nil
        }

        init(
            _ benchCase: BenchCase,
            _ variant: String,
            _ metric: String,
            _ samples: [Double],
            against baseline: String,
            _ baselineSamples: [Double]
        ) {
            self.benchCase = benchCase.rawValue
            self.variant = variant
            self.metric = metric
            value = Summary(samples)
            self.baseline = baseline
            ratio = Summary(zip(samples, baselineSamples).map { $0 / $1 })
        }
    }

    /// Whether one of the targets is met.
    struct TargetCheck: Codable, Sendable {
        let target: String
        let measured: String
        let met: Bool
    }

#endif
