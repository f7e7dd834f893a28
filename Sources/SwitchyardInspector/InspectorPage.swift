import Foundation
import Switchyard
import SwitchyardHAR

/// The page's files — HTML, CSS and JavaScript, no build step — read once from the target's resources.
struct InspectorPage: Sendable {
    let html: Data
    let script: Data
    let style: Data

    static func load() throws(SwitchyardError) -> InspectorPage {
        func file(_ name: String) throws(SwitchyardError) -> Data {
            guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Page"),
                let data = try? Data(contentsOf: url)
            else {
                throw SwitchyardError(code: .storage, message: "the inspector's page file \(name) is missing from its resources")
            }
            return data
        }
        return InspectorPage(html: try file("index.html"), script: try file("inspector.js"), style: try file("inspector.css"))
    }
}
