// The JavaScript side of kdbx.wasm: instantiates the module with the five functions it imports (memory growth,
// crypto.getRandomValues, the clock, the KDF's progress) and wraps its C ABI (Sources/KDBXWasm/Exports.swift) in
// plain functions. Works in a browser (page or Web Worker) and in Node 18+. No dependencies.

/** Status codes of the module (Sources/KDBXWasm/WasmStatus.swift). */
export const STATUS = [
  "ok", "wrongKey", "damaged", "notKeePass", "unsupported", "limitExceeded", "badKeyFile", "cancelled",
  "badRequest", "readOnly", "selfTestFailed", "outOfMemory",
];

/** A failed call: `code` is the status number, `status` its name, `message` the module's words. */
export class KDBXError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
    this.status = STATUS[code] ?? "trap";
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * Loads the module. `source` is the wasm file's bytes, a WebAssembly.Module, or a Response (fetch).
 * `onProgress(fraction)` is called while a key derivation runs; returning false cancels it.
 */
export async function loadKDBX(source, { onProgress = null, memoryCapMiB = 1024 } = {}) {
  let exports = null;
  const progress = { callback: onProgress };
  const imports = {
    env: {
      memory_pages: () => exports.memory.buffer.byteLength / 65536,
      memory_grow: (pages) => {
        try {
          return exports.memory.grow(pages);
        } catch {
          return -1; // the engine refused (RangeError): the module reports outOfMemory
        }
      },
      random_fill: (pointer, count) => {
        // getRandomValues fills at most 65536 bytes a call.
        for (let done = 0; done < count; done += 65536) {
          const length = Math.min(65536, count - done);
          crypto.getRandomValues(new Uint8Array(exports.memory.buffer, pointer + done, length));
        }
      },
      now_ms: () => Date.now(),
      kdf_progress: (fraction) => (progress.callback && progress.callback(fraction) === false ? 0 : 1),
    },
  };
  let instance;
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, imports);
  } else if (typeof Response !== "undefined" && source instanceof Response) {
    instance = (await WebAssembly.instantiateStreaming(source, imports)).instance;
  } else {
    instance = (await WebAssembly.instantiate(source, imports)).instance;
  }
  exports = instance.exports;
  exports.kdbx_set_memory_cap_mib(memoryCapMiB);
  return new KDBX(exports, progress);
}

/** One instance of the module and the vaults open in it. */
export class KDBX {
  constructor(exports, progress) {
    this.exports = exports;
    this.progress = progress;
  }

  set onProgress(callback) {
    this.progress.callback = callback;
  }

  /** Copies `bytes` (Uint8Array or string) into module memory; returns [pointer, length]. */
  #put(bytes) {
    if (bytes == null) return [0, 0];
    if (typeof bytes === "string") bytes = encoder.encode(bytes);
    if (bytes.length === 0) return [0, 0];
    const pointer = this.exports.kdbx_alloc(bytes.length);
    if (pointer === 0) throw new KDBXError(11, `cannot allocate ${bytes.length} bytes in the module`);
    new Uint8Array(this.exports.memory.buffer, pointer, bytes.length).set(bytes);
    return [pointer, bytes.length];
  }

  /** Zeroes and frees what #put allocated (passwords among them). */
  #release(...ranges) {
    for (const [pointer, length] of ranges) {
      if (pointer === 0) continue;
      new Uint8Array(this.exports.memory.buffer, pointer, length).fill(0);
      this.exports.kdbx_free(pointer);
    }
  }

  /** The result buffer as a copy of its bytes. */
  #resultBytes() {
    const pointer = this.exports.kdbx_result_pointer();
    const length = this.exports.kdbx_result_length();
    return new Uint8Array(this.exports.memory.buffer, pointer, length).slice();
  }

  /** Runs an export with the ranges of `inputs`; returns the result bytes, or throws KDBXError. */
  #call(name, inputs, makeArguments) {
    const ranges = inputs.map((input) => this.#put(input));
    let status;
    try {
      status = this.exports[name](...makeArguments(ranges));
    } catch (error) {
      // A trap (which the module is written never to reach) leaves the instance unusable: say so plainly.
      throw new KDBXError(-1, `the WebAssembly module stopped (${error.message}); reload the page`);
    } finally {
      this.#release(...ranges);
    }
    const bytes = this.#resultBytes();
    if (status !== 0) throw new KDBXError(status, decoder.decode(bytes));
    return bytes;
  }

  #json(bytes) {
    return JSON.parse(decoder.decode(bytes));
  }

  /** The library's self-test: { passed, checks: [...] } (does not throw when a check fails). */
  selfTest() {
    const status = this.exports.kdbx_selftest();
    return { status, ...this.#json(this.#resultBytes()) };
  }

  /**
   * Opens a vault. `password` is a string, or null for a key-file-only vault; `keyFile` a Uint8Array or null.
   * Returns { handle, vault, text } where `vault` is the `kdbx export --format json` document (protected values
   * null unless `reveal`) and `text` the JSON as the module wrote it.
   */
  open(fileBytes, password, keyFile = null, { reveal = false } = {}) {
    const handleBox = this.exports.kdbx_alloc(4);
    try {
      const flags = (password != null ? 1 : 0) | (reveal ? 2 : 0);
      const bytes = this.#call("kdbx_open", [fileBytes, password ?? null, keyFile], ([f, p, k]) => [
        f[0], f[1], p[0], p[1], k[0], k[1], flags, handleBox,
      ]);
      const handle = new Int32Array(this.exports.memory.buffer, handleBox, 1)[0];
      const text = decoder.decode(bytes);
      return { handle, vault: JSON.parse(text), text };
    } finally {
      this.exports.kdbx_free(handleBox);
    }
  }

  exportJSON(handle, { reveal = false } = {}) {
    return this.#json(this.#call("kdbx_export_json", [], () => [handle, reveal ? 2 : 0]));
  }

  /** One field of an entry in clear (for showing or copying a password). */
  field(handle, uuid, name) {
    const bytes = this.#call("kdbx_entry_field", [uuid, name], ([u, n]) => [handle, u[0], u[1], n[0], n[1]]);
    this.exports.kdbx_result_clear();
    return decoder.decode(bytes);
  }

  /** { code, period, remaining } of the entry's one-time password now. */
  totp(handle, uuid) {
    return this.#json(this.#call("kdbx_totp", [uuid], ([u]) => [handle, u[0], u[1]]));
  }

  static #fields(fields) {
    return Object.entries(fields).map(([name, value]) => `${name}\0${value}`).join("\0");
  }

  /** Sets fields ({ Title: "...", Password: "..." }) of an entry; returns the vault's JSON. */
  editEntry(handle, uuid, fields) {
    const bytes = this.#call("kdbx_edit_entry", [uuid, KDBX.#fields(fields)], ([u, f]) => [
      handle, u[0], u[1], f[0], f[1],
    ]);
    return this.#json(bytes);
  }

  /** Adds an entry to a group (null: the root); returns its UUID. */
  addEntry(handle, groupUUID, fields) {
    const bytes = this.#call("kdbx_add_entry", [groupUUID ?? "", KDBX.#fields(fields)], ([g, f]) => [
      handle, g[0], g[1], f[0], f[1],
    ]);
    return decoder.decode(bytes);
  }

  /** The vault saved as a new file (Uint8Array), with the key and settings it was opened with. */
  save(handle) {
    const bytes = this.#call("kdbx_save", [], () => [handle]);
    this.exports.kdbx_result_clear();
    return bytes;
  }

  close(handle) {
    this.exports.kdbx_close(handle);
    this.exports.kdbx_result_clear();
  }

  /** Argon2id tag (hex) of a fixed password and salt: for timing only. */
  argon2id(memoryKiB, iterations, lanes) {
    return decoder.decode(this.#call("kdbx_bench_argon2id", [], () => [memoryKiB, iterations, lanes]));
  }

  /** Bytes of module memory in use, and the most at once. */
  heap() {
    return { inUse: this.exports.kdbx_heap_in_use() >>> 0, peak: this.exports.kdbx_heap_peak() >>> 0 };
  }
}
