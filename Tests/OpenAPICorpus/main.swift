// The corpus check's program (Scripts/check-openapi-corpus.sh copies it beside the generated Swift of every
// corpus document, all in one target). Without PETSTORE_URL and RESEND_URL it only says that the target
// compiled; with them it calls connexion — serving petstore-expanded.yaml and the published Resend
// document with strict validation — through the generated endpoints, and checks that each request was
// accepted and each answer decoded: paths, query arrays in their styles, JSON bodies, 204, documented
// error bodies, and a value the generated enumeration does not know.
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient

let environment = ProcessInfo.processInfo.environment
guard let petstoreURL = environment["PETSTORE_URL"], let resendURL = environment["RESEND_URL"] else {
    print("the corpus documents' Swift compiled in one target: \(PetstoreAPI.self), \(PetstoreExpandedAPI.self), \(ResendAPI.self), …")
    exit(0)
}

var passed = 0
var failed: [String] = []

/// Runs one call; a thrown error or a false check is a failure with its description.
@MainActor func check(_ name: String, _ body: () async throws -> String?) async {
    do {
        if let problem = try await body() {
            failed.append("\(name): \(problem)")
            print("FAIL \(name): \(problem)")
        } else {
            passed += 1
            print("ok   \(name)")
        }
    } catch {
        failed.append("\(name): \(error)")
        print("FAIL \(name): \(error)")
    }
}

/// Asks connexion's mock for the documented 404 of `GET /pets/404` (`Prefer: code=404`).
let prefer = ClosureStage.request(id: "Prefer") { request, _ in
    if request.head.path?.hasSuffix("/pets/404") == true { request.headerFields[HTTPField.Name("Prefer")!] = "code=404" }
}

try await AsyncHTTPClientTransport.withTransport { transport in
    let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
    try PetstoreExpandedAPI.registerPetstoreExpanded(
        in: registry,
        transport: transport,
        outerStages: [prefer],
        baseURLs: [.develop: petstoreURL]
    )
    // Resend's document requires a bearer token; the served copy accepts this one.
    let token = ClosureStage.request(id: "Token") { request, _ in request.headerFields[.authorization] = "Bearer re_corpus_check"
    }
    try ResendAPI.registerResend(in: registry, transport: transport, outerStages: [token], baseURLs: [.develop: resendURL])
    let client = APIClient(registry: registry)
    typealias Pets = PetstoreExpandedAPI

    await check("petstore: GET /pets, tags form-exploded, status pipe-delimited; an enum value newer than the client") {
        let pets = try await client.send(Pets.FindPets(tags: ["dog", "cat"], limit: 2, status: [.available, .pending])).value
        guard pets.count == 2, pets[0].name == "Rex", pets[0].status == .available else { return "decoded \(pets)" }
        return pets[1].status == .unknown("adopted") ? nil : "the unknown status decoded as \(String(describing: pets[1].status))"
    }
    await check("petstore: POST /pets with a JSON body (allOf NewPet + id answered)") {
        let pet = try await client.send(Pets.AddPet(payload: Pets.NewPet(name: "Kitty", tag: nil, status: .pending))).value
        return pet.id == 3 && pet.name == "Kitty" && pet.status == .pending ? nil : "decoded \(pet)"
    }
    await check("petstore: GET /pets/{id} with an int64 path parameter") {
        let pet = try await client.send(Pets.FindPetById(id: 7)).value
        return pet.id == 7 && pet.tag == "dog" ? nil : "decoded \(pet)"
    }
    await check("petstore: the documented 404 error body decodes") {
        do {
            let pet = try await client.send(Pets.FindPetById(id: 404)).value
            return "answered \(pet)"
        } catch {
            guard case .notFound(let body)? = Pets.FindPetById.errorBody(of: error) else { return "error body not decoded: \(error)" }
            return body.code == 404 && body.message == "no pet 404" ? nil : "decoded \(body)"
        }
    }
    await check("petstore: DELETE /pets/{id} answers 204") {
        _ = try await client.send(Pets.DeletePet(id: 7)).value
        return nil
    }
    await check("petstore: the validator refuses a status the document does not list (it does check)") {
        do {
            _ = try await client.send(Pets.FindPets(status: [.unknown("lost")])).value
            return "accepted"
        } catch {
            return (error as? SwitchyardError)?.response?.status.code == 400 ? nil : "failed otherwise: \(error)"
        }
    }
    await resendCalls(client)
}

/// Calls of the Resend document as published (its own examples answer them).
@MainActor func resendCalls(_ client: APIClient) async {
    typealias Resend = ResendAPI
    let domain = "d91cd9bd-1176-453e-8fc1-35364d380206"
    await check("resend: POST /emails, a JSON body with a union member, an optional header") {
        let email = Resend.SendEmailRequest(
            from: "Acme <onboarding@resend.dev>",
            to: .array(["delivered@resend.dev"]),
            subject: "hello world",
            html: "<p>it works!</p>",
            headers: ["X-Entity-Ref-ID": .string("123")],
            tags: [Resend.Tag(name: "category", value: "confirm")]
        )
        let sent = try await client.send(Resend.EmailsSend(idempotencyKey: "welcome-1", payload: email)).value
        return sent.id?.isEmpty == false ? nil : "decoded \(sent)"
    }
    await check("resend: GET /emails with a limit in the query") {
        let list = try await client.send(Resend.EmailsList(limit: 10)).value
        return list.object == "list" ? nil : "decoded \(list)"
    }
    await check("resend: GET /domains/{domain_id}") {
        let found = try await client.send(Resend.DomainsGet(domainId: domain)).value
        return found.id != nil ? nil : "decoded \(found)"
    }
    await check("resend: DELETE /domains/{domain_id}") {
        let removed = try await client.send(Resend.DomainsRemove(domainId: domain)).value
        return removed.deleted == true ? nil : "decoded \(removed)"
    }
    await check("resend: GET /contacts/imports, a string enumeration and pagination in the query") {
        let imports = try await client.send(Resend.ContactsListImports(status: .inProgress, limit: 5, after: "cursor-1")).value
        return imports.object == "list" ? nil : "decoded \(imports)"
    }
    await check("resend: GET /broadcasts/{id}/recipients, a required enumeration in the query") {
        let request = Resend.BroadcastsRecipients(id: domain, type: .bounced, bounceType: .permanent, limit: 2)
        let recipients = try await client.send(request).value
        return recipients.object == "list" ? nil : "decoded \(recipients)"
    }
}

print("connexion: \(passed) passed, \(failed.count) failed")
if !failed.isEmpty { exit(1) }
