// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    /// Clients measured against a baseline in the same run: requests per second and CPU µs per request, every
    /// contender once per run, the order rotated per run (drift of the machine hits them alike). The peers case and
    /// the transport case's large bodies use it.
    enum Contenders {
        /// One measurement: requests per second, CPU µs per request, or why it failed.
        struct Sample {
            var requestsPerSecond = 0.0
            var cpuMicroseconds = 0.0
            var failure: String?
        }

        /// A client and how to measure it once.
        struct Contender {
            let name: String
            let measure: () async -> Sample
        }

        /// Measures `contenders` `runs` times; the first is the baseline the others are compared with. Rows are named
        /// contender + `label`; a failed measurement is reported as a failure and left out (its contender gets no
        /// ratio rows, whose runs would no longer pair up).
        static func compare(
            _ contenders: [Contender], runs: Int, label: String, benchCase: BenchCase, report: Report
        ) async {
            var rates = [String: [Double]]()
            var cpu = [String: [Double]]()
            for run in 0..<runs {
                for offset in 0..<contenders.count {
                    let contender = contenders[(offset + run) % contenders.count]
                    let sample = await contender.measure()
                    if let failure = sample.failure {
                        report.fail("\(benchCase.rawValue)\(label): \(contender.name): \(failure)")
                        continue
                    }
                    rates[contender.name, default: []].append(sample.requestsPerSecond)
                    cpu[contender.name, default: []].append(sample.cpuMicroseconds)
                }
            }
            guard let baseline = contenders.first, let baseRates = rates[baseline.name],
                let baseCPU = cpu[baseline.name]
            else { return }
            let baseName = "\(baseline.name)\(label)"
            report.add(ResultRow(benchCase, baseName, "req/s", baseRates))
            report.add(ResultRow(benchCase, baseName, "CPU µs/req", baseCPU))
            for contender in contenders.dropFirst() {
                guard let ours = rates[contender.name], let ourCPU = cpu[contender.name],
                    ours.count == baseRates.count
                else { continue }
                let name = "\(contender.name)\(label)"
                report.add(ResultRow(benchCase, name, "req/s", ours, against: baseName, baseRates))
                report.add(ResultRow(benchCase, name, "CPU µs/req", ourCPU, against: baseName, baseCPU))
            }
        }
    }
#endif
