import HTTPTypes
import SwitchyardCore

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

extension URLSessionTransport {
    /// A streamed call's answer at its head: the body follows as a ``Switchyard/ResponseStream`` fed
    /// from `bridge`. Ending the stream early (the call cancelled, the consumer gone) cancels the task,
    /// which closes its connection.
    func streamed(
        _ bridge: StreamBridge,
        head urlResponse: URLResponse,
        request: Request,
        context: CallContext,
        bufferLimit: Int,
        ending: Ending
    ) throws -> Response {
        let box = ending.box
        guard let http = urlResponse as? HTTPURLResponse else {
            box.stop(.cancelled)
            throw SwitchyardError(code: .transport, message: "\(ending.target) was not answered over HTTP")
        }
        var head = Self.head(of: http)
        let coding = ContentCoding.coding(of: head.headerFields)
        let hasContent = ContentCoding.hasContent(head, method: request.method)
        if let coding, hasContent {
            guard Self.decodes(coding) else {
                box.stop(.cancelled)
                throw Self.undecodable(coding, head: head, target: ending.target)
            }
            // Decoded as it arrives: neither the coding nor the coded length describes it now.
            head.headerFields[.contentEncoding] = nil
            head.headerFields[.contentLength] = nil
        }
        // The head's deadline ended with the head; the body is read as the consumer asks.
        let stream = ResponseStream(
            control: context.control,
            bufferLimit: bufferLimit,
            translate: { error in
                if let error = error as? SwitchyardError { return error }
                return Self.translate(error, ending: Ending(box: box, target: ending.target, timeout: nil, started: ending.started))
            }
        ) { writer in
            try await withTaskCancellationHandler {
                while let chunk = try await bridge.next() { try await writer.write(chunk) }
            } onCancel: {
                bridge.finish(.failure(CancellationError()))
                box.stop(.cancelled)
            }
        }
        return Response(head: head, body: .stream(stream))
    }
}
