/// The inspector's secret: 32 bytes from the system's random number generator, as 64 lower-case hex
/// digits, compared in constant time.
struct InspectorToken: Sendable {
    /// The token as it appears in the page's URL.
    let text: String
    private let bytes: [UInt8]

    init() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let digits = Array("0123456789abcdef".utf8)
        let hex = random.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }
        self.text = String(decoding: hex, as: UTF8.self)
        self.bytes = hex
    }

    /// Whether `candidate` is the token, in time that depends only on the candidate's length.
    func matches(_ candidate: Substring) -> Bool {
        let given = Array(candidate.utf8)
        var difference = UInt8(given.count == bytes.count ? 0 : 1)
        for index in bytes.indices {
            difference |= bytes[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
