import CacheStore

extension ExistingObjects {
    /// What an element of a list now is, of the list read: the element
    /// read at `read`, a new object, or one of several read that nothing
    /// tells apart.
    enum ElementMatch: Equatable {
        case read(Int)
        case new
        case ambiguous(candidates: [CacheKey])
    }

    /// Which element read each element of the list now is (`now`, in
    /// order; nil for one that is no object), for the list read at `path`,
    /// worked out for the whole list at once so that no record is taken
    /// twice where it was read once: an `id` says which; else one unchanged
    /// is the one read like it, those alike paired in the order they were
    /// read (with `elementsStayInPlace`, only the one read at its place);
    /// else a changed one is the one read at its place, when no other took
    /// it. A changed one whose place another took is new when
    /// every record read is taken, and else could be any of those left.
    func matchElements(ofListAt path: String, now: [FieldValue?]) -> [ElementMatch] {
        let read = (0..<(listValues[path]?.count ?? 0)).map { self.object($0, ofListAt: path) }
        var taken = Set<Int>()
        var result = [ElementMatch?](repeating: nil, count: now.count)
        func object(_ value: FieldValue?) -> [String: FieldValue]? {
            if case .object(let members)? = value { return members }
            return nil
        }
        for (index, value) in now.enumerated() {
            guard let members = object(value) else {
                result[index] = .new
                continue
            }
            guard let signature = Self.signature(members["__typename"], members["id"]) else { continue }
            if let at = read.indices.first(where: { read[$0]?.signature == signature && !taken.contains($0) }) {
                taken.insert(at)
                result[index] = .read(at)
            } else {
                result[index] = .new
            }
        }
        if elementsStayInPlace {
            for index in now.indices where result[index] == nil && index < read.count {
                if let was = read[index], now[index] == was.data {
                    taken.insert(index)
                    result[index] = .read(index)
                }
            }
        } else {
            // Unchanged ones, where they are or moved: those alike in all the
            // selection holds are paired in the order they were read, so that
            // one put before them does not reorder their records.
            var alike: [FieldValue: [Int]] = [:]
            for (at, was) in read.enumerated() where !taken.contains(at) {
                if let was { alike[was.data, default: []].append(at) }
            }
            var paired: [FieldValue: Int] = [:]
            for index in now.indices where result[index] == nil {
                guard let value = now[index], let group = alike[value], paired[value, default: 0] < group.count else { continue }
                let at = group[paired[value, default: 0]]
                paired[value, default: 0] += 1
                taken.insert(at)
                result[index] = .read(at)
            }
        }
        for index in now.indices where result[index] == nil && index < read.count && read[index] != nil && !taken.contains(index) {
            // Changed where it was read: its signature, if any, names no other.
            let members = object(now[index]) ?? [:]
            let signature = Self.signature(members["__typename"], members["id"])
            if signature == nil || read[index]?.signature == nil || read[index]?.signature == signature {
                taken.insert(index)
                result[index] = .read(index)
            }
        }
        let left = read.indices.filter { read[$0] != nil && !taken.contains($0) }.map { read[$0]!.key }
        return result.map { $0 ?? (left.isEmpty ? .new : .ambiguous(candidates: left)) }
    }

    /// The identity-keyed record for an object now at `path` that is no
    /// list's element: the one read there, unless its `id` says it is
    /// another object (then the one with that `__typename` and `id`). Nil:
    /// the object is keyed by its path.
    func match(at path: String, object: [String: FieldValue]) -> CacheKey? {
        let signature = Self.signature(object["__typename"], object["id"])
        if let signature, let key = bySignature[signature] { return key }
        guard let old = byPath[path], old.signature == nil || signature == nil || old.signature == signature else { return nil }
        return old.key
    }

    /// The objects read in the list at `path`, grouped by their data: how
    /// many elements hold each, and their records, each once, in the list's order.
    func alikeObjects(inListAt path: String) -> [FieldValue: (elements: Int, keys: [CacheKey])] {
        var groups: [FieldValue: (elements: Int, keys: [CacheKey])] = [:]
        for (_, object) in listElements[path] ?? [] {
            var group = groups[object.data] ?? (0, [])
            group.elements += 1
            if !group.keys.contains(object.key) { group.keys.append(object.key) }
            groups[object.data] = group
        }
        return groups
    }
}
