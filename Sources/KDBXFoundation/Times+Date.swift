import Foundation
import KDBX

extension Entry {
  /// `Times/CreationTime` as a `Date`, or `nil` when the file has none. Setting `nil` removes it.
  public var creationDate: Date? {
    get { times.date(\.creationTime) }
    set { times.setDate(newValue, \.creationTime) }
  }

  /// `Times/LastModificationTime` as a `Date`, or `nil` when the file has none. ``KDBX/Database/editEntry(_:clock:_:)``
  /// sets it; set it yourself only when importing.
  public var modificationDate: Date? {
    get { times.date(\.lastModificationTime) }
    set { times.setDate(newValue, \.lastModificationTime) }
  }

  /// `Times/LastAccessTime` as a `Date`, or `nil` when the file has none.
  public var lastAccessDate: Date? {
    get { times.date(\.lastAccessTime) }
    set { times.setDate(newValue, \.lastAccessTime) }
  }

  /// ``KDBX/Entry/expiry`` as a `Date`: when the entry expires, or `nil` when it does not. Setting a date turns
  /// expiry on (to the whole second, see ``KDBX/Timestamp/init(_:)``); `nil` turns it off.
  public var expiryDate: Date? {
    get { expiry.map(Date.init) }
    set { expiry = newValue.map(Timestamp.init) }
  }
}

extension Group {
  /// `Times/CreationTime` as a `Date`, or `nil` when the file has none. Setting `nil` removes it.
  public var creationDate: Date? {
    get { times.date(\.creationTime) }
    set { times.setDate(newValue, \.creationTime) }
  }

  /// `Times/LastModificationTime` as a `Date`, or `nil` when the file has none.
  public var modificationDate: Date? {
    get { times.date(\.lastModificationTime) }
    set { times.setDate(newValue, \.lastModificationTime) }
  }

  /// `Times/LastAccessTime` as a `Date`, or `nil` when the file has none.
  public var lastAccessDate: Date? {
    get { times.date(\.lastAccessTime) }
    set { times.setDate(newValue, \.lastAccessTime) }
  }

  /// ``KDBX/Group/expiry`` as a `Date`: when the group expires, or `nil` when it does not.
  public var expiryDate: Date? {
    get { expiry.map(Date.init) }
    set { expiry = newValue.map(Timestamp.init) }
  }
}

extension Optional where Wrapped == Times {
  fileprivate func date(_ field: KeyPath<Times, Timestamp?>) -> Date? {
    self?[keyPath: field].map(Date.init)
  }

  /// Stores `date` in `field`; a `nil` date on an object without times changes nothing.
  fileprivate mutating func setDate(_ date: Date?, _ field: WritableKeyPath<Times, Timestamp?>) {
    let timestamp = date.map(Timestamp.init)
    guard self?[keyPath: field] != timestamp else { return }
    var updated = self ?? Times()
    updated[keyPath: field] = timestamp
    self = updated
  }
}
