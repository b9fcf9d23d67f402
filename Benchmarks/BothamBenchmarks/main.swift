// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import BothamNetworking
    import Foundation

    // BothamBenchmarks: speed and memory of BothamNetworking against baselines measured in the same run.
    // A package of its own (Benchmarks/Package.swift): build in release (`swift build -c release` in Benchmarks/); run
    // through scripts/bench.sh, which builds it and starts the loopback servers. See BENCHMARKS.md.

    /// Runs the benchmark (or a child mode) and returns the exit status.
    func main(_ arguments: [String]) async -> Int32 {

        if arguments.first == "child" {
            let result = await ChildModes.run(Array(arguments.dropFirst()))
            let encoder = JSONEncoder()
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            if let data = try? encoder.encode(result) { print(String(decoding: data, as: UTF8.self)) }
            return result.ok ? 0 : 1
        }

        let options: Options
        switch Options.parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let error):
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 2
        }

        let machine = Machine.describe()
        for (key, value) in machine.sorted(by: { $0.key < $1.key }) { print("\(key): \(value)") }
        let report = Report()
        if !AllocationCount.hookIsActive {
            report.note("the malloc-counting hook is not active: allocation counts read 0")
        }
        let total = Stopwatch()
        for benchCase in options.cases {
            print("\n# \(benchCase.rawValue)  (load average \(Machine.loadAverage))")
            let firstRow = report.rows.count
            let load = MachineLoad()
            defer {
                let window = load.finish()
                print("load during \(benchCase.rawValue): \(window.summary)")
                if let noise = window.noise {
                    report.markNoisy(rowsFrom: firstRow, noise)
                    report.note("\(benchCase.rawValue): ratios marked NOISY: \(noise)")
                }
            }
            switch benchCase {
            case .chain:
                await ChainOverheadCase(options: options, report: report).run()
            case .transport:
                guard let text = options.url, let url = URL(string: text) else {
                    report.note("transport: no --url, skipped")
                    continue
                }
                if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                    await TransportCase(options: options, report: report, url: url).run()
                } else {
                    report.note("transport: needs task executors (macOS 15, iOS 18), skipped")
                }
            case .cache:
                await CacheCase(options: options, report: report).run()
            case .loops:
                guard let text = options.url, let url = URL(string: text) else {
                    report.note("loops: no --url, skipped")
                    continue
                }
                if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                    await LoopScalingCase(options: options, report: report, url: url).run()
                } else {
                    report.note("loops: needs task executors (macOS 15, iOS 18), skipped")
                }
            case .http2:
                if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                    await HTTP2Case(options: options, report: report).run()
                } else {
                    report.note("http2: needs task executors (macOS 15, iOS 18), skipped")
                }
            case .peers:
                if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                    await PeersCase(options: options, report: report).run()
                } else {
                    report.note("peers: needs task executors (macOS 15, iOS 18), skipped")
                }
            case .memory:
                await MemoryCase(options: options, report: report).run()
            case .slow:
                await SlowServerCase(options: options, report: report).run()
            case .streaming:
                if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                    await StreamingCase(options: options, report: report).run()
                } else {
                    report.note("streaming: needs task executors (macOS 15, iOS 18), skipped")
                }
            }
        }
        Targets.check(report, options: options)
        report.printSummary()
        print("\ntotal \(Report.format(total.seconds)) s, load average at the end \(Machine.loadAverage)")
        if let path = options.jsonOutput {
            do {
                try report.writeJSON(to: path, machine: machine)
            } catch {
                FileHandle.standardError.write(Data("cannot write \(path): \(error)\n".utf8))
                return 1
            }
        }
        guard report.failures.isEmpty else {
            print("\n\(report.failures.count) failure(s): the figures above are incomplete")
            for failure in report.failures { print("  - \(failure)") }
            return 1
        }
        return 0
    }

    // The work runs in a task while the main thread waits on a semaphore, instead of top-level `await`: with
    // `dispatch_main` the main thread sits in `sigsuspend`, which valgrind (callgrind) cannot survive. Detached: the
    // main actor is the blocked main thread.
    let exitStatus = Lock<Int32>(0)
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
        let status = await main(Array(CommandLine.arguments.dropFirst()))
        exitStatus.withLock { $0 = status }
        finished.signal()
    }
    finished.wait()
    exit(exitStatus.withLock { $0 })

#else
    print("BothamBenchmarks runs on Linux only")
#endif
