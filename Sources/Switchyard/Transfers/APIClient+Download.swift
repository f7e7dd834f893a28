public import Foundation
public import HTTPTypes

extension APIClient {
    /// Downloads an endpoint's response body to a file, with progress, resumption and an optional checksum.
    ///
    /// The call goes through the service's pipeline like any other (header fields, authorization,
    /// logging, accessories, retries); the transport writes a `200` or `206` body straight to
    /// `destination` + `.partial` instead of memory, so a download of any size costs a constant amount
    /// of memory. Stages that transform bodies pass such a response on untouched; the encryption and
    /// signing stages refuse it (skip them for the call, and use a checksum, where a download needs
    /// no decryption).
    ///
    /// - An interrupted transfer is resumed with `Range: bytes=N-` and `If-Range` (the `ETag`, or the
    ///   `Last-Modified` date), up to ``DownloadOptions/maximumResumes`` times in the call; a partial
    ///   file left by an earlier call for the same resource is resumed the same way. A server that
    ///   answers the `If-Range` with the whole resource (it changed) restarts the file; a `416` restarts it once.
    /// - The destination appears only once the file is complete and its checksum (when asked) matches:
    ///   a partial file is never presented as complete. A mismatch discards the file and fails with
    ///   ``SwitchyardError/Code/integrity``.
    /// - Progress (through accessories) counts the whole resource, continuing where an earlier attempt stopped.
    ///
    /// ```swift
    /// var download = DownloadOptions(checksum: .sha256(hex: expected))
    /// let file = try await client.download(GetInstaller(version: "2.1"), to: target, download: download).value
    /// print(file.url.path, file.byteCount, file.resumedFrom)
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: what to download (its `Output` is not used).
    ///   - destination: the file to create; replaced when it exists.
    ///   - download: resumption and checksum.
    ///   - options: adjustments for this call, applied on top of the endpoint's own options.
    /// - Returns: the downloaded file with the call's metadata.
    /// - Throws: ``SwitchyardError``.
    public func download<E: Endpoint>(
        _ endpoint: E,
        to destination: URL,
        download: DownloadOptions = DownloadOptions(),
        options: CallOptions? = nil
    ) async throws(SwitchyardError) -> CallResult<DownloadedFile> {
        try await performDownload(CallSpec(endpoint), to: destination, download: download, options: options)
    }

    /// Downloads under an id chosen before the call starts (a ``CallHandle``'s), used by every attempt.
    func download<E: Endpoint>(
        _ endpoint: E,
        to destination: URL,
        download: DownloadOptions,
        options: CallOptions?,
        requestID: RequestID
    ) async throws(SwitchyardError) -> CallResult<DownloadedFile> {
        try await performDownload(CallSpec(endpoint), to: destination, download: download, options: options, requestID: requestID)
    }

    /// Downloads a resource named at the call site (the intensive style) to a file; see
    /// ``download(_:to:download:options:)``.
    ///
    /// - Parameters:
    ///   - service: the service.
    ///   - path: the path template, such as `/files/{id}`.
    ///   - pathParameters: values for the placeholders.
    ///   - parameters: query parameters.
    ///   - headerFields: header fields for this call.
    ///   - destination: the file to create; replaced when it exists.
    ///   - download: resumption and checksum.
    ///   - options: further adjustments.
    /// - Returns: the downloaded file with the call's metadata.
    /// - Throws: ``SwitchyardError``.
    public func download(
        _ service: ServiceID,
        _ path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        headerFields: HTTPFields = [:],
        to destination: URL,
        download: DownloadOptions = DownloadOptions(),
        options: CallOptions? = nil
    ) async throws(SwitchyardError) -> CallResult<DownloadedFile> {
        let endpoint = DynamicEndpoint<Response>(
            service: service,
            method: .get,
            path: path,
            pathParameters: pathParameters,
            parameters: parameters,
            headerFields: headerFields,
            encoding: .query
        )
        return try await performDownload(CallSpec(endpoint), to: destination, download: download, options: options)
    }

    /// The download loop: resume what is on disk, send, resume after interruptions, verify, rename.
    private func performDownload(
        _ spec: CallSpec,
        to destination: URL,
        download: DownloadOptions,
        options: CallOptions?,
        requestID: RequestID? = nil
    ) async throws(SwitchyardError) -> CallResult<DownloadedFile> {
        let files = DownloadFiles(destination: destination)
        var parameterText: [UInt8] = []
        try? JSONValueWriter.append(.object(spec.parameters), name: "", sortingKeys: true, to: &parameterText)
        let resource =
            "\(spec.service.rawValue) \(spec.method.rawValue) \(spec.path) "
            + spec.pathParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            + " " + String(decoding: parameterText, as: UTF8.self)
        if !download.resume { files.discard() }
        var resumes = 0
        var restarted = false
        var reused: Int64?  // bytes from an earlier call's partial file still in use
        while true {
            let offset = download.resume ? files.resumableOffset(for: resource) : 0
            if offset == 0 { files.discard() }
            reused = reused ?? offset
            var callOptions = options ?? CallOptions()
            callOptions.sameRequest = .allow  // two downloads never share one file
            if offset > 0, let record = files.record {
                var fields = HTTPFields()
                fields[.range] = "bytes=\(offset)-"
                fields[.ifRange] = record.validator
                callOptions.headerFields = callOptions.headerFields.replacing(with: fields)
            }
            let target = DownloadTarget(fileURL: files.partial, resumeOffset: offset, recordURL: files.recordFile, resource: resource)
            callOptions.setContextValue(target, for: DownloadTarget.Key.self)
            callOptions.acceptableStatusCodes = callOptions.acceptableStatusCodes ?? 200...299
            let exchange: Exchange
            do {
                exchange = try await perform(spec, options: callOptions, requestID: requestID ?? .next())
            } catch {
                if files.record?.start == 0 { reused = 0 }  // the server sent the whole resource again
                if error.code == .httpStatus, error.status?.code == 416, !restarted {
                    restarted = true
                    files.discard()
                    continue
                }
                // Resume only when this attempt got somewhere: more bytes on disk, or a restart.
                let progressed = files.partialSize != offset || (offset > 0 && files.record?.start == 0)
                if error.code == .transport || error.code == .timeout, progressed, download.resume, resumes < download.maximumResumes {
                    resumes += 1
                    continue
                }
                if !download.resume { files.discard() }
                throw error
            }
            var file = try files.settle(exchange.response, offset: offset)
            if file.resumedFrom == 0 { reused = 0 }
            if let checksum = download.checksum {
                let digest = try checksum.digest(ofFileAt: files.partial)
                guard digest == checksum.expected else {
                    files.discard()
                    throw SwitchyardError(
                        code: .integrity,
                        message: "the downloaded file's \(checksum.algorithm) is \(DownloadChecksum.hex(digest)), "
                            + "not the expected \(DownloadChecksum.hex(checksum.expected)); the file was discarded"
                    ).filling(from: exchange.context)
                }
                file.checksum = DownloadChecksum.hex(digest)
            }
            try files.publish()
            file.url = destination
            file.resumedFrom = reused ?? 0
            file.resumes = resumes
            return exchange.result(file)
        }
    }
}
