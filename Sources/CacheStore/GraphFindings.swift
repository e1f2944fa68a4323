import Foundation

/// A record whose text cannot be decoded, and why.
public struct DamagedRecord: Equatable, Sendable {
    public let key: CacheKey
    public let problem: CacheStoreError.RecordProblem
}

/// A record holding, in `field`, a number too large for a Double, such as
/// `1e400`: Apollo's JSONSerialization refuses it, and the whole record
/// with it, so every read or write that reaches the record fails.
public struct NumberApolloCannotRead: Equatable, Sendable, CustomStringConvertible {
    public let key: CacheKey
    public let field: String
    public let number: String

    /// "field 'mass' holds 1e400, a number too large for a Double, ...".
    public var description: String {
        "field '\(field)' holds \(number), a number too large for a Double, which Apollo's JSON reading refuses with the whole record"
    }
}

/// A record whose `__typename` is there but what Apollo's `String` does
/// not read (`null`, a Boolean, a list, an object). Apollo's generated
/// selections read `__typename`, in every selection set, as `String!`:
/// every read that reaches the record fails there. Writes still merge into it, and the app's next
/// fetch of the object writes `__typename` again.
public struct TypenameApolloCannotRead: Equatable, Sendable {
    public let key: CacheKey
    public let value: FieldValue
}

/// Two rows a pass over the table met in the wrong order: `next` came
/// right after `previous`, and is not above it.
public struct RowOrderBreak: Equatable, Sendable, CustomStringConvertible {
    public let previous: Int64
    public let next: Int64

    /// "its rows come out of _id order: _id 0 after _id 10".
    public var description: String { "its rows come out of _id order: _id \(next) after _id \(previous)" }
}

/// Two rows that hold the same key, which the table's UNIQUE index forbids.
public struct DuplicateKeyRows: Equatable, Sendable, CustomStringConvertible {
    public let key: CacheKey
    public let firstRowID: Int64
    public let secondRowID: Int64

    /// "two rows (_id 2 and _id 3) hold one key, "A:1", which …": the key
    /// JSON-quoted, so a line break in it stays on the line.
    public var description: String {
        "two rows (_id \(firstRowID) and _id \(secondRowID)) hold one key, \(JSONWriter.quoted(key.rawValue)), "
            + "which the table's UNIQUE index on key forbids"
    }
}

/// A row whose key column holds a BLOB, or text that is not UTF-8, with
/// the key's bytes.
public struct BlobKeyRow: Equatable, Sendable {
    public let rowID: Int64
    public let bytes: [UInt8]
    /// A BLOB; otherwise text whose bytes are not UTF-8.
    public let isBlob: Bool

    public init(rowID: Int64, bytes: [UInt8], isBlob: Bool = true) {
        self.rowID = rowID
        self.bytes = bytes
        self.isBlob = isBlob
    }

    /// The bytes read as text, or nil when they are not UTF-8 (a key shown
    /// then would not be the key the row holds).
    public var key: CacheKey? {
        guard bytes.withUnsafeBufferPointer(ReadTransaction.isUTF8) else { return nil }
        return CacheKey(String(decoding: bytes, as: UTF8.self))
    }

    /// The bytes in hexadecimal, `FF00`: exact whatever they hold.
    public var hex: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(bytes.count * 2)
        for byte in bytes { hex += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: hex, as: UTF8.self)
    }
}
