// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    /// Case 4: CPU consumed while calls wait for a slow server, each variant in a fresh child process.
    struct SlowServerCase {
        let options: Options
        let report: Report

        func run() async {
            let server: LoopbackServer
            do {
                server = try LoopbackServer(.slow(seconds: options.slowDelay))
            } catch {
                report.note("slow: cannot start the slow server: \(error)")
                return
            }
            server.start()
            let url = "http://127.0.0.1:\(server.port)/slow.json"
            let variants = ["raw-urlsession", "botham+urlsession", "botham+native"]
            var cpu = [String: [Double]]()
            var wall = [String: [Double]]()
            for run in 0..<options.slowRuns {
                for variant in (0..<variants.count).map({ variants[($0 + run) % variants.count] }) {
                    let result = ChildProcess.run("slow", [url, variant, "\(options.slowCalls)"])
                    guard result.ok else {
                        report.fail("slow: \(variant) failed: \(result.detail)")
                        continue
                    }
                    cpu[variant, default: []].append(result.cpuSeconds)
                    wall[variant, default: []].append(result.wallSeconds)
                }
            }
            let calls = options.slowCalls
            let delay = Report.format(options.slowDelay)
            guard let base = cpu["raw-urlsession"], let ours = cpu["botham+urlsession"] else { return }
            let label = "\(calls) calls waiting \(delay) s"
            report.add(ResultRow(.slow, "raw-urlsession, \(label)", "CPU s", base))
            report.add(
                ResultRow(
                    .slow, "botham+urlsession, \(label)", "CPU s", ours, against: "raw-urlsession, \(label)", base)
            )
            if let native = cpu["botham+native"] {
                report.add(
                    ResultRow(
                        .slow, "botham+native, \(label)", "CPU s", native, against: "raw-urlsession, \(label)", base)
                )
            }
            for variant in variants {
                guard let cpuValues = cpu[variant], let wallValues = wall[variant] else { continue }
                report.add(ResultRow(.slow, "\(variant), \(label)", "wall s", wallValues))
                report.add(
                    ResultRow(
                        .slow, "\(variant), \(label)", "CPU s per wall s", zip(cpuValues, wallValues).map { $0 / $1 })
                )
            }
        }
    }

#endif
