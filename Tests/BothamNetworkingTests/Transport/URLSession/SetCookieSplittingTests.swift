import Testing

@testable import BothamNetworking

@Suite("Set-Cookie fields joined by the platform are split again, commas in dates kept", .timeLimit(.minutes(1)))
struct SetCookieSplittingTests {
    @Test(
        "joined cookies come apart; Expires dates, quoted values and lone cookies stay whole",
        arguments: [
            ("a=1", ["a=1"]),
            ("a=1, b=2", ["a=1", "b=2"]),
            (
                "id=a3fWa; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, theme=dark; Max-Age=60",
                ["id=a3fWa; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/", "theme=dark; Max-Age=60"]
            ),
            (
                "x=1; expires=Thu, 01-Jan-2027 00:00:00 GMT, y=2; expires=Fri, 02-Jan-2027 00:00:00 GMT",
                ["x=1; expires=Thu, 01-Jan-2027 00:00:00 GMT", "y=2; expires=Fri, 02-Jan-2027 00:00:00 GMT"]
            ),
            ("q=\"a,b\"", ["q=\"a,b\""]),
        ])
    func split(joined: String, expected: [String]) {
        #expect(SetCookieSplitting.split(joined) == expected)
    }
}
