public import Foundation

/// The reformer that makes an endpoint a download to a file: its output is the ``DownloadedFile`` the
/// call wrote, and it carries where the file goes and how it is downloaded. Make one, with the
/// ``ReformedEndpoint`` around it, with ``Endpoint/downloading(to:options:)``.
///
/// Sending `endpoint.downloading(to:)` through ``APIClient/send(_:options:)``, ``APIClient/start(_:options:)``
/// or `APIClient.send(_:options:queue:completion:)` downloads the body to the destination through the
/// service's pipeline (header fields, authorization, logging, accessories, retries) and returns a
/// ``DownloadedFile``; the transport writes a `200` or `206` body straight to the destination +
/// `.partial` instead of memory, so a download of any size costs a constant amount of memory. Stages
/// that transform bodies pass such a response on untouched; the encryption and signing stages refuse it
/// (skip them for the call, and use a checksum, where a download needs no decryption).
///
/// - An interrupted transfer is resumed with `Range: bytes=N-` and `If-Range` (the `ETag`, or the
///   `Last-Modified` date), up to ``DownloadOptions/maximumResumes`` times in the call; a partial
///   file left by an earlier call for the same resource is resumed the same way. A server that
///   answers the `If-Range` with the whole resource (it changed) restarts the file; a `416` restarts it once.
/// - The destination appears only once the file is complete and its checksum (when asked) matches:
///   a partial file is never presented as complete. A mismatch discards the file and fails with
///   ``SwitchyardError/Code/integrity``.
/// - Progress (through accessories, ``CallOptions/downloadProgress`` and ``CallHandle/progress``)
///   counts the whole resource, continuing where an earlier attempt stopped.
/// - The request asks for the identity coding (`Accept-Encoding: identity`, unless the endpoint or
///   the call names a coding), so lengths, ranges and the checksum are those of the file. A body a
///   server encodes anyway is decoded by the transport and never resumed by offset (see
///   ``DownloadSink``): an interrupted one starts over.
/// - The call's ``CallOptions/deadline`` (or the service's) bounds the whole download, every resume
///   included: when it passes, the download stops with ``SwitchyardError/Code/timeout`` and keeps the
///   partial file and its resume record (when ``DownloadOptions/resume`` is on) for a later call.
/// - A failed download keeps its partial file only for a later call to resume: when
///   ``DownloadOptions/resume`` is on, the transfer was interrupted (the connection broke, time ran
///   out, the call was cancelled) and the bytes on disk can be resumed (their resume record names
///   the resource and a validator). Any other failure — a body refused for its size, a response
///   that is not the resource, a checksum mismatch — removes the partial file and its record.
///
/// Every attempt of one download goes under the call's one id, so cancelling that id (or the call's
/// tag, service or scope) stops it wherever it is.
///
/// ```swift
/// let download = DownloadOptions(checksum: .sha256(hex: expected))
/// let file = try await client.send(GetInstaller(version: "2.1").downloading(to: target, options: download)).value
/// print(file.url.path, file.byteCount, file.resumedFrom)
///
/// // Named at the call site:
/// let page = DynamicEndpoint<Response>(service: .files, method: .get, path: "/big.bin")
/// let handle = client.start(page.downloading(to: target))   // progress, cancel, value
/// ```
///
/// As for any reformer, only the outermost one decides what a call returns, so put `downloading(to:)`
/// last. A reformed endpoint downloaded (`endpoint.reformed(by: r).downloading(to: url)`) is a
/// download under the base endpoint's name and options, `r` unused; a download reformed afterwards
/// (`endpoint.downloading(to: url).reformed(by: r)`) is the base endpoint's call reformed by `r`,
/// and writes no file.
public struct DownloadReformer: Reformer {
    /// The file to create; replaced when it exists.
    let destination: URL
    /// Resumption and checksum.
    let options: DownloadOptions

    /// The file the download wrote.
    ///
    /// - Throws: ``SwitchyardError/Code/unsupportedBody`` for a response whose body is not a file (the
    ///   endpoint was not sent as a download).
    public func reform(_ response: Response, context: ReformContext) throws -> DownloadedFile {
        guard let file = response.body.file else {
            throw SwitchyardError(
                code: .unsupportedBody,
                message: "the response body of '\(context.endpointName)' is not a downloaded file; send the download endpoint itself"
            )
        }
        return file
    }
}

extension Endpoint {
    /// This endpoint as a download to a file: sending it writes the response body to `destination`
    /// and returns a ``DownloadedFile`` (see ``DownloadReformer``).
    ///
    /// ```swift
    /// let file = try await client.send(GetInstaller(version: "2.1").downloading(to: target)).value
    /// ```
    ///
    /// - Parameters:
    ///   - destination: the file to create; replaced when it exists.
    ///   - options: resumption and checksum.
    /// - Returns: the endpoint reformed by a ``DownloadReformer``.
    public func downloading(
        to destination: URL,
        options: DownloadOptions = DownloadOptions()
    ) -> ReformedEndpoint<Self, DownloadReformer> {
        reformed(by: DownloadReformer(destination: destination, options: options))
    }
}

/// What ``APIClient`` asks of an endpoint whose output is a ``DownloadedFile``: whether it is a
/// download (its outermost reformer a ``DownloadReformer``), and where to.
protocol DownloadDescribing {
    /// Where the file goes and how the download is made.
    var download: DownloadReformer { get }
}

extension ReformedEndpoint: DownloadDescribing where Reforming == DownloadReformer {
    /// The reformer: where the file goes and how the download is made.
    var download: DownloadReformer { reformer }
}
