import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// httpbin-like `/basic-auth/{user}/{password}` and `/bearer`, and a token service for the refresh page.
enum Auth {
    static func basic(_ request: RecordedRequest, segments: [String]) -> MockResponse {
        guard segments.count >= 3 else {
            return Routes.json(["error": "use /basic-auth/{user}/{password}"], status: 400)
        }
        let expected = "Basic " + Data("\(segments[1]):\(segments[2])".utf8).base64EncodedString()
        if request.header("Authorization") == expected {
            return Routes.json(["authenticated": true, "user": .string(segments[1])])
        }
        return MockResponse(statusCode: 401).withHeader("WWW-Authenticate", #"Basic realm="Fake Realm""#)
    }

    static func bearer(_ request: RecordedRequest, expected: String?) -> MockResponse {
        let authorization = request.header("Authorization") ?? ""
        guard authorization.hasPrefix("Bearer ") else {
            return MockResponse(statusCode: 401).withHeader("WWW-Authenticate", "Bearer")
        }
        let token = String(authorization.dropFirst("Bearer ".count))
        if let expected, token != expected {
            return MockResponse(statusCode: 401).withHeader("WWW-Authenticate", #"Bearer error="invalid_token""#)
        }
        return Routes.json(["authenticated": true, "token": .string(token)])
    }

    static func refresh(state: Lock<ServicesState>) -> MockResponse {
        let token = state.withLock { state -> String in
            state.tokenGeneration += 1
            return state.currentToken
        }
        return Routes.json(["access_token": .string(token), "token_type": "bearer"])
    }
}
