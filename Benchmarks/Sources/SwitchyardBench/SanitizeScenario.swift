import ArgumentParser
import Foundation
import Switchyard

/// `sanitize`: stripping the nulls out of a ~25 KB `{"code":0,"msg":"ok","data":{…}}` envelope full of
/// them. Switchyard's one-pass `JSONSanitizer` against Foundation's parse alone and against the naive
/// strip (parse, remove `NSNull` members recursively, serialize), rounds interleaved.
struct SanitizeScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sanitize", abstract: "Null-stripping throughput on a JSON envelope.")

    @Option(help: "Approximate envelope size in bytes.") var bytes = 25_000
    @Option(help: "Rounds per contender (the median is reported).") var rounds = 7
    @Option(help: "Seconds per contender per round.") var seconds = 0.25

    func run() async throws {
        let envelope = Self.envelope(approximateBytes: bytes)
        let sanitizer = JSONSanitizer()
        try Self.check(envelope, sanitizer: sanitizer)
        let duration = seconds
        var parse: [Double] = []
        var naive: [Double] = []
        var ours: [Double] = []
        for _ in 0..<rounds {
            parse.append(
                try Self.rate(of: envelope, seconds: duration) { data in
                    _ = try JSONSerialization.jsonObject(with: data)
                    return data.count
                }
            )
            naive.append(
                try Self.rate(of: envelope, seconds: duration) { data in
                    let object = try JSONSerialization.jsonObject(with: data)
                    return try JSONSerialization.data(withJSONObject: Self.removingNulls(object)).count
                }
            )
            ours.append(
                try Self.rate(of: envelope, seconds: duration) { data in
                    try sanitizer.stripNulls(data).count
                }
            )
        }
        let parseRate = Statistics.median(parse)
        let oursRate = Statistics.median(ours)
        print("jsonserialization-parse \(Statistics.format(parseRate)) MB/s")
        print("naive-strip \(Statistics.format(Statistics.median(naive))) MB/s")
        print("switchyard-sanitize \(Statistics.format(oursRate)) MB/s")
        print("ratio switchyard-sanitize/jsonserialization-parse \(Statistics.format(oursRate / parseRate, decimals: 2))")
    }

    /// Megabytes (10^6 bytes) of `data` per second through `work`, run repeatedly for `seconds`.
    private static func rate(of data: Data, seconds: Double, _ work: (Data) throws -> Int) throws -> Double {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(seconds * 1000))
        let start = clock.now
        var iterations = 0
        var checksum = 0
        repeat {
            checksum &+= try work(data)
            iterations += 1
        } while clock.now < deadline
        let elapsed = Statistics.seconds(clock.now - start)
        precondition(checksum > 0)
        return Double(data.count) * Double(iterations) / elapsed / 1e6
    }

    /// `value` with every `NSNull` object member removed, at every depth.
    private static func removingNulls(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            result.reserveCapacity(object.count)
            for (key, member) in object where !(member is NSNull) { result[key] = removingNulls(member) }
            return result
        }
        if let array = value as? [Any] { return array.map(removingNulls) }
        return value
    }

    /// Checks once that the sanitizer and the naive strip agree on the envelope.
    private static func check(_ envelope: Data, sanitizer: JSONSanitizer) throws {
        let ours = try JSONSerialization.jsonObject(with: sanitizer.stripNulls(envelope))
        let naive = removingNulls(try JSONSerialization.jsonObject(with: envelope))
        let sorted = { (value: Any) in try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) }
        guard try sorted(ours) == sorted(naive) else { throw ValidationError("the sanitizer and the naive strip disagree") }
    }

    /// A deterministic envelope of about `approximateBytes` bytes: a page of user records in which
    /// about a third of the members are `null`.
    static func envelope(approximateBytes: Int) -> Data {
        var items: [String] = []
        var size = 0
        var index = 0
        while size < approximateBytes - 160 {
            let item = """
                {"id":\(1000 + index),"name":"user-\(index)","nickname":null,"avatar":null,\
                "email":"user\(index)@example.com","phone":null,"score":\(index % 97).5,"verified":\(index % 3 == 0),\
                "tags":["swift","nio",null],"address":{"city":"杭州","street":null,"zip":null,"geo":{"lat":30.27,"lng":120.15,"alt":null}},\
                "lastLogin":null,"bio":"Say \\"hi\\" — naïve café \\u00e9","invitedBy":null,"extra":{"a":null,"b":null}}
                """
            items.append(item)
            size += item.utf8.count + 1
            index += 1
        }
        let text =
            #"{"code":0,"msg":"ok","data":{"page":1,"pageSize":\#(items.count),"total":1234,"next":null,"prev":null,"items":["#
            + items.joined(separator: ",") + #"]}}"#
        return Data(text.utf8)
    }
}
