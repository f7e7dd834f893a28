import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import SwitchyardCore

extension AsyncHTTPClientTransport {
    /// Whether a call's answer is streamed through a ``StreamingDelegate``: a streamed call (one with
    /// a ``Switchyard/CallContext/streamBufferLimit``) that downloads nothing, sends no streamed body,
    /// reports no upload and goes over no pinned connection.
    func streamsThroughDelegate(_ request: Request, context: CallContext) -> Bool {
        context.streamBufferLimit != nil && request.method != .head && tunnels == nil && context.downloadTarget == nil
            && request.body?.stream == nil && (request.body == nil || context.transferObserver == nil)
    }

    /// A streamed answer: returns once the head has arrived, its body following as a
    /// ``Switchyard/ResponseStream`` that a ``StreamingDelegate`` fills on the connection's event loop.
    /// The attempt's timeout bounds the wait for the head; the body is read as the consumer asks.
    func sendStreamedAnswer(_ request: Request, context: CallContext) async throws -> Response {
        let observer = context.transferObserver
        let timeout = context.effectiveTimeout ?? configuration.fallbackTimeout
        let started = CallClock.now
        do {
            var delegateRequest = try Self.makeDelegateRequest(request)
            if let acceptEncoding = ContentCoding.acceptEncoding(for: request, context: context, decodes: decodes) {
                delegateRequest.headers.replaceOrAdd(name: "Accept-Encoding", value: acceptEncoding)
            }
            let clientRequest = delegateRequest
            // One event loop for the delegate and the connection: a part's completed future lets the
            // client ask for more in the same turn, before a broken connection is torn down.
            let eventLoop = client.eventLoopGroup.next()
            let headPromise = eventLoop.makePromise(of: HTTPResponseHead.self)
            let (client, logger) = (self.client, context.logger)
            let deadline: NIODeadline? = timeout.map { .now() + TimeAmount($0) }
            observer?.started()
            let stream = ResponseStream(
                control: context.control,
                bufferLimit: context.streamBufferLimit ?? ResponseStream.defaultBufferLimit,
                translate: Self.midStreamTranslator(for: request, started: started)
            ) { writer in
                let delegate = StreamingDelegate(writer: writer, head: headPromise, observer: observer)
                let task = client.execute(
                    request: clientRequest,
                    delegate: delegate,
                    eventLoop: .delegateAndChannel(on: eventLoop),
                    logger: logger
                )
                if let deadline {
                    let timer = eventLoop.scheduleTask(deadline: deadline) { task.fail(reason: HTTPClientError.deadlineExceeded) }
                    headPromise.futureResult.whenComplete { _ in timer.cancel() }
                }
                do {
                    try await withTaskCancellationHandler {
                        try await task.futureResult.get()
                    } onCancel: {
                        task.cancel()
                    }
                } catch {
                    headPromise.fail(error)
                    throw error
                }
            }
            let responseHead = try await withTaskCancellationHandler {
                try await headPromise.futureResult.get()
            } onCancel: {
                stream.cancel()
            }
            var head = Self.makeHead(status: responseHead.status, headers: responseHead.headers)
            do {
                try Self.checkCoding(head, request: request, decodes: decodes)
            } catch {
                stream.cancel()
                throw error
            }
            let coding = ContentCoding.coding(of: head.headerFields)
            if decodes && ContentCoding.hasContent(head, method: request.method) && coding.map(Self.decodedCodings.contains) == true {
                // Decoded as it arrives: neither the coding nor the coded length describes it now.
                head.headerFields[.contentEncoding] = nil
                head.headerFields[.contentLength] = nil
            }
            return Response(head: head, body: .stream(stream))
        } catch {
            throw Self.translate(error, request: request, timeout: timeout, elapsed: CallClock.now - started)
        }
    }
}
