// SPDX-License-Identifier: Apache-2.0
// Copyright 2025-2026 the TiltMaze developers; see LICENSE.
// Vector3 and Quaternion live in MotionMath so that LinuxMotion can hand them,
// with their operators, to a program that imports only LinuxMotion: Swift
// finds a type's operators only in the modules a file imports (or that those
// re-export), and re-exporting MotionCore would show a program all of it.
// Re-exported here too, so that every module that imports MotionCore keeps
// them as before.
@_exported import MotionMath
