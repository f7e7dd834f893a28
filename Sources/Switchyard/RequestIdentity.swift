import Foundation

/// The canonical identity of a call for ``SameRequestPolicy``: service, environment, method, path,
/// the query's and the parameters' name–value pairs sorted, volatile names left out, and the hash of
/// an explicit body.
enum RequestIdentity {
    static func key(spec: CallSpec, request: Request, environment: ServerEnvironment, volatile: Set<String>) -> String {
        var parts = [spec.service.rawValue.lowercased(), environment.description, request.method.rawValue, String(request.pathWithoutQuery)]
        let queryPairs = (request.query ?? "").split(separator: "&").compactMap { pair -> String? in
            let name = pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair
            return volatile.contains(PercentEncoding.decode(name).lowercased()) ? nil : String(pair)
        }
        parts.append(queryPairs.sorted().joined(separator: "&"))
        var parameterText: [UInt8] = []
        let kept = Parameters(spec.parameters.filter { !volatile.contains($0.name.lowercased()) }.map { ($0.name, $0.value) })
        try? JSONValueWriter.append(.object(kept), name: "", sortingKeys: true, to: &parameterText)
        parts.append(String(decoding: parameterText, as: UTF8.self))
        if spec.body != nil, let body = request.body {
            var hasher = Hasher()
            hasher.combine(body)
            parts.append("body:\(body.count):\(hasher.finalize())")
        }
        return parts.joined(separator: "\n")
    }
}
