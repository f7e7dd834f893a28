/// The backend environment calls are addressed to.
///
/// Each ``Service`` has a base URL per environment. The ``ServiceRegistry`` holds the current one;
/// it can be switched at run time (a debug menu, a tester's settings page), the choice is persisted,
/// and a release build is locked to ``release``.
///
/// ``custom`` is for an address typed in at run time: the registry keeps a custom base URL per
/// service (see ``ServiceRegistry/switchEnvironment(to:customBaseURLs:)``).
public enum ServerEnvironment: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Developers' backend.
    case develop
    /// The test (QA) backend.
    case test
    /// The pre-release (staging) backend.
    case prerelease
    /// The production backend.
    case release
    /// A hotfix backend.
    case hotfix
    /// A base URL entered at run time, per service.
    case custom

    /// The environment's name.
    public var description: String { rawValue }

    /// The position in ``allCases``, for tables indexed by environment.
    var ordinal: Int {
        switch self {
        case .develop: 0
        case .test: 1
        case .prerelease: 2
        case .release: 3
        case .hotfix: 4
        case .custom: 5
        }
    }
}
