import CacheStore

/// A deterministic, Apollo-shaped cache of a small blog: users who write
/// posts, comments on posts, path-keyed avatar objects, an inline custom
/// scalar, and the query and mutation roots that reach them. The same
/// parameters always give the same records.
///
/// ```swift
/// let store = try CacheStore.create(at: "blog.sqlite")
/// try BlogCache(users: 5).write(to: store)
/// ```
///
/// A `directory` above zero adds a root field listing users, as a query
/// `users(first: N)` would have stored it: `users(first:N)` in `QUERY_ROOT`,
/// holding references to `User:1` up to `User:N` (up to the last user when
/// there are fewer). It adds no record; with the default of zero there is no
/// such field, so the default caches (Examples/blog.sqlite) stay as they are.
public struct BlogCache: Sendable {
    public var users: Int
    public var postsPerUser: Int
    public var commentsPerPost: Int
    public var avatars: Bool
    public var directory: Int

    public init(users: Int, postsPerUser: Int = 2, commentsPerPost: Int = 1, avatars: Bool = true, directory: Int = 0) {
        self.users = users
        self.postsPerUser = postsPerUser
        self.commentsPerPost = commentsPerPost
        self.avatars = avatars
        self.directory = directory
    }

    /// How many records ``records(_:)`` produces.
    public var recordCount: Int {
        let posts = users * postsPerUser
        return 1 + (posts >= 3 ? 1 : 0) + users * (avatars ? 2 : 1) + posts + posts * commentsPerPost
    }

    /// Writes every record, merged as Apollo merges, in transactions of
    /// `batchSize` records.
    public func write(to store: CacheStore, batchSize: Int = 20_000) throws {
        var batch: [Record] = []
        batch.reserveCapacity(batchSize)
        func flush() throws {
            let records = batch
            try store.write { tx in try tx.merge(records) }
            batch.removeAll(keepingCapacity: true)
        }
        try records { record in
            batch.append(record)
            if batch.count == batchSize { try flush() }
        }
        if !batch.isEmpty { try flush() }
    }

    /// Produces every record, roots first, then each user with their avatar,
    /// posts and comments.
    public func records(_ body: (Record) throws -> Void) throws {
        var random = SplitMix64(seed: 0x6771_6C63_6163_6865)
        let postCount = users * postsPerUser
        let feed = (0..<min(10, postCount)).map { FieldValue.reference(postKey($0 + 1)) }
        var queryRoot: [String: FieldValue] = ["feed(first:10)": .list(feed)]
        if users > 0 {
            queryRoot["viewer"] = .reference(userKey(1))
            queryRoot["user(id:\(min(users, 2)))"] = .reference(userKey(min(users, 2)))
        }
        if directory > 0 {
            queryRoot["users(first:\(directory))"] = .list((0..<min(directory, users)).map { .reference(userKey($0 + 1)) })
        }
        try body(Record(key: .queryRoot, fields: queryRoot))
        if postCount >= 3 {
            try body(Record(key: .mutationRoot, fields: ["likePost(id:3)": .reference(postKey(3))]))
        }

        for user in 1...max(users, 1) where users > 0 {
            let posts = (0..<postsPerUser).map { (user - 1) * postsPerUser + $0 + 1 }
            var fields: [String: FieldValue] = [
                "__typename": .string("User"),
                "id": .string(String(user)),
                "name": .string(Self.names[user % Self.names.count] + " " + Self.surnames[(user / Self.names.count) % Self.surnames.count]),
                "handle": .string("@user\(user)"),
                "joinedAt": .string("2024-\(String(format2: 1 + user % 12))-\(String(format2: 1 + user % 28))T09:00:00Z"),
                "posts(first:\(postsPerUser))": .list(posts.map { .reference(postKey($0)) }),
            ]
            if avatars {
                let avatarKey = CacheKey("\(userKey(user).rawValue).avatar(size:64)")
                fields["avatar(size:64)"] = .reference(avatarKey)
                try body(Record(key: userKey(user), fields: fields))
                try body(Record(key: avatarKey, fields: [
                    "__typename": .string("Image"),
                    "url": .string("https://img.example.com/u/\(user)/64.png"),
                    "width": .int(64),
                ]))
            } else {
                try body(Record(key: userKey(user), fields: fields))
            }
            for post in posts {
                let comments = (0..<commentsPerPost).map { (post - 1) * commentsPerPost + $0 + 1 }
                let words = Self.words
                let title = (0..<4).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
                try body(Record(key: postKey(post), fields: [
                    "__typename": .string("Post"),
                    "id": .string(String(post)),
                    "title": .string(title.prefix(1).uppercased() + title.dropFirst()),
                    "likes": .int(Int64(random.next() % 500)),
                    "score": .double(Double(random.next() % 1000) / 8),
                    "author": .reference(userKey(user)),
                    "meta": .object(["readingMinutes": .int(Int64(1 + random.next() % 12)), "tags": .list([.string("swift"), .string("graphql")])]),
                    "comments(first:\(commentsPerPost))": .list(comments.map { .reference(commentKey($0)) }),
                ]))
                for comment in comments {
                    let commenter = 1 + Int(random.next() % UInt64(users))
                    try body(Record(key: commentKey(comment), fields: [
                        "__typename": .string("Comment"),
                        "id": .string(String(comment)),
                        "text": .string(comment % 7 == 0 ? "Nice / \"quoted\" é" : "Comment \(comment)"),
                        "author": .reference(userKey(commenter)),
                        "editedAt": .null,
                    ]))
                }
            }
        }
    }

    func userKey(_ id: Int) -> CacheKey { CacheKey("User:\(id)") }
    func postKey(_ id: Int) -> CacheKey { CacheKey("Post:\(id)") }
    func commentKey(_ id: Int) -> CacheKey { CacheKey("Comment:\(id)") }

    static let names = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Margaret", "Dennis"]
    static let surnames = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Hamilton", "Ritchie"]
    static let words = ["cache", "query", "swift", "sqlite", "record", "field", "schema", "apollo", "normalized", "key",
                        "fragment", "mutation", "offline", "merge", "reference", "graph"]
}

extension String {
    init(format2 value: Int) { self = value < 10 ? "0\(value)" : String(value) }
}

/// A small deterministic pseudo-random generator (SplitMix64): the same
/// seed gives the same numbers, for example caches and replayable tests.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
