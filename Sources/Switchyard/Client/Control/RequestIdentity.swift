import Foundation

/// The canonical identity of a call for ``SameRequestPolicy``: service, environment, method, path,
/// the query's and the parameters' name–value pairs sorted, volatile names left out, the hash of an
/// explicit body — and the call's credential partition, header fields, and the options that change
/// the answer (its own stages, the stages it skips or enables, its deadline, its cache policy), so that
/// callers who ask differently, or as different users, never share a response.
enum RequestIdentity {
    static func key(
        spec: CallSpec,
        request: Request,
        context: CallContext,
        options: CallOptions,
        partition: CredentialPartition,
        volatile: Set<String>
    ) -> String {
        let target = request.targetParts
        var parts = [
            partition.rawValue, spec.service.rawValue.lowercased(), context.environment.description, request.method.rawValue,
            String(target.path),
        ]
        parts.append(Request.canonicalQuery(target.query, excluding: volatile))
        var parameterText: [UInt8] = []
        let kept = Parameters(spec.parameters.filter { !volatile.contains($0.name.lowercased()) }.map { ($0.name, $0.value) })
        try? JSONValueWriter.append(.object(kept), name: "", sortingKeys: true, to: &parameterText)
        parts.append(String(decoding: parameterText, as: UTF8.self))
        // Who is asking and how: header fields (an Authorization or user header), and the options
        // that change the answer — the call's own stages, the stages it skips or enables, its
        // deadline, stage options (each key's identity). Calls that differ in these never share a response.
        parts.append(request.headerFields.map { "\($0.name.canonicalName):\($0.value)" }.sorted().joined(separator: "\u{1F}"))
        parts.append(options.optionIdentity)
        switch request.body {
        case .bytes(let body) where spec.body != nil:
            var hasher = Hasher()
            hasher.combine(body)
            parts.append("body:\(body.count):\(hasher.finalize())")
        case .stream(let stream): parts.append("stream:\(stream.identity)")
        default: break
        }
        return parts.joined(separator: "\n")
    }
}
