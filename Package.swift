// swift-tools-version:6.0
// swift-kdbx: a pure-Swift, zero-dependency implementation of the KeePass KDBX format.
// This manifest declares no package dependencies, by design.
import PackageDescription

let package = Package(
  name: "swift-kdbx",
  // Apple platforms: the releases Swift 6 concurrency back-deploys to. `Synchronization` (macOS 15 / iOS 18) is used
  // only under availability guards, with a fallback below that (see README, "Apple platforms").
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "KDBX", targets: ["KDBX"]),
    .library(name: "KDBXAutoFill", targets: ["KDBXAutoFill"]),
    .library(name: "KDBXPasswords", targets: ["KDBXPasswords"]),
    .library(name: "KDBXImport", targets: ["KDBXImport"]),
    .library(name: "KDBXPasskeys", targets: ["KDBXPasskeys"]),
    .library(name: "KDBXCrypto", targets: ["KDBXCrypto"]),
    .library(name: "KDBXCompression", targets: ["KDBXCompression"]),
    .library(name: "KDBXXML", targets: ["KDBXXML"]),
    .library(name: "KDBXFileIO", targets: ["KDBXFileIO"]),
    .library(name: "KDBXFoundation", targets: ["KDBXFoundation"]),
    .executable(name: "kdbx", targets: ["kdbx"]),
    .executable(name: "kdbx-bench", targets: ["kdbx-bench"]),
  ],
  targets: [
    // Library targets: the Swift standard library only (Synchronization allowed).
    // What every layer shares (parallel work, byte comparison, hex, the self-test recorder): `package` declarations
    // only, a target and not a product.
    .target(name: "KDBXBase"),
    .target(name: "KDBXCrypto", dependencies: ["KDBXBase"]),
    .target(name: "KDBXCompression", dependencies: ["KDBXBase"]),
    .target(name: "KDBXXML", dependencies: ["KDBXBase"]),
    .target(name: "KDBX", dependencies: ["KDBXBase", "KDBXCrypto", "KDBXCompression", "KDBXXML"]),

    // App features beside the codec, each a library of its own: AutoFill matching with the Public Suffix List,
    // and password and passphrase generation with strength estimation (their generated tables stay out of KDBX).
    .target(name: "KDBXAutoFill", dependencies: ["KDBX"]),
    .target(name: "KDBXPasswords", dependencies: ["KDBX", "KDBXCrypto"]),
    // Other managers' exports (KeePass 2 XML, CSV, Bitwarden JSON, 1Password .1pux) and KeePass 1.x files, read
    // into a new database.
    .target(name: "KDBXImport", dependencies: ["KDBX", "KDBXBase", "KDBXCrypto", "KDBXCompression"]),
    // Passkeys as KeePassXC stores them, the WebAuthn authenticator side (CBOR, COSE) and AutoFill identities.
    .target(name: "KDBXPasskeys", dependencies: ["KDBX", "KDBXBase", "KDBXCrypto", "KDBXAutoFill"]),

    // File paths and crash-safe saves: the one library target that may import Glibc.
    .target(name: "KDBXFileIO", dependencies: ["KDBX", "KDBXBase", "KDBXCrypto"]),

    // Optional Foundation adapters (UUID, Date, Data, URL, coordinated file access): the one module that imports
    // Foundation. No core module imports it.
    .target(name: "KDBXFoundation", dependencies: ["KDBX", "KDBXFileIO"]),

    // Executables: may import Glibc.
    .executableTarget(
      name: "kdbx",
      dependencies: [
        "KDBX", "KDBXAutoFill", "KDBXPasswords", "KDBXImport", "KDBXPasskeys", "KDBXFileIO", "KDBXBase",
        "KDBXCrypto", "KDBXCompression", "KDBXXML",
      ]
    ),
    .executableTarget(
      name: "kdbx-bench",
      dependencies: ["KDBX", "KDBXAutoFill", "KDBXBase", "KDBXCrypto", "KDBXCompression", "KDBXXML", "KDBXFileIO"],
      path: "Benchmarks/kdbx-bench"
    ),

    // Test support: reads Vectors/ through #filePath and Glibc. No bundles, no Foundation.
    .target(
      name: "VectorSupport", dependencies: ["KDBXBase", "KDBXCompression", "KDBX", "KDBXXML"], path: "Tests/VectorSupport"),
    .testTarget(name: "KDBXBaseTests", dependencies: ["KDBXBase"]),
    .testTarget(name: "KDBXCryptoTests", dependencies: ["KDBXCrypto", "KDBXBase", "VectorSupport"]),
    .testTarget(name: "KDBXCompressionTests", dependencies: ["KDBXCompression", "VectorSupport"]),
    .testTarget(name: "KDBXXMLTests", dependencies: ["KDBXXML", "VectorSupport"]),
    // AutoFill/ holds the candidate tests that use the library fixtures of this target.
    .testTarget(name: "KDBXTests", dependencies: ["KDBX", "KDBXBase", "KDBXAutoFill", "VectorSupport"]),
    .testTarget(name: "KDBXAutoFillTests", dependencies: ["KDBXAutoFill", "KDBX", "VectorSupport"]),
    .testTarget(name: "KDBXPasswordsTests", dependencies: ["KDBXPasswords", "KDBX", "KDBXCrypto", "VectorSupport"]),
    // KeePass1/ holds the KeePass 1.x reader's tests.
    .testTarget(
      name: "KDBXImportTests",
      dependencies: ["KDBXImport", "KDBX", "KDBXBase", "KDBXCrypto", "KDBXXML", "VectorSupport"]),
    .testTarget(name: "KDBXFileIOTests", dependencies: ["KDBXFileIO", "KDBX", "KDBXCrypto", "VectorSupport"]),
    // The `kdbx` binary end to end and the peers (keepassxc-cli, pykeepass, KeePass 2): reported as skipped by
    // `swift test`, run with KDBX_E2E=1 (README, "Tests and CI").
    .testTarget(
      name: "KDBXEndToEndTests",
      dependencies: [
        "KDBXFileIO", "KDBX", "KDBXAutoFill", "KDBXImport", "KDBXBase", "KDBXCrypto", "KDBXCompression", "KDBXXML",
        "VectorSupport",
      ]),
    .testTarget(
      name: "KDBXPasskeysTests", dependencies: ["KDBXPasskeys", "KDBX", "KDBXCrypto", "KDBXAutoFill", "VectorSupport"]),
    .testTarget(name: "KDBXFoundationTests", dependencies: ["KDBXFoundation", "KDBX", "KDBXFileIO", "VectorSupport"]),
    // The `kdbx` executable's own routines, in process (`@testable import kdbx`).
    .testTarget(name: "kdbxTests", dependencies: ["kdbx", "KDBX", "KDBXBase", "KDBXXML", "VectorSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
