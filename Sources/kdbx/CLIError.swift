/// Errors the CLI reports. Each maps to an exit status: 2 for a wrong password or key file, 1 otherwise.
enum CLIError: Error {
  /// Bad arguments: the message says which, and the user is pointed to `--help`.
  case usage(String)
  /// The credentials do not open the database.
  case invalidCredentials
  /// Anything else, with a message that names the problem.
  case failure(String)

  var exitStatus: Int32 {
    switch self {
    case .invalidCredentials: return 2
    case .usage, .failure: return 1
    }
  }

  var message: String {
    switch self {
    case .usage(let text): return "\(text) (see 'kdbx --help')"
    case .invalidCredentials: return "wrong password or key file"
    case .failure(let text): return text
    }
  }
}
