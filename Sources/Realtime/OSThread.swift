// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
import LibC
import SystemCalls

/// A plain POSIX thread running one closure.
///
/// The sensor and physics loops run on threads of their own, not as tasks on
/// Swift's cooperative pool: they block in `poll`/`read` and sleep to
/// deadlines, which would starve the pool's few threads, and they must keep
/// their timing whatever else the program is doing.
public final class OSThread: @unchecked Sendable {
    // @unchecked Sendable: `handle` is written once before `start` returns and
    // read only by `join`, which callers make on one thread.
    private var handle: pthread_t
    private var joined = false
    public let name: String

    private final class Body {
        let run: @Sendable () -> Void
        let name: String
        init(run: @escaping @Sendable () -> Void, name: String) { self.run = run; self.name = name }
    }

    /// Starts `body` on a new thread named `name` (at most 15 bytes are kept;
    /// the name shows in `top -H` and `ps -L`).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadError) {
        self.name = name
        let box = Unmanaged.passRetained(Body(run: body, name: name)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            ThreadControl.setName(body.name)
            body.run()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw ThreadError(name: name, errno: rc)
        }
        handle = thread
    }

    /// Waits for the thread to finish. Call once, from one thread.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(handle, nil)
    }

    deinit {
        // A thread nobody joined keeps running; detach so its resources are freed when it ends.
        if !joined { pthread_detach(handle) }
    }
}

/// A thread could not be created.
public struct ThreadError: Error, CustomStringConvertible, Sendable {
    public let name: String
    public let errno: Int32
    public var description: String {
        "cannot start thread \(name): \(String(cString: strerror(errno)))"
    }
}
