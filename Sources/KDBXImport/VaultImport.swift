import KDBX

/// Imports another password manager's export into a new KeePass database: KeePass 2 XML, CSV, Bitwarden JSON and
/// 1Password `.1pux`, recognised from the content (``ImportFormat/detect(_:)``).
///
/// Each import is all or nothing: it returns the whole database, with what it could not carry over listed in
/// ``ImportedDatabase/skipped``, or throws an ``ImportError``. Every size is bounded before it is spent (input,
/// JSON depth and sizes, zip members and their inflated sizes, group nesting at the library's cap), nothing
/// recurses over a depth the file controls, and text a KeePass file cannot store is refused rather than dropped.
/// The result is checked as a save would check it with `KDBXFile.checkSavable(_:settings:)` by the caller that
/// writes it (the `kdbx import` command does so before it asks for a password).
///
/// ```swift
/// import KDBXFileIO  // SystemClock
///
/// var random = SystemRandomNumberGenerator()
/// let imported = try VaultImport.read(exportBytes, clock: SystemClock(), random: &random)
/// print("\(imported.format.name): \(imported.entryCount) entries, \(imported.skipped.count) things skipped")
/// let database = imported.database
/// ```
///
/// A KeePass 1.x `.kdb` file is not an export: `KDBXFile.open` reads it with its password and key file, and the
/// opened database saves as KDBX.
public enum VaultImport {
  /// Reads the export `bytes` into a new database.
  ///
  /// - Parameters:
  ///   - bytes: the whole export file.
  ///   - options: the CSV column mapping; options for another format than the file's are refused.
  ///   - clock: the time new groups and entries are created at (entries keep the times the export gives).
  ///   - random: the source of new UUIDs and of the in-memory protection of passwords.
  /// - Throws: ``ImportError``: `unrecognised` for a KDBX or KeePass 1.x file or bytes that are no export,
  ///   `malformed`, `unsupported`, `tooLarge`, `unstorableText` or `invalidOptions` as described there.
  public static func read(
    _ bytes: [UInt8], options: ImportOptions = ImportOptions(), clock: some WallClock,
    random: inout some RandomNumberGenerator
  ) throws(ImportError) -> ImportedDatabase {
    guard let format = ImportFormat.detect(bytes) else {
      throw .unrecognised(
        bytes.allSatisfy { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
          ? "the file is empty" : "the file is not UTF-8 text: not a CSV, JSON or KeePass 2 XML export")
    }
    if format != .csv && !options.csvColumns.isEmpty {
      throw .invalidOptions("CSV columns were given for a \(format.name) file")
    }
    var vault: ImportedVault
    switch format {
    case .kdbx:
      throw .unrecognised("the file is a KDBX database already: open it, nothing to import")
    case .keePass1:
      throw .unrecognised("the file is a KeePass 1.x database: open it with its password and save it as KDBX")
    case .keePassXML:
      return try KeePassXMLImport.read(bytes, random: &random)
    case .csv:
      // `detect` checked the bytes are UTF-8: the reader makes its strings straight from them.
      vault = try CSVImport.read(bytes, columns: options.csvColumns)
    case .bitwardenJSON:
      vault = try BitwardenImport.read(bytes)
    case .onePassword1PUX:
      vault = try OnePasswordImport.read(bytes)
    }
    // The records keep their count when the database is made (each is emptied); the groups are counted there.
    let database = try vault.database(clock: clock, random: &random)
    return ImportedDatabase(
      format: format, database: database, entryCount: vault.records.count, groupCount: vault.groupCount,
      skipped: vault.report)
  }
}

/// What an import made: the database, and what the export held that it could not carry over.
public struct ImportedDatabase {
  /// The kind of export read.
  public var format: ImportFormat
  /// The new database: a fresh root group (named after the source, or the CSV's shared first group) holding the
  /// imported groups and entries.
  public var database: Database
  /// The number of entries imported.
  public var entryCount: Int
  /// The number of groups below the root.
  public var groupCount: Int
  /// What was not carried over, one sentence each, naming the item ("'Bank': the linked field 'PIN' (it only
  /// points at another field)"). The text comes from the file: escape it before showing it on a terminal.
  public var skipped: [String]
}

/// How to read an export; only CSV files take options today.
public struct ImportOptions: Sendable {
  /// Which column holds each field of a CSV export, over the header names recognised by default (Group, Title,
  /// Username, Password, URL, Notes, TOTP, Tags, Icon, Last Modified, Created and their usual synonyms).
  public var csvColumns: [CSVField: CSVColumn]

  /// Options with the given CSV column mapping (none by default).
  public init(csvColumns: [CSVField: CSVColumn] = [:]) { self.csvColumns = csvColumns }
}

/// A field a CSV column can be mapped to (``ImportOptions/csvColumns``).
public enum CSVField: String, Sendable, CaseIterable {
  /// The entry's group, a `/`-separated path.
  case group
  case title, username, password, url, notes
  /// A one-time password: an `otpauth://` URI or a base32 secret.
  case totp
  /// Tags separated by `;` or `,`.
  case tags
  /// A KeePass standard icon number (0-68).
  case icon
  /// The last modification time (ISO 8601).
  case modified
  /// The creation time (ISO 8601).
  case created
}

/// A column of a CSV export: by its header name (case-insensitive) or its 1-based number.
public enum CSVColumn: Sendable, Hashable {
  case named(String)
  case number(Int)
}
