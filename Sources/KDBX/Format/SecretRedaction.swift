// Descriptions of the values that carry secrets, so that `print`, string interpolation, `debugPrint` and `dump`
// (which apps and crash reporters call on anything) never show them: a one-time password's shared secret, the
// transformed key of an opened or saved file. `CompositeKey` and `ProtectedValue` redact themselves where they are
// defined.

extension OneTimePassword: CustomStringConvertible, CustomDebugStringConvertible {
  /// The parameters without the secret, for example `OneTimePassword(totp, period 30 s, 6 digits, sha1,
  /// secret: <redacted>)`.
  public var description: String {
    let kindText: String
    switch kind {
    case .hotp(let counter): kindText = "hotp, counter \(counter)"
    case .totp(let period): kindText = "totp, period \(period) s"
    }
    let encodingText: String
    switch encoding {
    case .decimal(let digits): encodingText = "\(digits) digits"
    case .steam: encodingText = "steam"
    }
    return "OneTimePassword(\(kindText), \(encodingText), \(algorithm), secret: <redacted>)"
  }

  public var debugDescription: String { description }
}

extension OpenedDatabase: CustomStringConvertible, CustomDebugStringConvertible {
  /// The version and the number of entries, without the transformed key.
  public var description: String {
    "OpenedDatabase(KDBX \(header.version.name), \(database.flatEntries.count) entries, transformedKey: <redacted>)"
  }

  public var debugDescription: String { description }
}

extension SavedFile: CustomStringConvertible, CustomDebugStringConvertible {
  /// The size, without the transformed key.
  public var description: String { "SavedFile(\(bytes.count) bytes, transformedKey: <redacted>)" }

  public var debugDescription: String { description }
}

#if !$Embedded
  extension OneTimePassword: CustomReflectable {
    /// A mirror without the secret, so that `dump` does not show it.
    public var customMirror: Mirror {
      Mirror(self, children: ["algorithm": algorithm, "kind": kind, "startTime": startTime], displayStyle: .struct)
    }
  }

  extension OpenedDatabase: CustomReflectable {
    /// A mirror without the transformed key.
    public var customMirror: Mirror {
      Mirror(self, children: ["header": header, "warnings": warnings], displayStyle: .struct)
    }
  }

  extension SavedFile: CustomReflectable {
    /// A mirror without the transformed key.
    public var customMirror: Mirror { Mirror(self, children: ["byteCount": bytes.count], displayStyle: .struct) }
  }
#endif
