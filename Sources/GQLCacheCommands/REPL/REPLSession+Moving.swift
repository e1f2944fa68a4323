import CacheStore

/// Moving through the graph: `cd`, `back` and the records `ls` names as
/// `cd` would go, and the way here kept when records are removed.
extension REPLSession {
    func changeRecord(_ arguments: [String]) -> ExitStatus {
        var arguments = arguments
        // `cd -- -` for a key spelled '-'.
        let keyFollows = arguments.first == "--"
        if keyFollows { arguments.removeFirst() }
        guard let target = arguments.first else { return goToQueryRoot() }
        if arguments.count > 1 {
            // Most often a key or field with a space in it, typed bare.
            let joined = arguments.joined(separator: " ")
            context.report(.usage, "cd takes one key or field; one with spaces is quoted: cd \(ShellWords.quote(joined))")
            return .usage
        }
        if target == "-" && !keyFollows {
            guard let previous = previousTrail else {
                context.report(.notFound, "cd -: no move yet to go back on")
                return .notFound
            }
            // As a shell's 'cd -' to a folder removed since: an error, and no move.
            if let destination = previous.last, previous.count > 1,
               let exists = try? readStore().read({ tx in try tx.contains(destination) }), !exists {
                context.report(.notFound, "cd -: \(destination.display) is no longer in the cache; still at \(current.display)")
                return .notFound
            }
            move(to: previous)
            // Records removed since on the way there are left, and said, as before any command.
            let moved = (try? dropRemovedRecordsFromTrail()) ?? false
            // As a shell's 'cd -', which says where it went.
            if !moved { context.print(current.display) }
            return .success
        }
        // `cd ../..`, `cd ../friends.1`, `cd ./friends.0`, as in a shell:
        // back as many records (no further than QUERY_ROOT), then on.
        var base = trail
        var rest = Substring(target)
        if !keyFollows, let relative = Self.relativePath(target) {
            base = trail(back: relative.ups)
            rest = relative.rest
            if rest.isEmpty {
                move(to: base)
                return .success
            }
            // A key that begins with `../` itself is still found whole, where the path leads nowhere.
            let path = String(rest), from = base.last ?? .queryRoot
            let isWholeKey = (try? readStore().read { tx in
                try tx.contains(CacheKey(target)) && (try? tx.record(for: from).flatMap { try Self.follow(path, in: $0) }) == nil
            }) ?? false
            if isWholeKey {
                move(to: trail + [CacheKey(target)])
                return .success
            }
        }
        if rest == "/" && !keyFollows { return goToQueryRoot() }
        let from = base.last ?? .queryRoot
        return go(to: String(rest), from: from, base: base, typedBefore: String(target.dropLast(rest.count)))
    }

    /// The first key in key order, read alone (not the whole list).
    static func firstKey(_ tx: ReadTransaction) throws -> CacheKey? {
        var first: CacheKey?
        try tx.forEachKey(limit: 1) { first = $0 }
        return first
    }

    /// `cd` and `cd /`: to QUERY_ROOT, unless the cache holds records but
    /// no QUERY_ROOT (the session began at its first key): a move there
    /// would leave you at a record that is not, so it is said instead.
    private func goToQueryRoot() -> ExitStatus {
        if let store = try? readStore(), let (hasRoot, anyKey) = try? store.read({ tx in
            (try tx.contains(.queryRoot), try Self.firstKey(tx))
        }), !hasRoot, anyKey != nil {
            context.report(.notFound, "no record 'QUERY_ROOT' in \(cachePath.shownOnLine), which holds no query root; still at \(current.display)")
            return .notFound
        }
        move(to: [.queryRoot])
        return .success
    }

    /// `cd FIELD` or `cd KEY` from the record `from`, the end of `base`;
    /// `typedBefore` is what was typed before FIELD (`../`).
    private func go(to target: String, from: CacheKey, base: [CacheKey], typedBefore: String) -> ExitStatus {
        do {
            let store = try readStore()
            // The records gone through to the one cd goes to, which ends it.
            let steps: [CacheKey] = try store.read { tx in
                let record: Record?
                do {
                    record = try tx.record(for: from)
                } catch CacheStoreError.damagedRecord(let damaged, let problem) where damaged == from {
                    // No field of a damaged record can be followed, but a key is a key wherever cd starts.
                    if try tx.contains(CacheKey(target)) { return [CacheKey(target)] }
                    throw CacheStoreError.damagedRecord(key: damaged, problem: problem)
                }
                if let record, let key = try Self.follow(target, in: record, typedBefore: typedBefore) {
                    guard try tx.contains(key) else { throw Self.dangling(from, target, to: key) }
                    return [key]
                }
                let key = CacheKey(target)
                if try tx.contains(key) { return [key] }
                // A path of fields, as a shell's cd takes `a/b/c`: from here
                // (`hero.friends.0`, `hero` for the one field of that name),
                // else from the record it begins with (`QUERY_ROOT.hero.friends.0`);
                // `..` then goes back a step of it. One from the root is
                // the way there, as `cd /a/b` is in a shell.
                if let along = try tx.recordsAlong(target, from: record) {
                    if along.first == base.first { return along }
                    return along.first == from ? Array(along.dropFirst()) : along
                }
                throw try Self.noSuchFieldOrKey(target, in: record, of: from, tx, typedBefore: typedBefore)
            }
            if steps.count > 1, steps.first == base.first {
                move(to: steps)
            } else {
                // `cd KEY` to the record already at the end is no step: `back` still leaves it.
                move(to: steps == [base.last] ? base : base + steps)
            }
            return .success
        } catch let failure as CommandFailure {
            context.report(failure.status, failure.message)
            return failure.status
        } catch let error as CacheStoreError {
            context.report(ExitStatus(for: error), error.description)
            return ExitStatus(for: error)
        } catch {
            context.report(.io, "\(error)")
            return .io
        }
    }


    /// TARGET, which cd or ls took for a field of the record `from` or a
    /// key, is neither: the fields it might have meant, or the nearest keys.
    private static func noSuchFieldOrKey(
        _ target: String, in record: Record?, of from: CacheKey, _ tx: ReadTransaction, command: String = "cd", typedBefore: String = ""
    ) throws -> CommandFailure {
        var fields = record.map { Self.referenceFields(of: $0) } ?? []
        // `cd hero` means a field named hero, whatever its arguments: those come first.
        let name = FieldPath.name(of: target)
        let named = fields.filter { FieldPath.name(of: $0) == name }
        fields = named + fields.filter { !named.contains($0) }
        let nearest = try tx.suggestions(for: CacheKey(target))
        var message = "no field '\(target)' with a reference in \(from.display), and no record '\(target)'"
        if named.count == 1 {
            // A list is no place to go, its first element with a reference is (friends.0).
            let field = named[0]
            let value = record?.fields[field]
            let paths = value.map { Self.referencePaths(of: Record(key: from, fields: [field: $0])) } ?? []
            // The element typed (feed.7), when the field has it, else the first.
            let typedPath = field + target.dropFirst(name.count)
            let place = target.dropFirst(name.count).hasPrefix(".") && paths.contains(typedPath) ? typedPath : paths.first ?? field
            message += "; did you mean: \(command) \(ShellWords.quote(typedBefore + place))"
            if place != field, case .list(let elements)? = value { message += " (the field is a list of \(elements.count))" }
        } else if !fields.isEmpty, nearest.pathNote == nil {
            // A path of fields from a record (QUERY_ROOT.hero.friends.0) is said in full below.
            message += "; fields with references: " + fields.prefix(8).joined(separator: ", ")
        }
        if let strayRow = nearest.strayRow {
            message += "; " + strayRow
        } else {
            message += nearest.pathNote ?? ""
            if !nearest.nearest.isEmpty { message += "; nearest keys: " + nearest.nearest.map(\.display).joined(separator: ", ") }
        }
        return CommandFailure(.notFound, message)
    }

    /// The trail `ups` records back, as `../..` goes: never past QUERY_ROOT.
    func trail(back ups: Int) -> [CacheKey] { Array(trail.prefix(max(1, trail.count - ups))) }

    /// A path that begins with `.` or `..`, as a shell reads one: how many
    /// records back (`../..` is two), and what follows from there
    /// (`friends.1` in `../friends.1`; empty for `..`). Nil when TARGET
    /// does not begin so.
    static func relativePath(_ target: String) -> (ups: Int, rest: Substring)? {
        var rest = Substring(target)
        guard rest == "." || rest == ".." || rest.hasPrefix("./") || rest.hasPrefix("../") else { return nil }
        var ups = 0
        while !rest.isEmpty {
            if rest.hasPrefix("../") || rest == ".." {
                ups += 1
                rest = rest.dropFirst(3)
            } else if rest.hasPrefix("./") || rest == "." {
                rest = rest.dropFirst(2)
            } else {
                break
            }
            // `..//friends.0` is `../friends.0`, as a shell reads it.
            rest = rest.drop { $0 == "/" }
        }
        return (ups, rest)
    }

    /// The record `ls TARGET` shows when TARGET is what `cd` takes besides
    /// a key: `..` (the record before this one), a field of this record
    /// that holds a reference (`friends.0`), or a field of a record
    /// before it (`../friends.1`). A failure: TARGET is a field that holds
    /// none (a list, null), said as cd says it. Nil: TARGET is taken as a
    /// key (also one that itself begins with `../`, as cd finds it).
    func listedRecord(_ target: String) -> Result<CacheKey, CommandFailure>? {
        guard !target.hasPrefix("-") else { return nil }
        var from = current, field = target, isRelative = false
        if let relative = Self.relativePath(target) {
            isRelative = true
            from = trail(back: relative.ups).last ?? .queryRoot
            if relative.rest.isEmpty { return .success(from) }
            field = String(relative.rest)
        }
        guard let store = try? readStore() else { return nil }
        let found: Result<CacheKey, CommandFailure>?? = try? store.read { tx in
            let record = try tx.record(for: from)
            do {
                if let record, let key = try Self.follow(field, in: record, command: "ls", typedBefore: String(target.dropLast(field.count))) {
                    // Said as cd says it, not as a key typed that no record has.
                    return try tx.contains(key) ? .success(key) : .failure(Self.dangling(from, field, to: key))
                }
                if try tx.contains(CacheKey(target)) { return nil }
                // A path of fields, as cd goes along it.
                if let along = try tx.recordsAlong(field, from: record), let last = along.last { return .success(last) }
                guard isRelative else {
                    // `ls reviews`, a field's name without its arguments: said as cd says it;
                    // anything else is a key, which show names with its nearest.
                    guard let record, record.fields.keys.contains(where: { FieldPath.name(of: $0) == FieldPath.name(of: field) }) else { return nil }
                    return .failure(try Self.noSuchFieldOrKey(field, in: record, of: from, tx, command: "ls"))
                }
                // `../Human:1002`: a key after the path, as cd takes it.
                if try tx.contains(CacheKey(field)) { return .success(CacheKey(field)) }
                // `../friends1`: said as cd says it.
                return .failure(try Self.noSuchFieldOrKey(field, in: record, of: from, tx, command: "ls", typedBefore: String(target.dropLast(field.count))))
            } catch let failure as CommandFailure {
                return .failure(failure)
            }
        }
        return found ?? nil
    }

    /// The failure for a field of `from` whose reference names no record.
    static func dangling(_ from: CacheKey, _ field: String, to key: CacheKey) -> CommandFailure {
        CommandFailure(.notFound, "\(from.display) \(field) → \(key.display), which is not in the cache (a dangling reference)")
    }

    func goBack() -> ExitStatus {
        if trail.count > 1 { move(to: Array(trail.dropLast())) }
        return .success
    }

    /// Moves, remembering where from for `cd -`.
    private func move(to newTrail: [CacheKey]) {
        if newTrail != trail { previousTrail = trail }
        trail = newTrail
    }

    /// After a removal, here or by another program, `cd` places that are
    /// gone are left, and the move said; true when the session moved.
    @discardableResult
    func dropRemovedRecordsFromTrail(from store: CacheStore? = nil) throws -> Bool {
        guard trail.count > 1 else { return false }
        let store = try store ?? readStore()
        let existing = try store.read { tx in try tx.existingKeys(among: trail) }
        let before = current
        // Records gone from the way here too: back must not lead to one.
        // The root stays, record or not: it is where cd .. ends.
        let gone = Set(trail.dropFirst().filter { !existing.contains($0) })
        guard !gone.isEmpty else { return false }
        var kept = [trail[0]]
        for key in trail.dropFirst() where existing.contains(key) && key != kept.last { kept.append(key) }
        trail = kept
        guard !context.isQuiet else { return current != before }
        if current != before {
            let noRecord = existing.contains(current) ? "" : " (which has no record either)"
            context.stderr.write("gqlcache: \(before.display) is gone; now at \(current.display)\(noRecord)\n")
        } else {
            let names = gone.sorted().map(\.display).joined(separator: ", ")
            let back = trail.count > 1 ? trail[trail.count - 2].display : current.display
            context.stderr.write("gqlcache: \(names), on the way here, \(gone.count == 1 ? "is" : "are") gone; back leads to \(back)\n")
        }
        return current != before
    }
}
