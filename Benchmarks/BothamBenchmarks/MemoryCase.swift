// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import Foundation

    /// Case 3: peak RSS of 1 GiB transfers to and from files, and of 10,000 concurrent calls over the stub transport,
    /// each in a fresh child process, against a baseline process.
    struct MemoryCase {
        let options: Options
        let report: Report

        private static func mebibytes(_ result: ChildResult) -> Double { Double(result.maxRSSKiB) / 1024 }

        func run() async {
            await transfers()
            await stubCalls()
        }

        private func transfers() async {
            guard let smallURL = options.url else {
                report.note("memory: no --url, transfer cases skipped")
                return
            }
            let size = options.uploadFile.flatMap {
                try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int
            }
            let sizeLabel = size.map { Self.sizeLabel($0) } ?? "large file"
            var sink: LoopbackServer?
            if options.uploadFile != nil {
                do {
                    let server = try LoopbackServer(.sink)
                    server.start()
                    sink = server
                } catch {
                    report.note("memory: cannot start the upload sink: \(error)")
                }
            }
            var samples = [String: [Double]]()
            var libraryAvailable = (download: true, upload: true)
            for _ in 0..<options.memoryRuns {
                let baseline = ChildProcess.run("baseline", [smallURL])
                guard baseline.ok else {
                    report.fail("memory: baseline child failed: \(baseline.detail)")
                    return
                }
                samples["process baseline", default: []].append(Self.mebibytes(baseline))
                if let largeURL = options.largeURL {
                    record("raw download \(sizeLabel)", ChildProcess.run("download", [largeURL]), into: &samples)
                    if libraryAvailable.download {
                        let result = ChildProcess.run("library-download", [largeURL])
                        libraryAvailable.download = result.ok
                        if result.ok { record("botham download \(sizeLabel)", result, into: &samples) }
                    }
                }
                if let file = options.uploadFile, let sink {
                    let target = "http://127.0.0.1:\(sink.port)/upload"
                    let result = ChildProcess.run("upload", [target, file])
                    let received = sink.receivedBodySizes.last ?? -1
                    if result.ok, received != size {
                        report.fail("memory: the sink received \(received) bytes, expected \(size ?? -1)")
                    }
                    record("raw upload \(sizeLabel)", result, into: &samples)
                    if libraryAvailable.upload {
                        let result = ChildProcess.run("library-upload", [target, file])
                        libraryAvailable.upload = result.ok
                        if result.ok { record("botham upload \(sizeLabel)", result, into: &samples) }
                    }
                }
            }
            if !libraryAvailable.download || !libraryAvailable.upload {
                report.fail(
                    "memory: a library file transfer failed (see the child's message above); its figure is left out")
            }
            guard let base = samples["process baseline"] else { return }
            report.add(ResultRow(.memory, "process baseline", "peak RSS MiB", base))
            for name in samples.keys.sorted() where name != "process baseline" {
                guard let values = samples[name] else { continue }
                report.add(ResultRow(.memory, name, "peak RSS MiB", values, against: "process baseline", base))
                report.check(
                    "\(name): peak RSS ≤ 64 MiB", measured: "\(Report.format(Summary(values).max)) MiB (max)",
                    met: Summary(values).max <= 64)
            }
        }

        private func record(_ name: String, _ result: ChildResult, into samples: inout [String: [Double]]) {
            guard result.ok else {
                report.fail("memory: \(name) failed: \(result.detail)")
                return
            }
            samples[name, default: []].append(Self.mebibytes(result))
        }

        private func stubCalls() async {
            let count = options.stubCalls
            var baseline: [Double] = []
            var calls: [Double] = []
            var tasks: [Double] = []
            for _ in 0..<options.memoryRuns {
                let one = ChildProcess.run("stub-calls", ["1"])
                let many = ChildProcess.run("stub-calls", ["\(count)"])
                let bare = ChildProcess.run("tasks-only", ["\(count)"])
                guard one.ok, many.ok, bare.ok else {
                    report.fail("memory: stub calls failed: \(one.detail); \(many.detail); \(bare.detail)")
                    return
                }
                baseline.append(Self.mebibytes(one))
                calls.append(Self.mebibytes(many))
                tasks.append(Self.mebibytes(bare))
            }
            report.add(ResultRow(.memory, "stub, 1 call", "peak RSS MiB", baseline))
            report.add(
                ResultRow(
                    .memory, "stub, \(count) concurrent calls", "peak RSS MiB", calls, against: "stub, 1 call", baseline
                ))
            report.add(
                ResultRow(
                    .memory, "\(count) sleeping tasks, no library", "peak RSS MiB", tasks, against: "stub, 1 call",
                    baseline
                ))
            let perCall = zip(calls, baseline).map { ($0 - $1) * 1024 / Double(count) }
            let perTask = zip(tasks, baseline).map { ($0 - $1) * 1024 / Double(count) }
            report.add(ResultRow(.memory, "stub, \(count) concurrent calls", "KiB/call over baseline", perCall))
            report.add(ResultRow(.memory, "\(count) sleeping tasks, no library", "KiB/task over baseline", perTask))
        }

        static func sizeLabel(_ bytes: Int) -> String {
            bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
        }
    }

#endif
