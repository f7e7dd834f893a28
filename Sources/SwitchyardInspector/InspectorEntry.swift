import Switchyard
import SwitchyardHAR

/// What the page is given of a recorded entry.
enum InspectorEntry {
    /// The entry as the page shows it: without body text — the request's, the response's, and the
    /// transport step's in its trace — unless the app opted in to bodies, whatever the stage that
    /// recorded it or the service's trace detail (`.bodies`) was told.
    static func shown(_ entry: HAR.Entry, includeBodies: Bool) -> HAR.Entry {
        guard !includeBodies else { return entry }
        var entry = entry
        if entry.request.postData != nil {
            entry.request.postData?.text = nil
            entry.request.postData?.encoding = nil
        }
        entry.response.content.text = nil
        entry.response.content.encoding = nil
        entry.stages = entry.stages?.map { step in
            var step = step
            step.sent?.bodyText = nil
            step.received?.bodyText = nil
            return step
        }
        return entry
    }

    /// The name of one recorded attempt, unique within a session: request id, attempt, start time.
    static func key(of entry: HAR.Entry) -> String {
        "\(entry.requestID)/\(entry.attempt)/\(entry.startedDateTime)"
    }
}
