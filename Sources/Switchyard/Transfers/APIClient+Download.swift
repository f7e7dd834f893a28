import Foundation
import HTTPTypes

extension APIClient {
    /// Sends an endpoint whose output is a ``DownloadedFile``: one reformed by a ``DownloadReformer``
    /// through the download loop, any other (another reformer's, say) as an ordinary call; then the
    /// reformer reads the file, with the call's id in its context. Out of line from `send`, so an
    /// ordinary call's frame is not made larger by it.
    @inline(never)
    func sendDownload<E: Endpoint>(
        _ endpoint: E,
        options: CallOptions?,
        requestID: RequestID
    ) async throws(SwitchyardError) -> CallResult<E.Output> {
        guard let download = (endpoint as? any DownloadDescribing)?.download else {
            // A reformer whose output is a file, or any other endpoint: an ordinary call.
            return try await send(endpoint, options: options, requestID: requestID)
        }
        let exchange = try await performDownload(CallSpec(endpoint), download, options: options, requestID: requestID)
        return try Self.result(of: endpoint, exchange, reformed: true)
    }

    /// Sends a download's call (see ``DownloadReformer``): resume what is on disk, send, resume after
    /// interruptions, verify, rename. Every attempt goes under `requestID`. The exchange's body is
    /// the published file.
    func performDownload(
        _ spec: CallSpec,
        _ reformer: DownloadReformer,
        options: CallOptions?,
        requestID: RequestID
    ) async throws(SwitchyardError) -> Exchange {
        let destination = reformer.destination
        let download = reformer.options
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
                exchange = try await perform(spec, options: callOptions, requestID: requestID)
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
            var published = exchange
            published.response.body = .file(file)
            return published
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
