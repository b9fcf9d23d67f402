// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    /// The benchmark cases.
    enum BenchCase: String, CaseIterable, Sendable {
        case chain
        case transport
        case memory
        case slow
        case streaming
        case cache
        case loops
        case http2
        case peers
    }

    /// Command-line options of `BothamBenchmarks run`.
    struct Options: Sendable {
        var cases: [BenchCase] = BenchCase.allCases
        var quick = false
        var runs = 5
        /// A small static JSON file on a keep-alive loopback server (nginx), for the transport case.
        var url: String?
        /// A large static file on the same server, for the download memory case.
        var largeURL: String?
        /// A 1 MiB static file on the same server, for the http2 case.
        var mediumURL: String?
        /// The small JSON and the 1 MiB file on the same nginx speaking cleartext HTTP/2 (http2 case).
        var h2URL: String?
        var h2MediumURL: String?
        /// A large local file, for the upload memory case.
        var uploadFile: String?
        var jsonOutput: String?
        var interceptorCounts = [0, 4, 8, 16]
        var concurrencies = [1, 16, 64]
        /// Event loops of the many-loop client in the loops case (`nil`: one per core, at least 2).
        var loops: Int?
        /// Calls in flight for the loops case.
        var loopConcurrencies = [1, 16, 64, 256]
        var chainCalls = 20_000
        var requests = 2_000
        var stubCalls = 10_000
        var memoryRuns = 3
        var slowDelay = 3.0
        var slowCalls = 8
        var slowRuns = 3
        /// A static `text/event-stream` file of many small events on the loopback server (streaming throughput).
        var eventsURL: String?
        /// Events per latency run, one every ``latencyInterval`` seconds (streaming latency).
        var latencyEvents = 300
        var latencyInterval = 0.005

        static let usage = """
            usage: BothamBenchmarks [run] [options]
              --cases LIST          chain,transport,memory,slow,streaming,cache,loops,http2,peers (default: all)
              --quick               CI smoke: fewer runs and iterations, 1 s slow server (< 60 s)
              --runs N              repetitions per measurement (default 5; quick 3)
              --url URL             small JSON on a keep-alive loopback server (transport case)
              --large-url URL       large file on that server (download memory case)
              --medium-url URL      1 MiB file on that server (http2 and peers cases)
              --h2-url URL          the small JSON on the same nginx speaking h2c (http2 case)
              --h2-medium-url URL   the 1 MiB file there (http2 case)
              --upload-file PATH    large local file (upload memory case)
              --interceptors LIST   interceptor counts for the chain case (default 0,4,8,16)
              --concurrency LIST    calls in flight for the transport case (default 1,16,64)
              --loops N             event loops of the many-loop client, loops case (default: one per core, ≥ 2)
              --loop-concurrency LIST  calls in flight for the loops and http2 cases (default 1,16,64,256)
              --chain-calls N       calls per chain run (default 20000)
              --requests N          requests per transport run (default 2000)
              --stub-calls N        concurrent stub calls in the memory case (default 10000)
              --slow-delay SECONDS  how long the slow server waits (default 3)
              --events-url URL      static text/event-stream file of small events (streaming throughput)
              --latency-events N    events per streaming latency run (default 300; quick 100)
              --latency-interval-ms MS  time between those events (default 5)
              --json PATH           also write the results as JSON
            """

        /// Parses `arguments` (without the program name); `nil` with a message on bad input.
        static func parse(_ arguments: [String]) -> Result<Options, OptionsError> {
            var options = Options()
            var explicitRuns: Int?
            var rest = arguments[...]
            if rest.first == "run" { rest = rest.dropFirst() }
            while let flag = rest.popFirst() {
                func value() throws(OptionsError) -> String {
                    guard let next = rest.popFirst() else { throw OptionsError("\(flag) needs a value") }
                    return next
                }
                func number() throws(OptionsError) -> Int {
                    let text = try value()
                    guard let number = Int(text), number >= 0 else { throw OptionsError("\(flag): bad number \(text)") }
                    return number
                }
                func list() throws(OptionsError) -> [Int] {
                    let text = try value()
                    let numbers = text.split(separator: ",").compactMap { Int($0) }
                    guard !numbers.isEmpty else { throw OptionsError("\(flag): bad list \(text)") }
                    return numbers
                }
                do throws(OptionsError) {
                    switch flag {
                    case "--cases":
                        let names = try value().split(separator: ",")
                        options.cases = try names.map { name throws(OptionsError) in
                            guard let benchCase = BenchCase(rawValue: String(name)) else {
                                throw OptionsError("unknown case \(name)")
                            }
                            return benchCase
                        }
                    case "--quick": options.quick = true
                    case "--runs": explicitRuns = max(1, try number())
                    case "--url": options.url = try value()
                    case "--large-url": options.largeURL = try value()
                    case "--medium-url": options.mediumURL = try value()
                    case "--h2-url": options.h2URL = try value()
                    case "--h2-medium-url": options.h2MediumURL = try value()
                    case "--upload-file": options.uploadFile = try value()
                    case "--json": options.jsonOutput = try value()
                    case "--interceptors": options.interceptorCounts = try list()
                    case "--concurrency": options.concurrencies = try list().map { max(1, $0) }
                    case "--loops": options.loops = max(2, try number())
                    case "--loop-concurrency": options.loopConcurrencies = try list().map { max(1, $0) }
                    case "--chain-calls": options.chainCalls = max(1, try number())
                    case "--requests": options.requests = max(1, try number())
                    case "--stub-calls": options.stubCalls = max(1, try number())
                    case "--events-url": options.eventsURL = try value()
                    case "--latency-events": options.latencyEvents = max(20, try number())
                    case "--latency-interval-ms":
                        let text = try value()
                        guard let milliseconds = Double(text), milliseconds > 0 else {
                            throw OptionsError("bad interval \(text)")
                        }
                        options.latencyInterval = milliseconds / 1000
                    case "--slow-delay":
                        let text = try value()
                        guard let seconds = Double(text), seconds > 0 else { throw OptionsError("bad delay \(text)") }
                        options.slowDelay = seconds
                    case "-h", "--help": return .failure(OptionsError(usage))
                    default: throw OptionsError("unknown option \(flag)\n\(usage)")
                    }
                } catch {
                    return .failure(error)
                }
            }
            if options.quick {
                options.runs = 3
                options.chainCalls = min(options.chainCalls, 4_000)
                options.requests = min(options.requests, 400)
                options.memoryRuns = 1
                options.slowRuns = 1
                options.slowDelay = min(options.slowDelay, 1)
                options.latencyEvents = min(options.latencyEvents, 100)
            }
            if let explicitRuns { options.runs = explicitRuns }
            return .success(options)
        }
    }

    /// A command-line mistake.
    struct OptionsError: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }

#endif
