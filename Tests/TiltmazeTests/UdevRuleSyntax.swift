// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
/// A reader for udev rule files, strict where udev(7) is: every rule is a
/// comma-separated list of `KEY[{attribute}] OPERATOR "value"`, keys from
/// udev's set, each used with an operator it accepts, values double-quoted,
/// substitutions (`$devnode`, `%p`, …) ones udev knows. udev itself skips a
/// line it cannot parse with no more than a log message, which is why this
/// check exists.
struct UdevRuleFile {
    struct Pair: Equatable {
        var key: String
        var attribute: String?
        var op: String
        var value: String
    }

    struct Rule {
        /// 1-based line on which the rule starts.
        var line: Int
        var pairs: [Pair]

        func values(of key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }
    }

    struct SyntaxError: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    private(set) var rules: [Rule] = []

    /// Keys that only compare.
    static let matchKeys: Set<String> = ["ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEMS", "DRIVER",
                                         "DRIVERS", "ATTRS", "TAGS", "TEST", "PROGRAM", "RESULT", "CONST", "SUBSYSTEM"]
    /// Keys that only assign.
    static let assignKeys: Set<String> = ["OWNER", "GROUP", "MODE", "RUN", "LABEL", "GOTO", "IMPORT",
                                          "OPTIONS", "SECLABEL"]
    /// Keys that do either.
    static let eitherKeys: Set<String> = ["ENV", "ATTR", "TAG", "SYSCTL", "NAME", "SYMLINK"]
    /// Keys that must carry `{attribute}`, and keys that may.
    static let attributeRequired: Set<String> = ["ATTR", "ATTRS", "ENV", "SYSCTL", "CONST", "SECLABEL"]
    static let attributeOptional: Set<String> = ["RUN", "IMPORT", "TEST"]
    static let operators = ["==", "!=", "+=", "-=", ":=", "="]
    /// Long-form substitutions (`$name`, `$name{…}`) and one-letter ones (`%x`).
    static let dollarNames: Set<String> = ["kernel", "number", "devpath", "id", "driver", "attr", "env", "major",
                                           "minor", "result", "parent", "name", "links", "root", "sys", "devnode"]
    static let percentLetters: Set<Character> = ["k", "n", "p", "b", "d", "s", "E", "M", "m", "c", "P", "N", "L", "r", "S", "D", "%"]

    init(parsing text: String) throws(SyntaxError) {
        var logical: [(line: Int, text: String)] = []
        var pending: (line: Int, text: String)?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(raw)
            let start = pending?.line ?? index + 1
            let continues = line.hasSuffix("\\")
            if continues { line.removeLast() }
            let joined = (pending?.text ?? "") + line
            if continues { pending = (start, joined) } else { pending = nil; logical.append((start, joined)) }
        }
        if let pending { throw SyntaxError(line: pending.line, message: "the file ends inside a continued line") }
        for (line, text) in logical {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            rules.append(Rule(line: line, pairs: try Self.pairs(String(trimmed), line: line)))
        }
        try checkLabels()
    }

    /// Splits one rule into its pairs, checking each.
    private static func pairs(_ text: String, line: Int) throws(SyntaxError) -> [Pair] {
        var rest = Substring(text)
        var pairs: [Pair] = []
        func fail(_ message: String) -> SyntaxError { SyntaxError(line: line, message: message) }
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let key = String(rest.prefix { $0.isUppercase || $0 == "_" })
            guard !key.isEmpty else { throw fail("expected a key at \"\(rest.prefix(20))\"") }
            rest = rest.dropFirst(key.count)
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else { throw fail("\(key){ is not closed") }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let op = operators.first(where: { rest.hasPrefix($0) }) else {
                throw fail("\(key): expected an operator (== != = += -= :=) at \"\(rest.prefix(10))\"")
            }
            rest = rest.dropFirst(op.count).drop { $0 == " " || $0 == "\t" }
            guard rest.first == "\"" else { throw fail("\(key): the value must be in double quotes") }
            rest = rest.dropFirst()
            var value = ""
            var closed = false
            while let c = rest.first {
                rest = rest.dropFirst()
                if c == "\\", let next = rest.first, next == "\"" { value.append(next); rest = rest.dropFirst(); continue }
                if c == "\"" { closed = true; break }
                value.append(c)
            }
            guard closed else { throw fail("\(key): the value's quotes are not closed") }
            let pair = Pair(key: key, attribute: attribute, op: op, value: value)
            try check(pair, line: line)
            pairs.append(pair)
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { return pairs }
            guard rest.first == "," else { throw fail("expected a comma after \(key) at \"\(rest.prefix(20))\"") }
            rest = rest.dropFirst()
        }
    }

    /// The key is udev's, takes the operator used, has its attribute if it
    /// needs one, and its substitutions are known.
    private static func check(_ pair: Pair, line: Int) throws(SyntaxError) {
        func fail(_ message: String) -> SyntaxError { SyntaxError(line: line, message: "\(pair.key): \(message)") }
        let isMatch = pair.op == "==" || pair.op == "!="
        if matchKeys.contains(pair.key) {
            guard isMatch else { throw fail("only compares (== or !=), not \(pair.op)") }
        } else if assignKeys.contains(pair.key) {
            guard !isMatch else { throw fail("only assigns, not \(pair.op)") }
            if ["LABEL", "GOTO"].contains(pair.key), pair.op != "=" { throw fail("takes = only") }
        } else if !eitherKeys.contains(pair.key) {
            throw fail("not a udev key")
        }
        if attributeRequired.contains(pair.key) && (pair.attribute ?? "").isEmpty { throw fail("needs {name}") }
        if pair.attribute != nil && !attributeRequired.contains(pair.key) && !attributeOptional.contains(pair.key) {
            throw fail("takes no {…}")
        }
        if !isMatch { try checkSubstitutions(pair.value, fail: fail) }
    }

    private static func checkSubstitutions(_ value: String, fail: (String) -> SyntaxError) throws(SyntaxError) {
        var rest = Substring(value)
        while let c = rest.first {
            rest = rest.dropFirst()
            if c == "$" {
                if rest.first == "$" { rest = rest.dropFirst(); continue }
                let name = String(rest.prefix { $0.isLowercase })
                guard dollarNames.contains(name) else { throw fail("unknown substitution $\(name)") }
                rest = rest.dropFirst(name.count)
            } else if c == "%" {
                guard let letter = rest.first, percentLetters.contains(letter) else {
                    throw fail("unknown substitution %\(rest.first.map(String.init) ?? "")")
                }
                rest = rest.dropFirst()
            }
        }
    }

    /// Every GOTO has its LABEL.
    private func checkLabels() throws(SyntaxError) {
        let labels = Set(rules.flatMap { $0.values(of: "LABEL") })
        for rule in rules {
            for target in rule.values(of: "GOTO") where !labels.contains(target) {
                throw SyntaxError(line: rule.line, message: "GOTO \"\(target)\" has no LABEL")
            }
        }
    }
}
