// The Swift part of the Darwin stand-in (see ../darwin-check.sh): what Apple's Swift overlay adds over the C
// headers in ./darwin.h, with the overlay's signatures (swift/stdlib/public/Platform: Platform.swift, POSIXError,
// the `open`/`fcntl` wrappers). Bodies are placeholders: this module is only type-checked against, never run.
@_exported import _DarwinStandInC

/// `errno`, which C defines as `(*__error())`.
public var errno: Int32 {
  get { __error().pointee }
  set { __error().pointee = newValue }
}

// <fcntl.h>: `open` and `fcntl` are variadic in C; the overlay gives them fixed forms.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { -1 }
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { -1 }
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { -1 }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { -1 }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 { -1 }

// <sys/mman.h>: MAP_FAILED is `((void *)-1)` in C.
public var MAP_FAILED: UnsafeMutableRawPointer! { UnsafeMutableRawPointer(bitPattern: -1) }

// <sys/stat.h>: the overlay declares the file type bits as `mode_t`.
public var S_IFMT: mode_t { mode_t(0o170000) }
public var S_IFIFO: mode_t { mode_t(0o010000) }
public var S_IFCHR: mode_t { mode_t(0o020000) }
public var S_IFDIR: mode_t { mode_t(0o040000) }
public var S_IFBLK: mode_t { mode_t(0o060000) }
public var S_IFREG: mode_t { mode_t(0o100000) }
public var S_IFLNK: mode_t { mode_t(0o120000) }
public var S_IFSOCK: mode_t { mode_t(0o140000) }
