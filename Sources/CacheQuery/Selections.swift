/// A selection set being read, and whether it is the document's own array
/// (alive for the whole read, so its storage can key a cache) or one merged
/// from several fields of the same name.
struct Selections {
    let list: [Selection]
    /// The address of the document's array; nil for a merged one.
    let identity: UnsafeRawPointer?

    init(document list: [Selection]) {
        self.init(list: list, identity: list.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) })
    }

    private init(list: [Selection], identity: UnsafeRawPointer?) {
        self.list = list
        self.identity = identity
    }

    /// The subselections of a field, merged when it is selected more than once.
    init(_ fields: [FieldSelection]) {
        if fields.count == 1, let only = fields[0].selections {
            self.init(document: only)
        } else {
            self.init(list: fields.flatMap { $0.selections ?? [] }, identity: nil)
        }
    }
}
