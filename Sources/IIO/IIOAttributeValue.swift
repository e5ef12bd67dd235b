// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC
import SystemCalls

/// A value an IIO attribute holds as text: an integer, a decimal number, a
/// flag, a mount matrix. `readAttribute(_:as:)` parses the text with this and
/// names the file and the bad text when it cannot.
///
/// The text passed in has had its trailing newline removed (by libiio) and
/// surrounding blanks trimmed.
public protocol IIOAttributeValue {
    /// Parses attribute text; nil when the text is not such a value.
    init?(attributeText: String)
    /// The text to write to the attribute.
    var attributeText: String { get }
    /// What the text should have been, for messages: "an integer".
    static var attributeTypeDescription: String { get }
}

extension String: IIOAttributeValue {
    public init?(attributeText: String) { self = attributeText }
    public var attributeText: String { self }
    public static var attributeTypeDescription: String { "text" }
}

extension Int: IIOAttributeValue {
    /// Decimal, optionally signed (as the kernel's `%d`/`%u` print it).
    public init?(attributeText: String) {
        guard let value = Int(attributeText) else { return nil }
        self = value
    }
    public var attributeText: String { String(self) }
    public static var attributeTypeDescription: String { "an integer" }
}

extension Double: IIOAttributeValue {
    /// A finite decimal number, as the kernel prints scales ("0.000598",
    /// "-12", "1.5e-3"); "nan" and "inf" are refused.
    public init?(attributeText: String) {
        guard let value = Double(attributeText), value.isFinite else { return nil }
        self = value
    }
    public var attributeText: String { String(self) }
    public static var attributeTypeDescription: String { "a decimal number" }
}

extension Bool: IIOAttributeValue {
    /// "1"/"0" as `buffer/enable` and `_en` files hold them; "Y"/"N" as
    /// kernel boolean parameters print them.
    public init?(attributeText: String) {
        switch attributeText {
        case "1", "Y", "y": self = true
        case "0", "N", "n": self = false
        default: return nil
        }
    }
    public var attributeText: String { self ? "1" : "0" }
    public static var attributeTypeDescription: String { "0 or 1" }
}

/// Normalizes attribute text before parsing: libiio has already dropped the
/// final newline; blanks around the value are not part of it.
@inline(__always)
func trimmedAttributeText(_ text: String) -> String {
    var s = Substring(text)
    while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\0" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\0" { s.removeLast() }
    return String(s)
}

/// Parses `text` read from `path` as a `T`, or says which file held what.
func parseAttribute<T: IIOAttributeValue>(_ text: String, as type: T.Type, name: String,
                                          path: String) throws(IIOError) -> T {
    let trimmed = trimmedAttributeText(text)
    if let value = T(attributeText: trimmed) { return value }
    throw IIOError(
        errno: EINVAL,
        operation: "read \(name) as \(T.attributeTypeDescription)",
        path: path,
        detail: "it holds \"\(trimmed)\", which is not \(T.attributeTypeDescription)")
}
