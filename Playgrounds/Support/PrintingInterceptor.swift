import BothamNetworking
import Foundation

/// Prints what is sent and what comes back, for a person reading the playground's output.
struct PrintingInterceptor: HTTPInterceptor {
    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        print("  → \(request)" + (context.isRetry ? " (attempt \(context.attempt))" : ""))
        do {
            let response = try await next(request)
            print("  ← \(response.statusCode), \(response.body.count) bytes")
            return response
        } catch {
            print("  ← \(error)")
            throw error
        }
    }
}
