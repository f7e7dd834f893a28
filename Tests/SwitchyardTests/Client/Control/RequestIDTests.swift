import Switchyard
import Testing

@Suite("Request ids")
struct RequestIDTests {
    @Test(
        "the description is the prefix in six hexadecimal digits, a dash and the sequence in ten, zero-padded",
        arguments: [
            (UInt64(0x3F_A2C1) << 40 | 0x2A, "3fa2c1-000000002a"),
            (UInt64(1) << 40, "000001-0000000000"),
            (UInt64.max, "ffffff-ffffffffff"),
            (UInt64(0xAB_CDEF) << 40 | 0x12_3456_789A, "abcdef-123456789a"),
        ]
    )
    func description(rawValue: UInt64, expected: String) {
        #expect(RequestID(rawValue: rawValue).description == expected)
    }

    @Test("fresh ids are distinct and share the process's prefix")
    func fresh() {
        let ids = (0..<1000).map { _ in RequestID.next() }
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map { $0.description.prefix(7) }).count == 1)
        #expect(ids.allSatisfy { $0.description.utf8.count == 17 })
    }
}
