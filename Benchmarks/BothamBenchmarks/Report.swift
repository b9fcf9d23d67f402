// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import Foundation

    /// Collects rows and target checks, prints the table and writes JSON.
    final class Report: @unchecked Sendable {
        // `@unchecked Sendable` is sound: the report is only used from the main benchmark task, one case after another;
        // it is never shared with concurrently running code.
        private(set) var rows: [ResultRow] = []
        private(set) var checks: [TargetCheck] = []
        private(set) var notes: [String] = []
        /// Work that failed (requests, transfers, runs): any of it makes the benchmark exit with status 1, so that
        /// a smoke run where every request failed cannot pass.
        private(set) var failures: [String] = []

        func add(_ row: ResultRow) {
            rows.append(row)
            printRow(row)
        }

        func check(_ target: String, measured: String, met: Bool) {
            checks.append(TargetCheck(target: target, measured: measured, met: met))
        }

        func note(_ text: String) {
            notes.append(text)
            print("note: \(text)")
        }

        /// Records work that failed: a note, and the benchmark's exit status 1.
        func fail(_ text: String) {
            failures.append(text)
            note("FAILED: \(text)")
        }

        /// Marks the ratios of the rows from `index` on (one case's) as noisy, for `reason`.
        func markNoisy(rowsFrom index: Int, _ reason: String) {
            guard index < rows.count else { return }
            for position in index..<rows.count where rows[position].ratio != nil {
                rows[position].noise = reason
            }
        }

        /// The cases whose ratios are marked noisy, and why.
        var noisyCases: [(benchCase: String, reason: String)] {
            var seen = Set<String>()
            return rows.compactMap { row in
                guard let noise = row.noise, seen.insert(row.benchCase).inserted else { return nil }
                return (row.benchCase, noise)
            }
        }

        func row(_ benchCase: BenchCase, _ variant: String, _ metric: String) -> ResultRow? {
            rows.first { $0.benchCase == benchCase.rawValue && $0.variant == variant && $0.metric == metric }
        }

        static let header =
            "| case | variant | metric | median | min | max | ratio vs baseline (median [min–max]) |\n"
            + "|---|---|---|---:|---:|---:|---|"

        private var printedHeader = false

        private func printRow(_ row: ResultRow) {
            if !printedHeader {
                print(Self.header)
                printedHeader = true
            }
            print(Self.markdown(row))
        }

        static func markdown(_ row: ResultRow) -> String {
            var ratio = ""
            if let summary = row.ratio, let baseline = row.baseline {
                ratio = "\(format(summary, unit: "x")) vs \(baseline)"
                if row.noise != nil { ratio += " (NOISY)" }
            }
            return "| \(row.benchCase) | \(row.variant) | \(row.metric) | \(format(row.value.median)) | "
                + "\(format(row.value.min)) | \(format(row.value.max)) | \(ratio) |"
        }

        /// A summary as `median<unit> [min–max]`, each value multiplied by `scale` first: `1.02x [0.98–1.05]`,
        /// `4.53 µs [4.36–8.57]`.
        static func format(_ summary: Summary, unit: String = "", scale: Double = 1) -> String {
            "\(format(summary.median * scale))\(unit) [\(format(summary.min * scale))–\(format(summary.max * scale))]"
        }

        static func format(_ value: Double) -> String {
            guard value.isFinite else { return "n/a" }
            let magnitude = abs(value)
            if magnitude >= 1000 { return String(format: "%.0f", value) }
            if magnitude >= 100 { return String(format: "%.1f", value) }
            if magnitude >= 1 { return String(format: "%.2f", value) }
            return String(format: "%.3f", value)
        }

        func printSummary() {
            print("\n## Results\n")
            print(Self.header)
            for row in rows { print(Self.markdown(row)) }
            if !noisyCases.isEmpty {
                print("\n## Noisy ratios\n")
                print("Marked NOISY above: the machine did other work while these cases ran (MachineLoad).")
                for (benchCase, reason) in noisyCases { print("- \(benchCase): \(reason)") }
            }
            if !checks.isEmpty {
                print("\n## Targets\n")
                print("| target | measured | met |\n|---|---|---|")
                for check in checks { print("| \(check.target) | \(check.measured) | \(check.met ? "yes" : "NO") |") }
            }
        }

        func writeJSON(to path: String, machine: [String: String]) throws {
            struct Document: Encodable {
                let machine: [String: String]
                let rows: [ResultRow]
                let targets: [TargetCheck]
                let notes: [String]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "inf",
                negativeInfinity: "-inf",
                nan: "nan"
            )
            let data = try encoder.encode(Document(machine: machine, rows: rows, targets: checks, notes: notes))
            try data.write(to: URL(fileURLWithPath: path))
        }
    }

#endif
