import Foundation
import Yams

/// The checks that need the whole description: names unique, types declared, path placeholders
/// declared, parameters placed where they can go, options meaningful.
enum DescriptionValidator {
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
    static let environments = ["develop", "test", "prerelease", "release", "hotfix", "custom"]

    /// Whether `name` can name a `ServerEnvironment`: 1 to 64 ASCII letters, digits, `-`, `_` or `.`,
    /// starting with a letter (the rule of `ServiceID`, which `ServerEnvironment` shares).
    static func isEnvironmentName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
        guard (1...64).contains(utf8.count), isLetter(utf8[0]) else { return false }
        return utf8.allSatisfy { isLetter($0) || (48...57).contains($0) || $0 == 45 || $0 == 95 || $0 == 46 }
    }
    static let cachePolicies = ["networkOnly", "cacheElseNetwork", "networkElseCache", "revalidate", "cacheOnly"]
    static let sameRequestPolicies = ["allow", "coalesce", "cancelPrevious", "refuseNew"]
    /// The longest timeout or cache age a description can give, in seconds (a year): what a `Duration`
    /// literal is written from.
    static let maximumSeconds: Double = 31_536_000

    /// Whether `seconds` is a positive, finite number of seconds of at most ``maximumSeconds``.
    static func isDuration(_ seconds: Double) -> Bool { seconds > 0 && seconds <= maximumSeconds }

    /// The `{name}` placeholders of a path template, in order.
    static func placeholders(in path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    static func validate(_ description: APIDescription) -> [DescriptionError] {
        var errors: [DescriptionError] = []
        var typeNames: [String: SourceLocation] = [:]
        func claim(_ name: String, _ kind: String, at location: SourceLocation) {
            if !SwiftNames.isTypeName(name) {
                errors.append(
                    DescriptionError("\(kind) name '\(name)' must be an upper-camel Swift type name such as 'ListArticles'", at: location)
                )
            }
            if SwiftNames.reservedTypeNames.contains(name) || name == description.name + "API" {
                errors.append(
                    DescriptionError("\(kind) name '\(name)' would shadow a type the generated code uses; choose another", at: location)
                )
            }
            if let first = typeNames[name] {
                errors.append(
                    DescriptionError(
                        "duplicate \(kind) name '\(name)'; it is already declared at \(first.line):\(first.column)",
                        at: location
                    )
                )
            } else {
                typeNames[name] = location
            }
        }
        let modelNames = description.models.map(\.name)
        let declared = Set(modelNames)
        func checkType(_ type: TypeReference, at location: SourceLocation) {
            for name in type.modelNames where !declared.contains(name) {
                errors.append(
                    DescriptionError(
                        "unknown type '\(name)': declare it under 'models'" + SwiftNames.suggestion(for: name, among: modelNames),
                        at: location
                    )
                )
            }
        }
        if !SwiftNames.isTypeName(description.name) {
            errors.append(
                DescriptionError(
                    "the namespace name '\(description.name)' must be an upper-camel Swift type name such as 'Catalog'",
                    at: SourceLocation(file: description.file, line: 1, column: 1)
                )
            )
        }
        if description.services.isEmpty {
            errors.append(
                DescriptionError("the description declares no services", at: SourceLocation(file: description.file, line: 1, column: 1))
            )
        }
        var serviceNames: [String: SourceLocation] = [:]
        for service in description.services {
            if let first = serviceNames[service.swiftName] {
                errors.append(
                    DescriptionError(
                        "service '\(service.id)' has the same Swift name as the service at \(first.line):\(first.column)",
                        at: service.location
                    )
                )
            }
            serviceNames[service.swiftName] = service.location
            if service.id.isEmpty || service.id.count > 64 || !service.id.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) {
                errors.append(
                    DescriptionError("service id '\(service.id)' must be 1 to 64 letters, digits, '-', '_' or '.'", at: service.location)
                )
            }
            for environment in service.environments {
                if !Self.isEnvironmentName(environment.name) {
                    errors.append(
                        DescriptionError(
                            "environment '\(environment.name)' must be 1 to 64 ASCII letters, digits, '-', '_' or '.', "
                                + "starting with a letter",
                            at: service.location
                        )
                    )
                } else if !environments.contains(environment.name.lowercased()),
                    case let suggestion = SwiftNames.suggestion(for: environment.name.lowercased(), among: environments),
                    !suggestion.isEmpty
                {
                    // A name of the team's own is fine; one a typo away from a well-known one is not.
                    errors.append(
                        DescriptionError(
                            "unknown environment '\(environment.name)'\(suggestion) (an environment of your own needs a name "
                                + "further from the well-known ones: \(environments.joined(separator: ", ")))",
                            at: service.location
                        )
                    )
                }
                let url = URL(string: environment.url)
                if url?.host == nil || !["http", "https"].contains(url?.scheme ?? "") {
                    errors.append(
                        DescriptionError(
                            "the \(environment.name) base URL '\(environment.url)' of '\(service.id)' is not an http or https URL with a host",
                            at: service.location
                        )
                    )
                }
            }
            if let timeout = service.timeout, !isDuration(timeout) {
                errors.append(
                    DescriptionError(
                        "the timeout of '\(service.id)' must be a positive number of seconds, at most \(Int(maximumSeconds))",
                        at: service.location
                    )
                )
            }
            for endpoint in service.endpoints {
                claim(endpoint.name, "endpoint", at: endpoint.location)
                errors += check(endpoint)
                if case .decoded(let type) = endpoint.response { checkType(type, at: endpoint.location) }
                if case .stream(_, let element?) = endpoint.response { checkType(element, at: endpoint.location) }
                if case .json(let type, _) = endpoint.body { checkType(type, at: endpoint.location) }
                if case .multipart(let parts) = endpoint.body {
                    for part in parts { part.type.map { checkType($0, at: endpoint.location) } }
                }
            }
        }
        for model in description.models {
            claim(model.name, "model", at: model.location)
            var seen: [String: SourceLocation] = [:]
            for field in model.fields {
                checkType(field.type, at: field.location)
                if field.swiftName == "_" || field.swiftName.isEmpty {
                    errors.append(
                        DescriptionError(
                            "field '\(field.key)' needs letters or digits to make a Swift name (or a 'swiftName')",
                            at: field.location
                        )
                    )
                } else if !SwiftSource.isIdentifier(field.swiftName) || SwiftNames.unusableNames.contains(field.swiftName) {
                    errors.append(
                        DescriptionError(
                            "the Swift name '\(field.swiftName)' of field '\(field.key)' is not a Swift identifier such as 'createdAt'",
                            at: field.location
                        )
                    )
                }
                if let first = seen[field.swiftName] {
                    errors.append(
                        DescriptionError(
                            "field '\(field.key)' has the Swift name '\(field.swiftName)' of the field at \(first.line):\(first.column)",
                            at: field.location
                        )
                    )
                }
                seen[field.swiftName] = field.location
            }
        }
        return errors
    }

    /// The checks of one endpoint.
    static func check(_ endpoint: APIDescription.Endpoint) -> [DescriptionError] {
        var errors: [DescriptionError] = []
        let name = endpoint.name
        if !methods.contains(endpoint.method) {
            errors.append(
                DescriptionError(
                    "unknown method '\(endpoint.method)' for '\(name)'; expected one of: \(methods.joined(separator: ", "))",
                    at: endpoint.location
                )
            )
        }
        if !endpoint.path.hasPrefix("/") {
            errors.append(DescriptionError("the path of '\(name)' must start with '/': '\(endpoint.path)'", at: endpoint.location))
        }
        let placeholders = placeholders(in: endpoint.path)
        for placeholder in placeholders where !endpoint.parameters.contains(where: { $0.name == placeholder && $0.location == .path }) {
            errors.append(
                DescriptionError(
                    "path parameter '{\(placeholder)}' of '\(name)' has no declaration under 'parameters'",
                    at: endpoint.location
                )
            )
        }
        var swiftNames: [String: SourceLocation] = [:]
        for parameter in endpoint.parameters {
            let at = parameter.sourceLocation
            if parameter.swiftName == "_" || !SwiftSource.isIdentifier(parameter.swiftName) {
                errors.append(DescriptionError("parameter name '\(parameter.name)' needs letters or digits to make a Swift name", at: at))
            }
            if let first = swiftNames[parameter.swiftName] {
                errors.append(
                    DescriptionError(
                        "parameter '\(parameter.name)' has the Swift name '\(parameter.swiftName)' of the parameter at \(first.line):\(first.column)",
                        at: at
                    )
                )
            }
            swiftNames[parameter.swiftName] = at
            if parameter.type.isOptional {
                errors.append(
                    DescriptionError("parameter '\(parameter.name)' cannot have an optional type; write 'required: false' instead", at: at)
                )
            }
            // OpenAPI parameters have a style, and their enumerations, arrays and objects are written by it.
            let styled = parameter.style != nil
            let isScalar = if case .scalar = parameter.type { true } else { styled }
            let isScalarArray = if case .array(.scalar) = parameter.type { true } else { styled }
            switch parameter.location {
            case .path:
                if !placeholders.contains(parameter.name) {
                    errors.append(
                        DescriptionError("path parameter '\(parameter.name)' does not appear in the path '\(endpoint.path)'", at: at)
                    )
                }
                if !parameter.required { errors.append(DescriptionError("path parameter '\(parameter.name)' must be required", at: at)) }
                if !isScalar {
                    errors.append(
                        DescriptionError("path parameter '\(parameter.name)' must have a scalar type, not '\(parameter.type)'", at: at)
                    )
                }
            case .header:
                if !isScalar {
                    errors.append(
                        DescriptionError("header parameter '\(parameter.name)' must have a scalar type, not '\(parameter.type)'", at: at)
                    )
                }
                if parameter.name.isEmpty
                    || !parameter.name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "!#$%&'*+-.^_`|~".contains($0)) })
                {
                    errors.append(DescriptionError("'\(parameter.name)' is not a valid header field name", at: at))
                }
            case .query, .body:
                if !isScalar && !isScalarArray {
                    errors.append(
                        DescriptionError(
                            "parameter '\(parameter.name)' must be a scalar or an array of scalars, not '\(parameter.type)'",
                            at: at
                        )
                    )
                }
                if parameter.location == .body && ["GET", "HEAD"].contains(endpoint.method) {
                    errors.append(
                        DescriptionError(
                            "body parameter '\(parameter.name)' on a \(endpoint.method) endpoint: \(endpoint.method) requests carry no body",
                            at: at
                        )
                    )
                }
            }
            if parameter.required && parameter.defaultLiteral != nil {
                errors.append(DescriptionError("parameter '\(parameter.name)' is required and has a default; drop one", at: at))
            }
        }
        if endpoint.body != nil, let parameter = endpoint.parameters.first(where: { $0.location == .body }) {
            errors.append(
                DescriptionError(
                    "'\(name)' has a 'body' and the body parameter '\(parameter.name)'; put the value in the body's model",
                    at: parameter.sourceLocation
                )
            )
        }
        if !["json", "form"].contains(endpoint.bodyEncoding) {
            errors.append(
                DescriptionError(
                    "'bodyEncoding' of '\(name)' must be 'json' or 'form', not '\(endpoint.bodyEncoding)'",
                    at: endpoint.location
                )
            )
        } else if endpoint.bodyEncoding == "form", endpoint.parameters.contains(where: { $0.location == .body }),
            endpoint.parameters.contains(where: { $0.location == .query && $0.style == nil })
        {
            errors.append(
                DescriptionError(
                    "'\(name)' mixes query parameters with a form body; send them in the body or use a JSON body",
                    at: endpoint.location
                )
            )
        }
        return errors
    }

    /// The checks of an endpoint's options, reported at the options node.
    static func check(_ options: APIDescription.Options, at node: Node, reader: YAMLReader) {
        if let policy = options.cachePolicy, !cachePolicies.contains(policy) {
            reader.error(
                "unknown cache policy '\(policy)'; expected one of: \(cachePolicies.joined(separator: ", "))"
                    + SwiftNames.suggestion(for: policy, among: cachePolicies),
                at: node
            )
        }
        if options.cachePolicy == "cacheElseNetwork", !isDuration(options.cacheMaxAge ?? 0) {
            reader.error("the cache policy cacheElseNetwork needs a positive 'maxAge' in seconds, at most \(Int(maximumSeconds))", at: node)
        }
        if options.cacheMaxAge != nil, options.cachePolicy != "cacheElseNetwork" {
            reader.error("'maxAge' applies only to the cache policy cacheElseNetwork", at: node)
        }
        if let same = options.sameRequest, !sameRequestPolicies.contains(same) {
            reader.error(
                "unknown same-request policy '\(same)'; expected one of: \(sameRequestPolicies.joined(separator: ", "))"
                    + SwiftNames.suggestion(for: same, among: sameRequestPolicies),
                at: node
            )
        }
        if let retries = options.retries, retries < 0 || retries > 10 {
            reader.error("'retries' must be 0 to 10", at: node)
        }
        if let timeout = options.timeout, !isDuration(timeout) {
            reader.error("'timeout' must be a positive number of seconds, at most \(Int(maximumSeconds))", at: node)
        }
    }

    /// A default value as a Swift literal of the parameter's type, or an error.
    static func literal(_ node: Node, for type: TypeReference, reader: YAMLReader, parameter: String) -> String? {
        guard case .scalar(let scalar) = type, let text = node.scalar?.string else {
            reader.error("the default of '\(parameter)' must be a single \(type) value", at: node)
            return nil
        }
        switch scalar {
        case .string: return SwiftSource.literal(text)
        case .int, .int64, .int32: if let value = Int64(text) { return String(value) }
        case .double, .float: if let value = Double(text), value.isFinite { return String(value) }
        case .bool: if let value = node.bool { return String(value) }
        case .dateTime, .bytes:
            reader.error("'\(parameter)' of type \(scalar.rawValue) cannot have a default", at: node)
            return nil
        }
        reader.error("the default '\(text)' of '\(parameter)' is not a \(scalar.rawValue)", at: node)
        return nil
    }
}
