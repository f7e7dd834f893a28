import HTTPTypes
import SwitchyardCore

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

extension URLSessionTransport {
    /// The `User-Agent` value that keeps URLSession from adding its own to a request without one:
    /// blank, which libcurl leaves out of the request (FoundationNetworking); empty on Apple platforms.
    #if canImport(FoundationNetworking)
    static let noUserAgent = " "
    #else
    static let noUserAgent = ""
    #endif

    /// Whether URLSession decodes a body in `coding` (a `Content-Encoding` value, lower-cased): every
    /// coding it lists, in order, is one of ``decodedCodings``.
    static func decodes(_ coding: String) -> Bool {
        coding.split(separator: ",").allSatisfy { decodedCodings.contains($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The error for a body in a content coding URLSession cannot decode: refused rather than handed
    /// to the stages encoded. It carries the response's head, without the body.
    static func undecodable(_ coding: String, head: HTTPResponse, target: String) -> SwitchyardError {
        SwitchyardError(
            code: .invalidResponse,
            message: "the response to \(target) is in the \(coding) content coding, which the URLSession transport cannot decode "
                + "(it decodes \(decodedCodings.sorted().joined(separator: ", "))); the body was refused rather than handed over encoded",
            response: Response(head: head)
        )
    }

    /// The error for a task that failed because its body could not be decoded (a coding libcurl does not
    /// know, such as `compress`, or bytes that are not what their coding says), or `nil` when it failed
    /// for another reason. FoundationNetworking reports libcurl's refusal with no code of its own and
    /// no response, only libcurl's text ("Unrecognized content encoding type…", "Error while processing
    /// content unencoding…"); Apple platforms report `cannotDecodeContentData`.
    static func undecodable(_ error: any Error, ending: Ending) -> SwitchyardError? {
        let code = (error as? URLError)?.code
        let text = (error as NSError).localizedDescription
        let lowered = text.lowercased()
        guard
            code == .cannotDecodeContentData || code == .cannotDecodeRawData
                || (code == .unknown && lowered.contains("content") && lowered.contains("encoding"))
        else { return nil }
        return SwitchyardError(
            code: .invalidResponse,
            message: "the response to \(ending.target) is in a content coding the URLSession transport cannot decode (\(text)); "
                + "the body was refused rather than handed over encoded",
            underlyingError: error
        )
    }

    /// What a task produced: bytes in memory, or a downloaded file (moved out of URLSession's reach).
    enum Payload: Sendable {
        case memory(Data)
        case file(URL)
        /// A download already written through its sink (``StreamingDownload``).
        case sunk(DownloadedFile)
        /// A streamed answer's body, still arriving through its bridge.
        case stream(StreamBridge)
    }

    /// The response head of `http`: its status (with the standard reason phrase) and header fields.
    static func head(of http: HTTPURLResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in http.allHeaderFields {
            guard let text = name as? String, let name = HTTPField.Name(text), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let status = StandardStatus.known(http.statusCode) ?? HTTPResponse.Status(code: http.statusCode)
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// What the completion handler needs to tell how a task ended.
    struct Ending: Sendable {
        /// The call's task and why the transport stopped it.
        let box: TaskBox
        /// The request, for error messages.
        let target: String
        /// The attempt's time limit.
        let timeout: Duration?
        /// When the attempt started.
        let started: ContinuousClock.Instant
    }

    /// Resumes the call with what a task ended with: its payload and response, a `401` whose
    /// authentication challenge was declined, the refusal of a body in a coding it cannot decode, or a
    /// translated error.
    static func resume(
        _ continuation: CheckedContinuation<(Payload, URLResponse), any Error>,
        payload: Payload,
        response: URLResponse?,
        error: (any Error)?,
        ending: Ending
    ) {
        if let error {
            if case .file(let file) = payload { try? FileManager.default.removeItem(at: file) }
            let stop = ending.box.stop
            if stop == nil, (error as? URLError)?.code == .cancelled, let declined = ending.box.response as? HTTPURLResponse,
                declined.statusCode == 401
            {
                // The delegate cancelled an authentication challenge: the 401 is the answer (its body
                // did not survive the cancellation).
                continuation.resume(returning: (.memory(Data()), declined))
                return
            }
            if stop == .expired {
                let elapsed = ContinuousClock.now - ending.started
                continuation.resume(
                    throwing: SwitchyardError.timedOut(
                        target: ending.target,
                        limit: ending.timeout,
                        elapsed: elapsed,
                        underlyingError: error
                    )
                )
                return
            }
            if stop == nil, let refused = undecodable(error, ending: ending) {
                continuation.resume(throwing: refused)
                return
            }
            continuation.resume(throwing: translate(error, ending: ending))
        } else if let response {
            continuation.resume(returning: (payload, response))
        } else {
            continuation.resume(throwing: SwitchyardError(code: .transport, message: "\(ending.target) ended without a response"))
        }
    }

    /// Moves URLSession's temporary download file somewhere it will not be removed from under us.
    /// URLSession's file is made private to the user (0600) before it is moved, so the copy that
    /// waits to be fed to the sink is never readable by others.
    static func keep(_ location: URL) -> URL? {
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-download-\(UUID().uuidString)")
        guard (try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: location.path)) != nil else {
            try? FileManager.default.removeItem(at: location)
            return nil
        }
        return (try? FileManager.default.moveItem(at: location, to: kept)) == nil ? nil : kept
    }

    /// Feeds a downloaded file to the sink in 1 MiB pieces.
    static func copy(_ file: URL, into sink: DownloadSink) throws(SwitchyardError) -> DownloadedFile {
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try sink.write(chunk)
            }
        } catch let error as SwitchyardError {
            throw error
        } catch {
            throw SwitchyardError(
                code: .storage,
                message: "cannot read the downloaded file: \(error.localizedDescription)",
                underlyingError: error
            )
        }
        return try sink.finish()
    }

    static func translate(_ error: any Error, ending: Ending) -> SwitchyardError {
        let target = ending.target
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut:
                return SwitchyardError.timedOut(
                    target: target,
                    limit: ending.timeout,
                    elapsed: ContinuousClock.now - ending.started,
                    underlyingError: error
                )
            case .cancelled:
                return SwitchyardError(
                    code: .cancelled,
                    message: "the call was cancelled while \(target) was in flight",
                    underlyingError: error
                )
            case .cannotConnectToHost:
                return SwitchyardError(
                    code: .transport,
                    message: "could not connect for \(target): connection refused",
                    underlyingError: error
                )
            default:
                break
            }
        }
        return SwitchyardError(code: .transport, message: "\(target) failed: \(error.localizedDescription)", underlyingError: error)
    }
}
