public import Foundation
import SwitchyardSupport

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
        try (decoder ?? context.decoder).decode(Output.self, from: Self.renaming(response.bytes, keyMap))
    }

    /// `json` with member names renamed by `keyMap`, at every depth.
    public static func renaming(_ json: Data, _ keyMap: [String: String]) -> Data {
        guard !keyMap.isEmpty else { return json }
        let output = JSONScan.rewritingMembers([UInt8](json)) { name in keyMap[name].map(JSONScan.MemberRewrite.rename) ?? .keep }
        return Data(output)
    }
}
