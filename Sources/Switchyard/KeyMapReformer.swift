public import Foundation

/// Renames JSON member names — the server's to the app's — at every depth, then decodes `Output`
/// from the result. Only member names are touched; values, including strings that happen to equal a
/// name, are copied byte for byte.
///
/// ```swift
/// struct Profile: Decodable, Sendable { let displayName: String; let avatar: URL }
/// let reformer = KeyMapReformer<Profile>(["nick_nm": "displayName", "hd_img": "avatar"])
/// ```
public struct KeyMapReformer<Output: Decodable & Sendable>: Reformer, @unchecked Sendable {
    /// Server name → app name.
    public let keyMap: [String: String]
    /// The decoder to use instead of the service's, if any (never mutated).
    public let decoder: JSONDecoder?

    /// Creates the reformer.
    public init(_ keyMap: [String: String], as type: Output.Type = Output.self, decoder: JSONDecoder? = nil) {
        self.keyMap = keyMap
        self.decoder = decoder
    }

    /// Renames, then decodes.
    public func reform(_ response: Response, context: ReformContext) throws -> Output {
        try (decoder ?? context.decoder).decode(Output.self, from: Self.renaming(response.body, keyMap))
    }

    /// `json` with member names renamed by `keyMap`, at every depth.
    public static func renaming(_ json: Data, _ keyMap: [String: String]) -> Data {
        guard !keyMap.isEmpty else { return json }
        let bytes = [UInt8](json)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                output.append(bytes[index])
                index += 1
                continue
            }
            let end = JSONScan.endOfString(bytes, from: index)
            let after = JSONScan.skipSpace(bytes, from: end)
            if after < bytes.count, bytes[after] == UInt8(ascii: ":"),
                let renamed = keyMap[JSONScan.stringValue(bytes, index..<end)]
            {
                JSONValueWriter.appendString(renamed, to: &output)
            } else {
                output.append(contentsOf: bytes[index..<end])
            }
            index = end
        }
        return Data(output)
    }
}
