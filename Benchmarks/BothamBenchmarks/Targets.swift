// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    /// Checks the targets against the rows measured in this run.
    enum Targets {
        static func check(_ report: Report, options: Options) {
            checkChain(report)
            for concurrency in options.concurrencies {
                checkTransport(report, label: concurrency == 1 ? "sequential" : "\(concurrency) in flight")
                for variant in ["botham+native", "botham+native on its loop"] {
                    checkNative(
                        report, variant: variant, label: concurrency == 1 ? "sequential" : "\(concurrency) in flight")
                }
            }
            checkLargeBodies(report)
            checkNativeSlow(report)
            checkStreaming(report)
            checkPeers(report)
        }

        /// NativeHTTPClient against wrk and curl (#19 target 3), calls on the client's loop: at 16 in flight
        /// ≥ 0.6x `wrk -t1 -c16`'s req/s and ≤ 18 µs CPU per request; sequential ≥ 1.3x one curl process; 1 MiB
        /// bodies ≥ 0.9x wrk's req/s.
        private static func checkPeers(_ report: Report) {
            let connections = "\(PeersCase.connections) in flight"
            let ratios = [
                ("small JSON, \(connections)", "wrk -t1 -c16", 0.6),
                ("small JSON, sequential", "one curl process", 1.3),
                ("1 MiB, \(connections)", "wrk -t1 -c16", 0.9),
            ]
            for (label, peer, target) in ratios {
                guard let ratio = report.row(.peers, "botham+native on its loop, \(label)", "req/s")?.ratio else {
                    continue
                }
                report.check(
                    "botham+native on its loop req/s ≥ \(Report.format(target))x \(peer), \(label)",
                    measured: Report.format(ratio, unit: "x"),
                    met: ratio.median >= target
                )
            }
            if let cpu = report.row(.peers, "botham+native on its loop, small JSON, \(connections)", "CPU µs/req")?
                .value
            {
                report.check(
                    "botham+native on its loop CPU/request ≤ 18 µs, small JSON, \(connections)",
                    measured: Report.format(cpu, unit: " µs"),
                    met: cpu.median <= 18
                )
            }
        }

        /// Streaming, NativeHTTPClient: ≥ 200k Server-Sent Events/s parsed and delivered; an event reaches the reader
        /// well under 1 ms after the server wrote it (median).
        private static func checkStreaming(_ report: Report) {
            if let rate = report.row(.streaming, "botham+native stream.events", "events/s") {
                let ratio = rate.ratio.map { " (\(Report.format($0.median))x stream.body)" } ?? ""
                report.check(
                    "botham+native stream.events ≥ 200k events/s",
                    measured: Report.format(rate.value) + ratio,
                    met: rate.value.median >= 200_000
                )
            }
            let latency = report.rows.first {
                $0.benchCase == BenchCase.streaming.rawValue && $0.variant.hasPrefix("botham+native stream.events, ")
                    && $0.metric == "arrival→reader median µs"
            }
            if let latency {
                let p99 = report.row(.streaming, latency.variant, "arrival→reader p99 µs").map {
                    ", p99 \(Report.format($0.value.median)) µs"
                }
                report.check(
                    "botham+native event arrival→reader median < 1 ms",
                    measured: Report.format(latency.value, unit: " µs") + (p99 ?? ""),
                    met: latency.value.median < 1000
                )
            }
        }

        /// Botham + NativeHTTPClient: ≥ 8x raw URLSession req/s at 16 in flight, ≤ 60 µs client CPU per request.
        private static func checkNative(_ report: Report, variant name: String, label: String) {
            let variant = "\(name) \(label)"
            if label == "16 in flight", let ratio = report.row(.transport, variant, "req/s")?.ratio {
                report.check(
                    "\(name) req/s ≥ 8x raw URLSession, \(label)",
                    measured: Report.format(ratio, unit: "x"),
                    met: ratio.median >= 8
                )
            }
            if let cpu = report.row(.transport, variant, "CPU µs/req")?.value {
                report.check(
                    "\(name) CPU/request ≤ 60 µs, \(label)",
                    measured: Report.format(cpu, unit: " µs"),
                    met: cpu.median <= 60
                )
            }
        }

        /// Botham + NativeHTTPClient: < 0.05 s CPU in total while the calls wait on the slow server.
        private static func checkNativeSlow(_ report: Report) {
            guard
                let row = report.rows.first(where: { $0.variant.hasPrefix("botham+native, ") && $0.metric == "CPU s" })
            else { return }
            report.check(
                "native CPU while waiting on a slow server < 0.05 s",
                measured: Report.format(row.value, unit: " s"),
                met: row.value.median < 0.05
            )
        }

        /// Chain overhead (#19 target 1): facade + 8 interceptors (all six kinds) over the canned transport ≤ 2 µs CPU
        /// and ≤ 8 allocations per call, and ≤ 5% of one native loopback round trip (`botham+native sequential`'s
        /// wall time per request, when the transport case ran too).
        private static func checkChain(_ report: Report) {
            guard let cpu = report.row(.chain, "botham+8", "CPU ns/call")?.value else { return }
            report.check(
                "chain CPU/call, 8 interceptors ≤ 2 µs",
                measured: Report.format(cpu, unit: " µs", scale: 1e-3),
                met: cpu.median <= 2000
            )
            if let allocations = report.row(.chain, "botham+8", "allocs/call")?.value.median {
                report.check(
                    "chain allocations/call, 8 interceptors ≤ 8",
                    measured: Report.format(allocations),
                    met: allocations <= 8
                )
            }
            guard let rate = report.row(.transport, "botham+native sequential", "req/s")?.value.median else {
                report.note("chain target: no native round trip in this run (run the transport case too)")
                return
            }
            let roundTrip = 1e9 / rate
            let share = cpu.median / roundTrip
            report.check(
                "chain CPU, 8 interceptors ≤ 5% of a native loopback round trip (botham+native sequential)",
                measured: "\(Report.format(cpu.median / 1000)) µs of \(Report.format(roundTrip / 1000)) µs = "
                    + "\(Report.format(share * 100))%",
                met: share <= 0.05
            )
        }

        /// Default transport (#19 target 2): Botham + URLSessionHTTPClient ≥ 0.95x the req/s of raw URLSession through
        /// a session delegate, at ≤ 1.05x its CPU per request.
        private static func checkTransport(_ report: Report, label: String) {
            let variant = "botham+urlsession \(label), against the delegate"
            if let ratio = report.row(.transport, variant, "req/s")?.ratio {
                report.check(
                    "req/s ≥ 0.95x raw URLSession through a session delegate, \(label)",
                    measured: Report.format(ratio, unit: "x"),
                    met: ratio.median >= 0.95
                )
            }
            if let ratio = report.row(.transport, variant, "CPU µs/req")?.ratio {
                report.check(
                    "CPU/request ≤ 1.05x raw URLSession through a session delegate, \(label)",
                    measured: Report.format(ratio, unit: "x"),
                    met: ratio.median <= 1.05
                )
            }
        }

        /// Botham + URLSessionHTTPClient on 1 MiB bodies: ≤ 1.1x raw `data(for:)`'s CPU per request (#19 target 2).
        private static func checkLargeBodies(_ report: Report) {
            let label = "1 MiB, \(TransportCase.largeBodyConcurrency) in flight"
            guard let ratio = report.row(.transport, "botham+urlsession \(label)", "CPU µs/req")?.ratio else { return }
            report.check(
                "CPU/request ≤ 1.1x raw URLSession data(for:), \(label)",
                measured: Report.format(ratio, unit: "x"),
                met: ratio.median <= 1.1
            )
        }
    }

#endif
