/// How a download (``Endpoint/downloading(to:options:)``, a ``DownloadReformer``) treats interruptions and checks the result.
///
/// ```swift
/// var download = DownloadOptions()
/// download.maximumResumes = 5
/// download.checksum = DownloadChecksum.sha256(hex: expectedHex)   // from SwitchyardCrypto
/// ```
public struct DownloadOptions: Sendable {
    /// Whether a `.partial` file left by an earlier, interrupted download of the same resource is
    /// resumed with `Range`/`If-Range` (true by default), and whether an interrupted download (the
    /// connection broke, time ran out, the call was cancelled) keeps its partial file for a later call
    /// to resume. A download that fails any other way — a body refused for its size, a response that
    /// is not the resource — never keeps one. When false, every download starts from the first byte
    /// and every failure removes the partial file.
    public var resume: Bool
    /// How many times one call resumes after the connection breaks off mid-body, each time asking for
    /// the rest; 3 by default, 0 to fail at the first interruption (keeping the partial file when
    /// ``resume`` is on).
    public var maximumResumes: Int
    /// The checksum the complete file must have; `nil` to check none.
    public var checksum: DownloadChecksum?

    /// Creates options.
    public init(resume: Bool = true, maximumResumes: Int = 3, checksum: DownloadChecksum? = nil) {
        self.resume = resume
        self.maximumResumes = max(0, maximumResumes)
        self.checksum = checksum
    }
}
