import Foundation

/// Runs playground pages: starts the embedded services, runs each page, prints a summary, and returns the exit code.
///
/// Options: `--base-url URL` (or the environment variable `BOTHAM_PLAYGROUND_BASE_URL`) sends the httpbin-style
/// requests to a real server, for example a local httpbin; everything else stays on the embedded services.
public enum PlaygroundRunner {
    /// Runs `pages` in order and exits the process with 0 when every check held, 1 otherwise.
    public static func main(_ pages: [any PlaygroundPage.Type]) async -> Never {
        exit(await run(pages, arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
    }

    /// Runs `pages` in order; returns 0 when every check held, 1 otherwise.
    public static func run(
        _ pages: [any PlaygroundPage.Type],
        arguments: [String] = [],
        environment: [String: String] = [:]
    ) async -> Int32 {
        let services: EmbeddedServices
        do {
            services = try EmbeddedServices()
        } catch {
            print("Could not start the embedded server: \(error)")
            return 1
        }
        defer { services.shutdown() }
        let realURL = option("--base-url", in: arguments) ?? environment["BOTHAM_PLAYGROUND_BASE_URL"]
        let context = PlaygroundContext(
            httpbinURL: realURL ?? services.baseURL,
            servicesURL: services.baseURL,
            usesRealServer: realURL != nil
        )
        print("Services: \(services.baseURL) (embedded)" + (realURL.map { "; httpbin: \($0)" } ?? ""))
        var failed: [String] = []
        for page in pages {
            print("\n## \(page.name) — \(page.summary)")
            do {
                try await page.run(context)
            } catch {
                print("  ✘ \(page.name) failed: \(error)")
                failed.append(page.name)
            }
        }
        print(
            "\n\(pages.count - failed.count) of \(pages.count) pages succeeded"
                + (failed.isEmpty ? "" : "; failing: \(failed.joined(separator: ", "))"))
        return failed.isEmpty ? 0 : 1
    }

    private static func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}
