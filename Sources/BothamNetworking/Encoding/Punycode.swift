/// Punycode (RFC 3492): a label of Unicode scalars as the ASCII a domain name carries (`bücher` → `bcher-kva`,
/// written `xn--bcher-kva` in a host).
package enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128

    /// The label as it goes in a host: unchanged when it is ASCII, else `xn--` and its Punycode; `nil` when the
    /// encoding would overflow (a label no host can carry).
    package static func asciiLabel(_ label: String) -> String? {
        guard label.unicodeScalars.contains(where: { !$0.isASCII }) else { return label }
        return encode(label).map { "xn--" + $0 }
    }

    /// The Punycode of `label` (without the `xn--` prefix), or `nil` on overflow.
    package static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output = label.unicodeScalars.filter(\.isASCII).map(Character.init)
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            guard let next = input.filter({ $0 >= n }).min() else { return nil }
            let (scaled, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - scaled else { return nil }
            delta += scaled
            n = next
            for scalar in input {
                if scalar < n {
                    delta += 1
                    guard delta <= Int(Int32.max) else { return nil }
                }
                guard scalar == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    private static func digit(_ value: Int) -> Character {
        let scalar = value < 26 ? 0x61 + value : 0x30 + value - 26  // a…z, then 0…9
        return Character(Unicode.Scalar(UInt8(scalar)))
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
