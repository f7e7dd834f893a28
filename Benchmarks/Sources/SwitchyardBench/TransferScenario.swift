import ArgumentParser
import BenchSampleBackend
import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardMultipart

/// `transfer`: the peak resident memory of a large upload and a large download, each in its own
/// process (so one peak never hides another), for every size asked for and two ways of moving the
/// bytes: `streamed` (a multipart body streamed from the file; a download written to a file) and the
/// `in-memory` baseline (the same multipart body built in memory; the download collected as `Data`).
///
/// Each child process starts the sample backend in process, reads its own peak resident set
/// (`VmHWM`) after warming up and again after the transfer, and prints one line; the parent prints
/// them all. Memory that does not grow with the size is what streaming is for.
struct TransferScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "transfer", abstract: "Peak memory of large uploads and downloads.")

    @Option(help: "Sizes in MB (10^6 bytes), comma-separated.") var sizes = "20,200"
    @Option(help: "Modes, comma-separated: streamed, in-memory.") var modes = "streamed,in-memory"
    @Option(help: "Run one transfer in this process: upload or download (used by the parent).") var child: String?
    @Option(help: "The size for --child, in MB.") var megabytes = 20
    @Option(help: "The mode for --child.") var mode = "streamed"

    func run() async throws {
        if let child {
            try await runChild(child, size: Int64(megabytes) * 1_000_000, streamed: mode == "streamed")
            return
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0])
        print("transfer        mode       size     baseline-rss  peak-rss   growth    MB/s")
        for size in sizes.split(separator: ",").compactMap({ Int($0) }) {
            for mode in modes.split(separator: ",") {
                for kind in ["upload", "download"] {
                    let process = Process()
                    process.executableURL = executable
                    process.arguments = ["transfer", "--child", kind, "--megabytes", "\(size)", "--mode", String(mode)]
                    let output = Pipe()
                    process.standardOutput = output
                    try process.run()
                    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    guard process.terminationStatus == 0 else { throw ValidationError("the \(kind) child failed: \(text)") }
                    print(text.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
        }
    }

    private func runChild(_ kind: String, size: Int64, streamed: Bool) async throws {
        let backend = try await SampleBackend.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-bench-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let service: ServiceID = "files"
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        let transport = AsyncHTTPClientTransport(configuration: .init(maximumResponseBodySize: 1 << 31))
        try registry.register(Service(service, baseURL: backend.baseURL, transport: transport))
        let client = APIClient(registry: registry)
        let options = CallOptions(timeout: .seconds(600))

        // The upload's source file, written in 1 MB pieces; a warm-up call on the same client.
        let file = directory.appendingPathComponent("upload.bin")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw ValidationError("cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        var written: Int64 = 0
        while written < size {
            let end = min(size, written + 1_000_000)
            try handle.write(contentsOf: SampleBlob.bytes(written..<end))
            written = end
        }
        try handle.close()
        _ = try await client.send(service, .get, "/files/blob/1000000", options: options)
        let baseline = Self.peakResidentKiB()

        let start = ContinuousClock.now
        switch kind {
        case "upload":
            var form = MultipartBody()
            form.append(field: "title", "benchmark")
            try form.append(fileAt: file, field: "file")
            let body = streamed ? try form.streamedRequestBody() : try form.requestBody()
            let result = try await client.send(service, .post, "/files/upload", body: body, options: options)
            guard result.status == .ok else { throw ValidationError("upload answered \(result.status.code)") }
        default:
            if streamed {
                let result = try await client.send(
                    DynamicEndpoint<Response>(service: service, method: .get, path: "/files/blob/\(size)").downloading(
                        to: directory.appendingPathComponent("download.bin")
                    ),
                    options: options
                )
                guard result.value.byteCount == size else { throw ValidationError("downloaded \(result.value.byteCount) bytes") }
            } else {
                let result = try await client.send(service, .get, "/files/blob/\(size)", options: options)
                guard Int64(result.value.body.count) == size else { throw ValidationError("downloaded \(result.value.body.count) bytes") }
            }
        }
        let seconds = Statistics.seconds(ContinuousClock.now - start)
        let peak = Self.peakResidentKiB()
        try await backend.shutdown()
        let line = [
            kind.padding(toLength: 15, withPad: " ", startingAt: 0),
            (streamed ? "streamed" : "in-memory").padding(toLength: 10, withPad: " ", startingAt: 0),
            "\(size / 1_000_000) MB".padding(toLength: 8, withPad: " ", startingAt: 0),
            Self.mib(baseline).padding(toLength: 13, withPad: " ", startingAt: 0),
            Self.mib(peak).padding(toLength: 10, withPad: " ", startingAt: 0),
            Self.mib(peak - baseline).padding(toLength: 9, withPad: " ", startingAt: 0),
            Statistics.format(Double(size) / 1e6 / seconds),
        ]
        print(line.joined(separator: " "))
    }

    /// The process's peak resident set (`VmHWM` in /proc/self/status), in KiB; 0 where there is none.
    static func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    static func mib(_ kib: Int) -> String {
        Statistics.format(Double(kib) / 1024) + " MiB"
    }
}
