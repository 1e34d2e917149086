// Shared helpers for the cipher tests: a deterministic PRNG.
