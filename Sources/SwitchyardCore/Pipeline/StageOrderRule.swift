/// Where a stage must stand relative to other stages of its service's pipeline — declared by the stage
/// (``Stage/orderRules``) and checked when the service is registered.
///
/// Stages run in registration order on the way in and in reverse on the way out, so "inside" a stage
/// means registered after it (nearer the transport) and "outside" means registered before it. A
/// signature must be computed after every stage that changes what it signs; encryption must be the
/// innermost stage that changes the body; a cache must stand outside the credential stages it
/// partitions by. A pipeline that breaks a ``Strength/required`` rule is refused with
/// ``SwitchyardError/Code/stageOrder``, naming both stages and the fix; one that breaks an
/// ``Strength/advice`` rule is registered, with a warning in the registry's log.
///
/// ```swift
/// struct RequestDigest: RequestStage {
///     var orderRules: [StageOrderRule] {
///         [.inside(.commonParameters, .headers, because: "the digest covers the parameters and headers they add")]
///     }
///     …
/// }
/// ```
///
/// A rule names other stages by ``StageID``; stages the pipeline does not have are not checked.
public struct StageOrderRule: Sendable, Hashable, CustomStringConvertible {
    /// Which side of the other stages the declaring stage stands on.
    public enum Placement: String, Sendable, Hashable {
        /// Registered after them: requests reach it after they have passed them, responses before.
        case inside
        /// Registered before them: requests reach it before they pass them, responses after.
        case outside
    }

    /// What breaking the rule does at registration.
    public enum Strength: String, Sendable, Hashable {
        /// The pipeline is refused: it would be wrong for every call.
        case required
        /// The pipeline is registered with a warning: it works, but not as intended most of the time.
        case advice
    }

    /// Which side of ``others`` the declaring stage must stand on.
    public let placement: Placement
    /// The stages the rule is about.
    public let others: Set<StageID>
    /// Whether breaking the rule refuses the pipeline or warns.
    public let strength: Strength
    /// Why, in a sentence the error and the warning quote.
    public let reason: String

    /// A rule: the declaring stage stands on `placement`'s side of every stage of `others` the pipeline has.
    init(_ placement: Placement, of others: Set<StageID>, strength: Strength = .required, because reason: String) {
        self.placement = placement
        self.others = others
        self.strength = strength
        self.reason = reason
    }

    /// The declaring stage stands inside (is registered after) each of `others`.
    public static func inside(_ others: StageID..., strength: Strength = .required, because reason: String) -> StageOrderRule {
        StageOrderRule(.inside, of: Set(others), strength: strength, because: reason)
    }

    /// The declaring stage stands outside (is registered before) each of `others`.
    public static func outside(_ others: StageID..., strength: Strength = .required, because reason: String) -> StageOrderRule {
        StageOrderRule(.outside, of: Set(others), strength: strength, because: reason)
    }

    /// `inside CommonParameters, Headers (required): reason`.
    public var description: String {
        "\(placement.rawValue) \(others.sorted().map(\.description).joined(separator: ", ")) (\(strength.rawValue)): \(reason)"
    }

    /// Every breach of a rule declared by `stages` (outermost first), in the order of the declaring stages.
    package static func violations(in stages: [any Stage]) -> [StageOrderViolation] {
        let ids = stages.map(\.id)
        var violations: [StageOrderViolation] = []
        for (index, stage) in stages.enumerated() {
            for rule in stage.orderRules {
                for (otherIndex, other) in ids.enumerated() where otherIndex != index && rule.others.contains(other) {
                    let broken = rule.placement == .inside ? otherIndex > index : otherIndex < index
                    if broken {
                        violations.append(
                            StageOrderViolation(
                                stage: ids[index],
                                position: index + 1,
                                other: other,
                                otherPosition: otherIndex + 1,
                                rule: rule
                            )
                        )
                    }
                }
            }
        }
        return violations
    }
}

/// One breach of a ``StageOrderRule`` by a pipeline: the stage that declared the rule, the stage it
/// stands on the wrong side of, and the fix.
package struct StageOrderViolation: Sendable, Hashable, CustomStringConvertible {
    /// The stage that declared the rule.
    package let stage: StageID
    /// Its position in the pipeline, from 1 (outermost).
    package let position: Int
    /// The stage it stands on the wrong side of.
    package let other: StageID
    /// That stage's position, from 1.
    let otherPosition: Int
    /// The rule broken.
    package let rule: StageOrderRule

    /// How to mend the order: `register Signing after CommonParameters`.
    package var fix: String {
        "register \(stage) \(rule.placement == .inside ? "after" : "before") \(other)"
    }

    /// `Signing [1] must stand inside CommonParameters [2] — register Signing after CommonParameters: reason`.
    package var description: String {
        "\(stage) [\(position)] must stand \(rule.placement.rawValue) \(other) [\(otherPosition)] — \(fix): \(rule.reason)"
    }
}

extension SwitchyardError.Code {
    /// A service's stages stand in an order one of their ``StageOrderRule``s forbids: the registration
    /// is refused, the message naming both stages and the fix.
    public static let stageOrder = Self("stageOrder")
}
