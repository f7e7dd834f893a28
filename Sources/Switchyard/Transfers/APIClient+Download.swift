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
    @concurrent private func performDownload(
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
        // Whether the partial file stays after a failure with `code`: see the list above.
        func keepsPartial(after code: SwitchyardError.Code) -> Bool {
            download.resume && [.transport, .timeout, .cancelled].contains(code) && files.resumableOffset(for: resource) > 0
        }
        // One deadline for the whole download: each attempt gets what is left of it.
        let deadline = downloadDeadline(spec, options: options)
        let namesCoding =
            spec.headerFields[.acceptEncoding] != nil || spec.options.headerFields[.acceptEncoding] != nil
            || options?.headerFields[.acceptEncoding] != nil
        var resumes = 0
        var restarted = false
        var reused: Int64?  // bytes from an earlier call's partial file still in use
        while true {
            if let deadline, ContinuousClock.now >= deadline.instant {
                throw deadlinePassed(deadline.limit, files: files, keep: keepsPartial(after: .timeout), after: nil)
            }
            let offset = download.resume ? files.resumableOffset(for: resource) : 0
            if offset == 0 { files.discard() }
            reused = reused ?? offset
            var callOptions = options ?? CallOptions()
            callOptions.sameRequest = .allow  // two downloads never share one file
            if let deadline { callOptions.deadline = deadline.instant - ContinuousClock.now }
            var fields = HTTPFields()
            if !namesCoding { fields[.acceptEncoding] = ContentCoding.identity }
            if offset > 0, let record = files.record {
                fields[.range] = "bytes=\(offset)-"
                fields[.ifRange] = record.validator
            }
            if !fields.isEmpty { callOptions.headerFields = callOptions.headerFields.replacing(with: fields) }
            let target = DownloadTarget(fileURL: files.partial, resumeOffset: offset, recordURL: files.recordFile, resource: resource)
            callOptions.setContextValue(target, for: DownloadTarget.Key.self)
            callOptions.acceptableStatusCodes = callOptions.acceptableStatusCodes ?? 200...299
            let exchange: Exchange
            do {
                exchange = try await perform(spec, options: callOptions, requestID: requestID ?? .next())
            } catch {
                if files.record?.start == 0 { reused = 0 }  // the server sent the whole resource again
                // Past the deadline nothing restarts: the partial file waits for a later call.
                if let deadline, deadline.instant - ContinuousClock.now < .milliseconds(5) {
                    throw deadlinePassed(deadline.limit, files: files, keep: keepsPartial(after: .timeout), after: error)
                }
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
                if !keepsPartial(after: error.code) { files.discard() }
                throw error
            }
            var file: DownloadedFile
            do throws(SwitchyardError) {
                file = try files.settle(exchange.response, offset: offset)
                if let checksum = download.checksum {
                    let digest = try checksum.digest(ofFileAt: files.partial)
                    guard digest == checksum.expected else {
                        throw SwitchyardError(
                            code: .integrity,
                            message: "the downloaded file's \(checksum.algorithm) is \(DownloadChecksum.hex(digest)), "
                                + "not the expected \(DownloadChecksum.hex(checksum.expected)); the file was discarded"
                        )
                    }
                    file.checksum = DownloadChecksum.hex(digest)
                }
                try files.publish()
            } catch {
                if !keepsPartial(after: error.code) { files.discard() }
                throw error.filling(from: exchange.context)
            }
            if file.resumedFrom == 0 { reused = 0 }
            file.url = destination
            file.resumedFrom = reused ?? 0
            file.resumes = resumes
            return exchange.result(file)
        }
    }

    /// When the whole download must end: the call's deadline (the endpoint's, the call's or the
    /// service's), counted from now.
    private func downloadDeadline(_ spec: CallSpec, options: CallOptions?) -> (instant: ContinuousClock.Instant, limit: Duration)? {
        let start = ContinuousClock.now
        let merged = options.map { spec.options.applying($0) } ?? spec.options
        guard let limit = merged.deadline ?? (try? registry.resolve(spec.service))?.entry.service.defaults.deadline else { return nil }
        return (start + limit, limit)
    }

    /// The error that ends a download whose deadline passed; the partial file and its record stay
    /// for a later call unless resuming is off.
    private func deadlinePassed(_ limit: Duration, files: DownloadFiles, keep: Bool, after error: SwitchyardError?) -> SwitchyardError {
        let kept = files.partialSize
        if !keep { files.discard() }
        if var error, error.code == .timeout {
            error.message += keep && kept > 0 ? "; \(kept) bytes are kept for a later call to resume" : ""
            return error
        }
        return SwitchyardError(
            code: .timeout,
            message: "the download's deadline of \(limit) passed"
                + (keep && kept > 0 ? "; \(kept) bytes are kept for a later call to resume" : ""),
            underlyingError: error
        )
    }
}
