// A stand-in for the Apple-only Foundation declarations that Sources/KDBXFoundation/FileCoordination.swift uses
// (swift-corelibs-foundation on Linux has none of them), with the signatures of Apple's SDK (Foundation's Swift
// interface, macOS 13 / iOS 16). It lets .ci/darwin-check.sh type-check the Apple branch on Linux; it is never
// linked into anything, so the bodies only satisfy the compiler.
import Foundation

/// Apple: `typealias NSErrorPointer = AutoreleasingUnsafeMutablePointer<NSError?>?` (no Objective-C runtime here);
/// both accept `&error` for a `var error: NSError?`.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// Apple: `protocol NSFilePresenter: NSObjectProtocol`.
public protocol NSFilePresenter: AnyObject {}

/// Apple: `class NSFileCoordinator: NSObject`.
open class NSFileCoordinator {
  public struct ReadingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let withoutChanges = ReadingOptions(rawValue: 1 << 0)
    public static let resolvesSymbolicLink = ReadingOptions(rawValue: 1 << 1)
    public static let immediatelyAvailableMetadataOnly = ReadingOptions(rawValue: 1 << 2)
    public static let forUploading = ReadingOptions(rawValue: 1 << 3)
  }

  public struct WritingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let forDeleting = WritingOptions(rawValue: 1 << 0)
    public static let forMoving = WritingOptions(rawValue: 1 << 1)
    public static let forMerging = WritingOptions(rawValue: 1 << 2)
    public static let forReplacing = WritingOptions(rawValue: 1 << 3)
    public static let contentIndependentMetadataOnly = WritingOptions(rawValue: 1 << 4)
  }

  public init(filePresenter filePresenterOrNil: (any NSFilePresenter)?) {}

  open func coordinate(
    readingItemAt url: URL, options: NSFileCoordinator.ReadingOptions = [], error outError: NSErrorPointer,
    byAccessor reader: (URL) -> Void
  ) {}

  open func coordinate(
    writingItemAt url: URL, options: NSFileCoordinator.WritingOptions = [], error outError: NSErrorPointer,
    byAccessor writer: (URL) -> Void
  ) {}
}

extension URL {
  /// Apple: `func startAccessingSecurityScopedResource() -> Bool`.
  public func startAccessingSecurityScopedResource() -> Bool { false }
  /// Apple: `func stopAccessingSecurityScopedResource()`.
  public func stopAccessingSecurityScopedResource() {}
}
