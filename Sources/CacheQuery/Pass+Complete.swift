import CacheStore

extension Pass {
    mutating func complete(_ value: FieldValue, selections: [Selection], pathKey: String, path: [PathComponent], type: OutputType?) throws -> FieldValue {
        switch value {
        case .null:
            if case .nonNull? = type { throw NormalizationError(path: path, message: "null in a non-null field of type \(type!)") }
            return .null
        case .list(let elements):
            let elementType: OutputType?
            switch type?.nullable {
            case .list(let inner)?: elementType = inner
            case nil: elementType = nil
            default: throw NormalizationError(path: path, message: "expected \(type!), found a list")
            }
            let listText = path.map(\.description).joined(separator: ".")
            newLists[listText] = elements
            // A list in a list of lists that moved (`search` reversed) takes
            // its elements with it: they are compared with those read there.
            if case .index(let index)? = path.last {
                let outer = readPath(path.dropLast())
                let now = normalizedElements(ofListAt: path, selections: selections, type: type)
                if existing.listValues[outer + "." + String(index)] != now {
                    // The inner list read that holds most of its elements (as they
                    // were, or by id; then most at the same places), unless the one
                    // read at its place holds as many.
                    func shared(_ at: Int) -> (Int, Int) {
                        let read = existing.listValues[outer + "." + String(at)] ?? []
                        let signatures = Set(read.compactMap(ExistingObjects.signature(of:)))
                        let held = now.filter { $0 != .null && (read.contains($0) || ExistingObjects.signature(of: $0).map(signatures.contains) == true) }
                        return (held.count, zip(now, read).filter { $0 != .null && $0 == $1 }.count)
                    }
                    let taken = takenInnerLists[outer] ?? []
                    let here = shared(index)
                    let best = (0..<(existing.count(ofListAt: outer) ?? 0)).filter { $0 != index && !taken.contains($0) }
                        .map { ($0, shared($0)) }.max { $0.1 < $1.1 }
                    if let (at, count) = best, count > here, count.0 > 0 {
                        movedFrom[listText] = outer + "." + String(at)
                        takenInnerLists[outer, default: []].insert(at)
                    }
                }
            }
            var stored: [FieldValue] = []
            for (index, element) in elements.enumerated() {
                stored.append(try complete(
                    element, selections: selections, pathKey: pathKey + "." + String(index), path: path + [.index(index)], type: elementType))
            }
            return .list(stored)
        case .object(let given):
            if case .list? = type?.nullable {
                throw NormalizationError(path: path, message: "expected a list of type \(type!), found an object")
            }
            let object = withAliasedTypename(withKnownTypename(given, path: path), selections: selections, parentType: type?.namedType.name)
            var typename = object.typename
            let staticType = type?.namedType.name
            if typename == nil, let staticType, schema?.isObjectType(staticType) == true { typename = staticType }
            if let typename { typenames.insert(typename) }
            let pathText = path.map(\.description).joined(separator: ".")
            let listPath = path.dropLast().map(\.description).joined(separator: ".")
            // The same, where they were read (``readPath(_:)``), for what the read holds.
            let readPathText = readPath(path)
            let readListPath = readPath(path.dropLast())
            /// The element at `index` of the new list this object is in, as it is compared with those read.
            func newElement(_ index: Int) -> FieldValue? {
                guard case .index? = path.last, newLists[listPath] != nil else { return nil }
                let elements = normalizedElements(ofListAt: path.dropLast(), selections: selections, type: type)
                return elements.indices.contains(index) ? elements[index] : nil
            }
            /// Whether the new list holds the element read at `index`, unchanged, at `index`.
            func unchangedAt(_ index: Int) -> Bool {
                guard let new = newElement(index), let read = existing.element(index, ofListAt: readListPath) else { return false }
                return read == new
            }
            /// Throws for an `id` the selection asks for and the data lacks:
            /// with it, which record this is would be plain.
            func refuseWithoutSelectedID() throws {
                let collected = collector.collect(selections, typename: typename, parentType: staticType, holds: { object[$0] != nil })
                if let (name, _) = collected.fields.first(where: { $0.1.first?.name == "id" }), object[name] == nil,
                    !existing.absent.contains(readPathText + "." + name)
                {
                    throw NormalizationError(path: path + [.field(name)], message: "the data has no '\(name)', which the selection asks for")
                }
            }
            /// The record read that this object is, if any, and whether only
            /// its place says so (changed, and no `id` names it).
            func keptRecord() throws -> (CacheKey, Bool)? {
                guard case .index(let index)? = path.last, let count = newLists[listPath]?.count else {
                    return existing.match(at: readPathText, object: object).map { ($0, false) }
                }
                // An id says which, wherever it was read (in another inner list of a list of lists, too).
                if let signature = ExistingObjects.signature(object["__typename"], object["id"]), let key = existing.bySignature[signature] {
                    return (key, false)
                }
                if elementMatches[listPath] == nil {
                    // Once a list: no record read once is taken twice.
                    elementMatches[listPath] = existing.matchElements(ofListAt: readListPath, now: (0..<count).map(newElement))
                }
                switch elementMatches[listPath]![index] {
                case .new:
                    return nil
                case .read(let at):
                    guard let was = existing.object(at, ofListAt: readListPath) else { return nil }
                    let unnamed = ExistingObjects.signature(object["__typename"], object["id"]) == nil
                    return (was.key, at == index && unnamed && was.data != .object(object))
                case .ambiguous(let candidates):
                    try refuseWithoutSelectedID()
                    let named = candidates.prefix(3).map(\.rawValue).joined(separator: ", ") + (candidates.count > 3 ? ", …" : "")
                    throw NormalizationError(
                        path: path,
                        message: "'\(listPath)' holds elements read at other places in it, and this object, changed and without "
                            + "an id where another now stands, may be any of those read that it no longer holds as they were "
                            + "(\(named)); select id, or give --key-field \(typename ?? "TYPE")=id to key it by its data as the app does")
                }
            }
            // A key policy (the schema's, or --key-field) says the key, as the
            // app's does in Apollo: an object without its key fields goes to
            // its path key, whatever record it was read from. Without one,
            // the records read are kept (``ExistingObjects``).
            let key: CacheKey
            var fieldsToWrite: [(String, [FieldSelection])]?
            if let typename, let keyFields = normalizer.keyPolicy.keyFields(of: typename, schema: schema), !keyFields.isEmpty {
                // Key fields are not added to the selection (spec §3): a
                // value the data has but the selection does not ask for
                // (a hand-written response may hold anything) keys nothing.
                // The fields collected here are the ones written below.
                // Deferred ones included where written, as Apollo keys a model by its data.
                let written = fields(
                    of: object, collected: collector.collect(selections, typename: typename, parentType: staticType, holds: { object[$0] != nil }),
                    typename: typename, parentType: staticType, path: path)
                fieldsToWrite = written
                let selected = Set(written.map(\.0))
                if let identity = normalizer.keyPolicy.key(for: object.filter { selected.contains($0.key) }, typename: typename, schema: schema) {
                    key = identity
                } else {
                    key = CacheKey(pathKey)
                    // Worth a word when the data has the values, or the type's
                    // key fields were named for it (not only by `*`).
                    let inData = normalizer.keyPolicy.key(for: object, typename: typename, schema: schema)
                    if inData != nil || normalizer.keyPolicy.namedKeyFields(of: typename, schema: schema) != nil {
                        let unselected = keyFields.filter { !selected.contains($0) }
                        let unkeying = keyFields.filter { field in
                            switch object[field] {
                            case .string?, .int?, .double?, .number?, .bool?: return false
                            default: return true
                            }
                        }
                        unkeyed.append(UnkeyedObject(
                            path: pathText, typename: typename, keyFields: keyFields, pathKey: key,
                            keyFieldsSelected: unselected.isEmpty, missingKeyFields: unselected.isEmpty ? unkeying : unselected, keyInData: inData))
                    }
                }
            } else if let (kept, byPositionAlone) = try keptRecord() {
                // An element edited in a list that lost or gained elements
                // may be any of those read: position no longer says which
                // (dropping Luke and renaming Han would rename Luke). With
                // every other element at the places both lists have as it
                // was read, only the end changed: it is the one read there.
                if byPositionAlone, case .index(let index)? = path.last, let readCount = existing.count(ofListAt: readListPath),
                    let count = newLists[listPath]?.count, count != readCount,
                    !(0..<min(count, readCount)).allSatisfy({ $0 == index || unchangedAt($0) })
                {
                    try refuseWithoutSelectedID()
                    throw NormalizationError(
                        path: path,
                        message: "'\(listPath)' has \(count) element\(count == 1 ? "" : "s") where \(readCount) "
                            + "\(readCount == 1 ? "was" : "were") read, not only at the end, so this object, changed and "
                            + "without an id, may be any of those read, not only \(kept) read at its place; select id, "
                            + "or give --key-field \(typename ?? "TYPE")=id to key it by its data as the app does")
                }
                // Objects alike in all the selection holds, fewer now than
                // were read, in a list that lost or gained elements: which
                // of them went cannot be told (removing the first of ten
                // `{ __typename }` would drop the last).
                if case .index? = path.last, ExistingObjects.signature(object["__typename"], object["id"]) == nil,
                    let readCount = existing.count(ofListAt: readListPath), let count = newLists[listPath]?.count, count != readCount
                {
                    if alikeInLists[listPath] == nil {
                        // Once a list, not once an element: a list of thousands stays linear.
                        let read = existing.alikeObjects(inListAt: readListPath)
                        var now: [FieldValue: Int] = [:]
                        for index in 0..<count { if let element = newElement(index) { now[element, default: 0] += 1 } }
                        // One changed where it was read (`--set feed.1.title=…`), into
                        // an object like none read, is still there, not removed.
                        for index in 0..<min(count, readCount) {
                            if let was = existing.element(index, ofListAt: readListPath), case .object = was,
                                let element = newElement(index), case .object = element, read[element] == nil
                            {
                                now[was, default: 0] += 1
                            }
                        }
                        alikeInLists[listPath] = AlikeCounts(read: read, now: now)
                    }
                    let counts = alikeInLists[listPath]!
                    if let read = counts.read[.object(object)], read.keys.count > 1 {
                        let now = counts.now[.object(object)] ?? 0
                        if now < read.elements {
                            let named = read.keys.prefix(3).map(\.rawValue).joined(separator: ", ") + (read.keys.count > 3 ? ", …" : "")
                            throw NormalizationError(
                                path: path,
                                message: "'\(listPath)' has \(count) element\(count == 1 ? "" : "s") where \(readCount) "
                                    + "\(readCount == 1 ? "was" : "were") read, and \(now) alike in all the selection holds where "
                                    + "\(read.elements) were (\(named)), so which of those are kept cannot be told; select id, "
                                    + "or give --key-field \(typename ?? "TYPE")=id to key them by their data as the app does")
                        }
                    }
                }
                key = kept
                if object["id"] == nil, let typename {
                    keptWithoutID.append(KeptObject(path: pathText, typename: typename, key: kept, pathKey: CacheKey(pathKey)))
                }
            } else {
                key = CacheKey(pathKey)
            }
            // What it holds was read where its record was: another place for one that
            // moved, none for a new one standing where another was read.
            let readHere = existing.object(at: readPathText)
            if case .index? = path.last, readHere?.key != key {
                if let read = existing.pathOfKey[key] {
                    movedFrom[pathText] = read
                } else if readHere != nil {
                    movedFrom[pathText] = "\u{0}" + pathText
                }
            } else if let read = existing.pathOfKey[key], read != readPathText {
                movedFrom[pathText] = read
            }
            try write(object, key: key, selections: selections, path: path, type: staticType, fieldsToWrite: fieldsToWrite)
            return .reference(key)
        default:
            throw NormalizationError(
                path: path, message: "the selection needs an object, found \(JSONWriter.string(for: value, asStored: false))")
        }
    }
}
