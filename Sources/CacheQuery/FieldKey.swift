import CacheStore
import Foundation

/// Field cache keys, exactly as Apollo iOS writes them (spec §3). The one
/// place in the project that renders them.
///
/// ```
/// hero                                   no arguments (or only absent variables)
/// hero(episode:JEDI)                     arguments sorted by name, no spaces
/// f(flag:true,ratio:1.5,x:null)          scalars unquoted, null as null
/// f(ids:[a, b])                          a list of scalars: ", " between elements
/// f(ids:[a, <null>])                     null in a list, as Foundation describes NSNull
/// search([filter:limit:2,text:sky])      an input object: brackets around name and members
/// f(items:[a:1,b:2,a:3])                 a list of input objects
/// ```
public enum FieldKey {
    /// The key of `name` with these arguments (variables already
    /// substituted; an argument whose variable is absent is not passed),
    /// Floats nested in lists and input objects written as `form` says.
    public static func render(name: String, arguments: [String: InputValue], form: NumberForm = .linux) -> String {
        guard !arguments.isEmpty else { return name }
        return name + "(" + members(arguments, form: form, nested: false) + ")"
    }

    /// The first number written differently in two field cache keys that
    /// differ only in how they write numbers (``differOnlyInNumbers(_:_:)``):
    /// `("-2.0", "-2")` for `lng:-2.0` and `lng:-2`. Nil when they differ otherwise.
    public static func firstDifferentNumbers(_ one: String, _ other: String) -> (String, String)? {
        guard differOnlyInNumbers(one, other) else { return nil }
        for (first, second) in zip(numbers(in: one), numbers(in: other)) where first != second { return (first, second) }
        return nil
    }

    /// The numbers a key writes, in order, as ``differOnlyInNumbers(_:_:)`` reads them.
    private static func numbers(in key: String) -> [String] {
        pieces(of: key).filter(\.isNumber).map(\.text)
    }

    /// Whether two field cache keys differ only in how they write numbers
    /// (`lng:-2` and `lng:-2.0`, `1e2` and `100`): the same arguments to a
    /// reader, two fields to the cache.
    public static func differOnlyInNumbers(_ one: String, _ other: String) -> Bool {
        func canonical(_ key: String) -> String {
            pieces(of: key).map { $0.isNumber ? Double($0.text).map { String($0) } ?? $0.text : $0.text }.joined()
        }
        return one != other && canonical(one) == canonical(other)
    }

    /// A key cut into the numbers it writes (`-2.0`, `1e+16`) and the characters between them.
    private static func pieces(of key: String) -> [(text: String, isNumber: Bool)] {
        var pieces: [(text: String, isNumber: Bool)] = []
        var number = ""
        for character in key {
            let continues = !number.isEmpty && (character == "." || character == "e" || character == "E"
                || ((character == "+" || character == "-") && (number.last == "e" || number.last == "E")))
            if character.isASCII && character.isNumber || continues || (character == "-" && number.isEmpty) {
                number.append(character)
            } else {
                if !number.isEmpty { pieces.append((number, true)) }
                number = ""
                pieces.append((String(character), false))
            }
        }
        if !number.isEmpty { pieces.append((number, true)) }
        return pieces
    }

    /// `k1:v1,k2:v2` with keys in byte order, objects and lists of objects
    /// as Apollo's `orderIndependentKey` writes them.
    /// `nested`: the members of an input object, not a field's arguments.
    static func members(_ object: [String: InputValue], form: NumberForm = .linux, nested: Bool = true) -> String {
        object.keys.sorted(by: byteOrder).map { member($0, object[$0]!, form: form, nested: nested) }.joined(separator: ",")
    }

    private static func member(_ name: String, _ value: InputValue, form: NumberForm, nested: Bool) -> String {
        switch value {
        case .object(let object):
            return "[\(name):\(members(object, form: form))]"
        case .list(let elements) where !elements.isEmpty && elements.allSatisfy(\.isObject):
            return "\(name):[" + elements.map { element in
                if case .object(let object) = element { return members(object, form: form) }
                return ""
            }.joined(separator: ",") + "]"
        default:
            return "\(name):\(scalar(value, form: form, nested: nested))"
        }
    }

    /// A scalar or a list of scalars, as Swift describes the JSON value.
    static func scalar(_ value: InputValue, form: NumberForm = .linux, nested: Bool = false) -> String {
        switch value {
        case .null: return "null"
        case .boolean(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .float(let number): return nested ? form.nested(number) : number.description
        case .string(let text), .enumValue(let text): return text
        // Apollo renders a list's elements with String(describing:), which
        // gives NSNull's description; `null` is its own case only for an
        // argument or an input object member.
        case .list(let elements):
            return "[" + elements.map { $0 == .null ? "<null>" : scalar($0, form: form, nested: true) }.joined(separator: ", ") + "]"
        case .object(let object): return "[" + members(object, form: form) + "]"
        }
    }
}

extension InputValue {
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}

/// How Apollo writes a Float nested in a list or an input object in a field
/// cache key (spec §3): its Linux builds as Swift describes the Double
/// (`2.0`, `0.30000000000000004`), Apollo on Apple platforms as Foundation
/// describes the NSNumber it became, with 16 significant digits (`2`,
/// `0.3`). A field's own Float argument is written as Swift describes it on both.
public enum NumberForm: Sendable {
    case linux, apple

    public var other: NumberForm { self == .linux ? .apple : .linux }

    func nested(_ number: Double) -> String {
        guard self == .apple, number.isFinite else { return number.description }
        // NSNumber's description: printf's %0.16g.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
            let count = withVaList([number]) { vsnprintf(buffer.baseAddress!, 40, "%0.16g", $0) }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(min(max(count, 0), 39))), as: UTF8.self)
        }
    }
}
