// The KeePass standard icon palette. The names and numbers are KeePass's own (PwIcon, KeePassLib/PwEnums.cs);
// the SF Symbol names are this project's suggestions for Apple platforms.

/// One of the 69 standard icons KeePass stores as `<IconID>` 0...68.
///
/// Unknown indices (a newer KeePass, or a damaged file) are kept as the raw number by the model; ``init(rawValue:)``
/// returns `nil` for them and ``sfSymbolName(forIconID:)`` falls back to `key.fill`.
package enum StandardIcon: Int, CaseIterable, Sendable {
  case key = 0
  case world = 1
  case warning = 2
  case networkServer = 3
  case markedDirectory = 4
  case userCommunication = 5
  case parts = 6
  case notepad = 7
  case worldSocket = 8
  case identity = 9
  case paperReady = 10
  case digicam = 11
  case irCommunication = 12
  case multiKeys = 13
  case energy = 14
  case scanner = 15
  case worldStar = 16
  case cdRom = 17
  case monitor = 18
  case email = 19
  case configuration = 20
  case clipboardReady = 21
  case paperNew = 22
  case screen = 23
  case energyCareful = 24
  case emailBox = 25
  case disk = 26
  case drive = 27
  case paperQ = 28
  case terminalEncrypted = 29
  case console = 30
  case printer = 31
  case programIcons = 32
  case run = 33
  case settings = 34
  case worldComputer = 35
  case archive = 36
  case homebanking = 37
  case driveWindows = 38
  case clock = 39
  case emailSearch = 40
  case paperFlag = 41
  case memory = 42
  case trashBin = 43
  case note = 44
  case expired = 45
  case info = 46
  case package = 47
  case folder = 48
  case folderOpen = 49
  case folderPackage = 50
  case lockOpen = 51
  case paperLocked = 52
  case checked = 53
  case pen = 54
  case thumbnail = 55
  case book = 56
  case list = 57
  case userKey = 58
  case tool = 59
  case home = 60
  case star = 61
  case tux = 62
  case feather = 63
  case apple = 64
  case wiki = 65
  case money = 66
  case certificate = 67
  case blackBerry = 68

  /// KeePass's own name for the icon (the `PwIcon` member name), for example `EMail` or `TrashBin`.
  package var keePassName: String {
    switch self {
    case .key: return "Key"
    case .world: return "World"
    case .warning: return "Warning"
    case .networkServer: return "NetworkServer"
    case .markedDirectory: return "MarkedDirectory"
    case .userCommunication: return "UserCommunication"
    case .parts: return "Parts"
    case .notepad: return "Notepad"
    case .worldSocket: return "WorldSocket"
    case .identity: return "Identity"
    case .paperReady: return "PaperReady"
    case .digicam: return "Digicam"
    case .irCommunication: return "IRCommunication"
    case .multiKeys: return "MultiKeys"
    case .energy: return "Energy"
    case .scanner: return "Scanner"
    case .worldStar: return "WorldStar"
    case .cdRom: return "CDRom"
    case .monitor: return "Monitor"
    case .email: return "EMail"
    case .configuration: return "Configuration"
    case .clipboardReady: return "ClipboardReady"
    case .paperNew: return "PaperNew"
    case .screen: return "Screen"
    case .energyCareful: return "EnergyCareful"
    case .emailBox: return "EMailBox"
    case .disk: return "Disk"
    case .drive: return "Drive"
    case .paperQ: return "PaperQ"
    case .terminalEncrypted: return "TerminalEncrypted"
    case .console: return "Console"
    case .printer: return "Printer"
    case .programIcons: return "ProgramIcons"
    case .run: return "Run"
    case .settings: return "Settings"
    case .worldComputer: return "WorldComputer"
    case .archive: return "Archive"
    case .homebanking: return "Homebanking"
    case .driveWindows: return "DriveWindows"
    case .clock: return "Clock"
    case .emailSearch: return "EMailSearch"
    case .paperFlag: return "PaperFlag"
    case .memory: return "Memory"
    case .trashBin: return "TrashBin"
    case .note: return "Note"
    case .expired: return "Expired"
    case .info: return "Info"
    case .package: return "Package"
    case .folder: return "Folder"
    case .folderOpen: return "FolderOpen"
    case .folderPackage: return "FolderPackage"
    case .lockOpen: return "LockOpen"
    case .paperLocked: return "PaperLocked"
    case .checked: return "Checked"
    case .pen: return "Pen"
    case .thumbnail: return "Thumbnail"
    case .book: return "Book"
    case .list: return "List"
    case .userKey: return "UserKey"
    case .tool: return "Tool"
    case .home: return "Home"
    case .star: return "Star"
    case .tux: return "Tux"
    case .feather: return "Feather"
    case .apple: return "Apple"
    case .wiki: return "Wiki"
    case .money: return "Money"
    case .certificate: return "Certificate"
    case .blackBerry: return "BlackBerry"
    }
  }

  /// A suggested SF Symbol name that looks like the KeePass icon.
  package var sfSymbolName: String {
    switch self {
    case .key: return "key.fill"
    case .world: return "globe"
    case .warning: return "exclamationmark.triangle.fill"
    case .networkServer: return "server.rack"
    case .markedDirectory: return "folder.badge.person.crop"
    case .userCommunication: return "bubble.left.and.bubble.right.fill"
    case .parts: return "puzzlepiece.fill"
    case .notepad: return "note.text"
    case .worldSocket: return "network"
    case .identity: return "person.text.rectangle.fill"
    case .paperReady: return "doc.text.fill"
    case .digicam: return "camera.fill"
    case .irCommunication: return "antenna.radiowaves.left.and.right"
    case .multiKeys: return "key.horizontal.fill"
    case .energy: return "bolt.fill"
    case .scanner: return "scanner.fill"
    case .worldStar: return "star.circle.fill"
    case .cdRom: return "opticaldisc.fill"
    case .monitor: return "display"
    case .email: return "envelope.fill"
    case .configuration: return "gearshape.fill"
    case .clipboardReady: return "list.clipboard.fill"
    case .paperNew: return "doc.badge.plus"
    case .screen: return "rectangle.on.rectangle"
    case .energyCareful: return "bolt.trianglebadge.exclamationmark.fill"
    case .emailBox: return "tray.full.fill"
    case .disk: return "externaldrive.fill"
    case .drive: return "internaldrive.fill"
    case .paperQ: return "doc.questionmark.fill"
    case .terminalEncrypted: return "lock.rectangle.fill"
    case .console: return "terminal.fill"
    case .printer: return "printer.fill"
    case .programIcons: return "square.grid.2x2.fill"
    case .run: return "play.rectangle.fill"
    case .settings: return "slider.horizontal.3"
    case .worldComputer: return "desktopcomputer"
    case .archive: return "archivebox.fill"
    case .homebanking: return "banknote.fill"
    case .driveWindows: return "pc"
    case .clock: return "clock.fill"
    case .emailSearch: return "envelope.badge.magnifyingglass"
    case .paperFlag: return "flag.fill"
    case .memory: return "memorychip.fill"
    case .trashBin: return "trash.fill"
    case .note: return "note"
    case .expired: return "xmark.circle.fill"
    case .info: return "info.circle.fill"
    case .package: return "shippingbox.fill"
    case .folder: return "folder.fill"
    case .folderOpen: return "folder"
    case .folderPackage: return "archivebox"
    case .lockOpen: return "lock.open.fill"
    case .paperLocked: return "lock.doc.fill"
    case .checked: return "checkmark.circle.fill"
    case .pen: return "pencil"
    case .thumbnail: return "photo.fill"
    case .book: return "book.fill"
    case .list: return "list.bullet"
    case .userKey: return "person.badge.key.fill"
    case .tool: return "wrench.and.screwdriver.fill"
    case .home: return "house.fill"
    case .star: return "star.fill"
    case .tux: return "pawprint.fill"
    case .feather: return "leaf.fill"
    case .apple: return "apple.logo"
    case .wiki: return "w.square.fill"
    case .money: return "dollarsign.circle.fill"
    case .certificate: return "checkmark.seal.fill"
    case .blackBerry: return "iphone"
    }
  }

  /// The SF Symbol for a stored `<IconID>`, or `key.fill` when the number is not a standard icon.
  package static func sfSymbolName(forIconID iconID: Int) -> String {
    StandardIcon(rawValue: iconID)?.sfSymbolName ?? StandardIcon.fallbackSFSymbolName
  }

  /// The symbol used for icon numbers outside the palette.
  package static let fallbackSFSymbolName = "key.fill"
}
