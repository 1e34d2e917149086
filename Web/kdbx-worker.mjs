// The Web Worker that owns kdbx.wasm, so that the key derivation (seconds of Argon2 or AES-KDF) never freezes the
// page. Messages in: { id, op, args }; out: { id, result } or { id, error: { status, code, message } }, and
// { progress } while a KDF runs. Nothing here talks to the network: the vault, the password and the key file come
// from the page and go back to it only.
import { loadKDBX, KDBXError } from "./kdbx-wasm.mjs";

const operations = new Set(["selfTest", "open", "exportJSON", "field", "totp", "editEntry", "addEntry", "save", "close"]);
let loading = null;

function instance() {
  loading ??= fetch(new URL("./kdbx.wasm", import.meta.url))
    .then((response) => {
      if (!response.ok) throw new Error(`kdbx.wasm: HTTP ${response.status} (build it with bash Web/build.sh)`);
      return response.arrayBuffer();
    })
    .then((bytes) => loadKDBX(bytes, { onProgress: (fraction) => void postMessage({ progress: fraction }) }));
  return loading;
}

onmessage = async ({ data: { id, op, args } }) => {
  try {
    if (!operations.has(op)) throw new Error(`unknown operation ${op}`);
    const kdbx = await instance();
    const result = kdbx[op](...args);
    postMessage({ id, result }, result instanceof Uint8Array ? [result.buffer] : []);
  } catch (error) {
    if (error instanceof KDBXError && error.code === -1) loading = null; // a trapped instance is replaced
    postMessage({
      id,
      error: { status: error.status ?? "error", code: error.code ?? -1, message: error.message ?? String(error) },
    });
  }
};
