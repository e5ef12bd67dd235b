// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import Testing
import IIO
import SystemCalls

@Suite("IIO contexts")
struct ContextTests {
    @Test("an IIO context from an unknown URI scheme fails and names the URI")
    func badIIOURI() {
        #expect {
            _ = try IIOContext(uri: "nonsense:thing")
        } throws: { error in
            (error as? IIOError)?.path == "nonsense:thing"
        }
    }

    @Test("the libiio version is reported")
    func libiioVersion() {
        #expect(IIOContext.libraryVersion.split(separator: ".").count == 2)
    }
}
