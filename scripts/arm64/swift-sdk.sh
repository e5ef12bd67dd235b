#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2025-2026 the TiltMaze developers; see LICENSE.
# Writes the Swift SDK bundle that lets the toolchain root's Swift (Debian
# sid's swiftlang for amd64) build for aarch64 against the target root:
# SwiftPM's artifact-bundle form (SE-0387), as swiftlang's swift-sdk-generator
# makes it from Debian packages. Paths are the ones seen inside the
# toolchain root, where scripts/arm64/run-in.sh mounts the target root at
# /sysroot.
#
#   scripts/arm64/swift-sdk.sh DIR    # writes DIR/tiltmaze-arm64.artifactbundle
set -euo pipefail
dir=$1
version=$2
bundle=$dir/tiltmaze-arm64.artifactbundle
variant=$bundle/tiltmaze-arm64/aarch64-unknown-linux-gnu
resources=/sysroot/opt/swift-$version/usr/libexec/swift/lib
mkdir -p "$variant"
cat > "$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "tiltmaze-arm64": {
      "type": "swiftSDK",
      "version": "$version",
      "variants": [{ "path": "tiltmaze-arm64/aarch64-unknown-linux-gnu" }]
    }
  }
}
JSON
cat > "$variant/swift-sdk.json" <<JSON
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "/sysroot",
      "swiftResourcesPath": "$resources/swift",
      "swiftStaticResourcesPath": "$resources/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
JSON
# lld links aarch64 from an amd64 host; the toolchain ships it as ld.lld.
# Debian's swiftlang ships the interface of Swift Testing's Foundation
# overlay (_Testing_Foundation, imported on its own wherever a file imports
# both) but not its library, so every test file that uses Foundation would
# fail to link: cross-import overlays are turned off. They add Attachable
# conformances for Foundation's types, which the tests do not use.
cat > "$variant/toolset.json" <<JSON
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld", "-Xfrontend", "-disable-cross-import-overlays"] },
  "linker": { "path": "/usr/libexec/swift/bin/ld.lld" }
}
JSON
