/// A value's fields behind one reference, copied when changed while shared: how ``CallContext``,
/// `CallOptions` and `CachedResponse` stay values that a call copies with one retain.
///
/// The fields are a checked `Sendable` struct; only the box that holds them is unchecked. A box is
/// written only through ``value``'s `_modify`, which first makes sure no other copy holds it, so two
/// copies never see each other's changes and no two tasks ever write one box.
///
/// Public only to the features' module (SPI `SwitchyardKernel`), and inlinable: the features' values
/// (`CallOptions`, `CachedResponse`) live in another module, where an unspecialized box copies and
/// destroys their fields through value witnesses on every access — and the compiler neither inlines
/// nor specializes a package-level declaration across modules.
@_spi(SwitchyardKernel)
public struct CopyOnWrite<Fields: Sendable>: Sendable {
    /// The one reference every copy shares until a change.
    @usableFromInline
    final class Box: @unchecked Sendable {
        // Unchecked: written only while exactly one `CopyOnWrite` holds it (see `value`), and exclusive
        // by that rule, so the runtime's access tracking is switched off for it.
        @usableFromInline @exclusivity(unchecked) var fields: Fields

        @inlinable
        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    @usableFromInline var box: Box

    /// Boxes `fields`.
    @inlinable
    public init(_ fields: Fields) {
        box = Box(fields)
    }

    /// The fields: read in place, and copied into a box of their own before a change when another
    /// copy shares the box.
    @inlinable
    public var value: Fields {
        _read { yield box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    /// Whether both share one box (so their fields are equal without comparing them).
    @inlinable
    public func isShared(with other: CopyOnWrite) -> Bool { box === other.box }
}

extension CopyOnWrite: Equatable where Fields: Equatable {
    /// Whether both hold equal fields; one shared box answers without comparing them.
    @inlinable
    public static func == (lhs: CopyOnWrite, rhs: CopyOnWrite) -> Bool {
        lhs.isShared(with: rhs) || lhs.value == rhs.value
    }
}
