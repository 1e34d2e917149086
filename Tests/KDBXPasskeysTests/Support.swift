import KDBX
import KDBXCrypto
import KDBXPasskeys
import VectorSupport

/// A clock that says what it is told.
struct TestClock: WallClock {
  var time: Timestamp
  func now() -> Timestamp { time }
}

enum Keys {
  /// A P-384 PKCS#8 key (made by Python `cryptography`): another curve.
  static let p384 = """
    -----BEGIN PRIVATE KEY-----
    MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDDKA37Sk6yNbrI5EouZ
    RhLdm9TwHivd1kIoyDqibSzRf9iY6OjB1LUE2q20UUnmOjWhZANiAATfbwD1poTr
    jv2e5Sv8bAQ+TYhLf/f/TySLnrt7h3k0H2+fqGIXUJqZnsgrtg0o7ofsVF4bpcyU
    IXz+7O6IBdbKeHieowyxNGhXLpdaQxW6Ihd66lGiE1rB0sISaF2BG1A=
    -----END PRIVATE KEY-----
    """

  /// An RSA-1024 PKCS#8 key (made by Python `cryptography`): kept, never signed with.
  static let rsa = """
    -----BEGIN PRIVATE KEY-----
    MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBALgbZVEh32BCE64z
    A3X/4YwQjlU8E088Ui6ZF7Io5n1x/2BRLj2SG/xtkKNeuT4Q64LMbtmpeoHpl5en
    hUtEumdUdWc6ItNV7pOP3GakHJCAqZJySzCN5Yx0G8sQnwnrn7myp+VeC+9h8Dtd
    dVr8Sp5wx9TLZm2e8f+6fj6nQJIfAgMBAAECgYEAntGLQkT9JFV8Er8REj7te91g
    W2jao3S+1FHeniMoSjkH+zessxKSr9x4dGYnWMJR1+CxE3VfKCixS/MISpj8TuZ8
    Ay9YCDb13jh9WfLxQghiBBAFzAdYl0wQHceo6LMZ2EkoHShE+HnhiXUtMAzTlcFO
    Y5jiZUXug8DvdU1v2PkCQQDamfHb8IE+IwRzCBEQ0gswjhTs/Kcuf/cEPr60VIxV
    5L4xHMn2y9/d/4+W6JIFkzHuU/ok/U9kH7vt/9NzQcuTAkEA15q1CEqs1428MYVE
    FOsEa5ReJRafX9Z30wYiEKY6yQlfUggzZ8izAW3fkfBSesg9JTsCBpft+LqqWvHL
    oFuuxQJAPUKzEs3dikpJ7uqtzabvV9YZayiKuW9HDDuBOgwPn+qQmjbVKoKL5CzA
    Uqwub72GWqHSEhei7g4unk35Ne2UXQJAeqdtY4kv6PSd4kIhKBFHE3h1Un4bLqdQ
    xYEQsg4PFT06t+0oaVtY0nBSJrDkCyuM9XgrP9sAq2Zt8YzqvZBKzQJBAJsaPvSv
    98LyfQqdNme+ruHJZNG/JQOAFj0F4ogkXyoHelCmq7YpXLbDdV19NAEr9E0aNl68
    oeitichqhaLlFFk=
    -----END PRIVATE KEY-----
    """
}

let noon = TestClock(time: Timestamp(unixSeconds: 1_780_315_200))
