// Runs kdbx.wasm in Node for real, against the native build (the CI step .ci/wasm-node.sh):
//   node Web/test/node-test.mjs [--figures]
// Environment: KDBX_BIN (default .build/release/kdbx, else .build/debug/kdbx), KDBX_BENCH (kdbx-bench, for figures).
// Prints one line per check (ok / FAIL / SKIP) and exits 1 when a check failed. Never asserts on timing.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, loadavg, cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadKDBX, KDBXError } from "../kdbx-wasm.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const demoPath = join(root, "Vectors/demo/demo.kdbx");
const demoPassword = "demo";
const figures = process.argv.includes("--figures");
let failures = 0;
const ok = (name) => console.log(`ok   ${name}`);
const fail = (name, detail) => {
  failures += 1;
  console.log(`FAIL ${name}${detail ? `: ${detail}` : ""}`);
};
const check = (condition, name, detail) => (condition ? ok(name) : fail(name, detail));

const kdbxBin = [process.env.KDBX_BIN, join(root, ".build/release/kdbx"), join(root, ".build/debug/kdbx")].find(
  (path) => path && existsSync(path),
);
if (!kdbxBin) {
  console.log("FAIL no native kdbx binary (swift build --product kdbx first, or set KDBX_BIN)");
  process.exit(1);
}
/** Runs the native CLI with `input` on standard input; returns { status, stdout, stderr }. */
function native(args, input) {
  const result = spawnSync(kdbxBin, args, { input, encoding: "utf8", maxBuffer: 64 << 20 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
function findEntry(vault, path, title) {
  return vault.entries.find((entry) => entry.title === title && entry.groupPath.join("/") === path);
}

const wasmPath = join(root, "Web/kdbx.wasm");
if (!existsSync(wasmPath)) {
  console.log("FAIL Web/kdbx.wasm is missing (bash Web/build.sh)");
  process.exit(1);
}
const wasmBytes = readFileSync(wasmPath);
const module = await WebAssembly.compile(wasmBytes);
let progressCalls = 0;
const kdbx = await loadKDBX(module, { onProgress: () => void (progressCalls += 1) });
console.log(`kdbx.wasm: ${wasmBytes.length} bytes; native: ${kdbxBin}`);

// 1. The library's self-test, inside the module, against the native one.
const selfTest = kdbx.selfTest();
const nativeSelfTest = JSON.parse(native(["selftest", "--json"]).stdout);
check(
  selfTest.status === 0 && selfTest.passed && selfTest.checks.length > 0,
  `selftest in wasm: ${selfTest.checks.length} checks passed`,
  selfTest.checks.filter((c) => !c.passed).map((c) => c.primitive).join(", "),
);
check(
  JSON.stringify(selfTest.checks.map((c) => [c.primitive, c.source])) ===
    JSON.stringify(nativeSelfTest.checks.map((c) => [c.primitive, c.source])),
  "selftest in wasm runs the same checks as kdbx selftest --json",
);

// 2. The demo vault: the module's JSON equals the CLI's export, byte for byte.
const demo = readFileSync(demoPath);
const opened = kdbx.open(demo, demoPassword, null, { reveal: true });
check(progressCalls > 0, `open demo.kdbx reported the KDF's progress (${progressCalls} calls)`);
const exported = native(["export", demoPath, "--format", "json"], demoPassword + "\n");
check(exported.status === 0, "kdbx export --format json of demo.kdbx", exported.stderr);
check(
  opened.text + "\n" === exported.stdout,
  `the module's JSON equals kdbx export --format json byte for byte (${opened.vault.entries.length} entries, ` +
    `${opened.vault.groups.length} groups, ${opened.text.length} bytes)`,
);
const hidden = kdbx.exportJSON(opened.handle);
const hiddenPasswords = hidden.entries.filter((entry) => entry.password !== null).length;
check(hiddenPasswords === 0, "without reveal, every protected password is null", `${hiddenPasswords} shown`);
const github = findEntry(hidden, "Internet", "GitHub");
check(github !== undefined, "the demo's Internet/GitHub entry is listed");
check(
  kdbx.field(opened.handle, github.uuid, "Password") === findEntry(opened.vault, "Internet", "GitHub").password,
  "kdbx_entry_field reveals the one password asked for",
);

// 3. Errors: a wrong password is told apart from damage; nothing traps.
function statusOf(action) {
  try {
    action();
    return "ok";
  } catch (error) {
    if (!(error instanceof KDBXError)) throw error;
    return error.status;
  }
}
check(statusOf(() => kdbx.open(demo, "wrong password")) === "wrongKey", "a wrong password gives wrongKey");
const truncated = demo.subarray(0, Math.floor(demo.length * 0.6));
const truncatedStatus = statusOf(() => kdbx.open(truncated, demoPassword));
check(truncatedStatus === "damaged", "a truncated file gives damaged", truncatedStatus);
const flipped = Uint8Array.from(demo);
flipped[flipped.length - 40] ^= 1;
const flippedStatus = statusOf(() => kdbx.open(flipped, demoPassword));
check(flippedStatus === "damaged", "a flipped bit in the payload gives damaged", flippedStatus);
check(statusOf(() => kdbx.open(new TextEncoder().encode("hello"), "x")) === "notKeePass", "text gives notKeePass");
check(statusOf(() => kdbx.totp(999, github.uuid)) === "badRequest", "an unknown handle gives badRequest");
check(statusOf(() => kdbx.editEntry(opened.handle, "not-a-uuid", { Title: "x" })) === "badRequest", "a bad UUID");
check(
  statusOf(() => kdbx.editEntry(opened.handle, github.uuid, { Title: "bell\u0007" })) === "badRequest",
  "a control character XML cannot store gives badRequest",
);

// 4. TOTP: the module's code equals the CLI's at the same moment (retried across a period boundary).
const bank = findEntry(hidden, "Finance", "Bank");
let totpMatched = false;
for (let attempt = 0; attempt < 3 && !totpMatched; attempt += 1) {
  const before = kdbx.totp(opened.handle, bank.uuid);
  const cli = native(["totp", demoPath, "Finance/Bank"], demoPassword + "\n").stdout.trim();
  const after = kdbx.totp(opened.handle, bank.uuid);
  totpMatched = before.code === after.code && cli.includes(before.code);
  if (totpMatched) ok(`TOTP of Finance/Bank equals kdbx totp (period ${before.period} s, ${before.remaining} s left)`);
}
if (!totpMatched) fail("TOTP of Finance/Bank equals kdbx totp");

// 5. Edit, add, save; the saved bytes open in the module, the native CLI and keepassxc-cli.
const newPassword = "correct horse battery staple 🐎";
kdbx.editEntry(opened.handle, github.uuid, { UserName: "alex-wasm", Password: newPassword, Notes: "edited in wasm" });
const addedUUID = kdbx.addEntry(opened.handle, null, { Title: "Added in wasm", UserName: "node", Password: "p4ss" });
const saved = kdbx.save(opened.handle);
check(saved.length > 0 && saved[0] === 0x03 && saved[1] === 0xd9, `save returned a KDBX file (${saved.length} bytes)`);
const work = mkdtempSync(join(tmpdir(), "kdbx-wasm-"));
const savedPath = join(work, "saved.kdbx");
writeFileSync(savedPath, saved);
const reopened = kdbx.open(saved, demoPassword, null, { reveal: true });
const editedInWasm = findEntry(reopened.vault, "Internet", "GitHub");
check(
  editedInWasm.password === newPassword && editedInWasm.username === "alex-wasm" &&
    editedInWasm.historyCount === github.historyCount + 1,
  "the saved bytes open in the module with the edit and one more history item",
);
const nativeSaved = native(["export", savedPath, "--format", "json"], demoPassword + "\n");
check(nativeSaved.status === 0, "the native CLI opens the saved file", nativeSaved.stderr);
if (nativeSaved.status === 0) {
  const nativeVault = JSON.parse(nativeSaved.stdout);
  check(
    JSON.stringify(nativeVault) === JSON.stringify(reopened.vault),
    "the native CLI's export of the saved file equals the module's JSON",
  );
  const before = JSON.parse(exported.stdout);
  const untouched = (vault) =>
    JSON.stringify(vault.entries.filter((e) => e.uuid !== github.uuid && e.uuid !== addedUUID));
  check(untouched(nativeVault) === untouched(before), "every other entry is unchanged after the save");
  check(
    JSON.stringify(nativeVault.groups) === JSON.stringify(before.groups) &&
      JSON.stringify(nativeVault.deletedObjects) === JSON.stringify(before.deletedObjects),
    "groups and deleted objects are unchanged after the save",
  );
}
const verify = native(["verify", savedPath], demoPassword + "\n");
check(verify.status === 0, "kdbx verify passes on the saved file", verify.stdout + verify.stderr);
const keepassxc = spawnSync("sh", ["-c", "command -v keepassxc-cli"], { encoding: "utf8" }).stdout.trim();
if (!keepassxc) {
  console.log("SKIP keepassxc-cli is not installed: the saved file was not opened by KeePassXC");
} else {
  const shown = spawnSync(keepassxc, ["show", "-q", "-s", savedPath, "Internet/GitHub"], {
    input: demoPassword + "\n",
    encoding: "utf8",
  });
  check(
    shown.status === 0 && shown.stdout.includes(`Password: ${newPassword}`) && shown.stdout.includes("alex-wasm"),
    "keepassxc-cli show opens the saved file and shows the edited entry",
    shown.stderr,
  );
  const added = spawnSync(keepassxc, ["show", "-q", "-s", savedPath, "Added in wasm"], {
    input: demoPassword + "\n",
    encoding: "utf8",
  });
  check(added.status === 0 && added.stdout.includes("Password: p4ss"), "keepassxc-cli shows the added entry");
}
// 6. Vaults the native CLI creates: a key file (with and without a password), KDBX 3.1 with AES-KDF, Twofish.
const keyFilePath = join(work, "vault.keyx");
native(["create-key-file", keyFilePath]);
const keyFile = readFileSync(keyFilePath);
const made = [
  ["key file + password", ["--key-file", keyFilePath, "--memory", "1", "--iterations", "2"], "pw", keyFile],
  ["key file only", ["--key-file", keyFilePath, "--no-password", "--memory", "1", "--iterations", "2"], null, keyFile],
  ["KDBX 3.1, AES-KDF", ["--format", "3.1", "--kdf", "aes-kdf", "--rounds", "1000"], "pw", null],
  ["KDBX 4.1, Twofish, Argon2d", ["--format", "4.1", "--cipher", "twofish", "--kdf", "argon2d", "--memory", "1",
    "--iterations", "2"], "pw", null],
];
for (const [name, options, password, key] of made) {
  const path = join(work, `${name.replace(/[^a-z0-9]/gi, "")}.kdbx`);
  const created = native(["create", path, "--name", name, ...options], password === null ? "" : password + "\n");
  if (created.status !== 0) {
    fail(`kdbx create (${name})`, created.stderr);
    continue;
  }
  const bytes = readFileSync(path);
  const vault = kdbx.open(bytes, password, key);
  check(vault.vault.meta.name === name, `a vault with ${name} opens in the module`);
  kdbx.editEntry(vault.handle, kdbx.addEntry(vault.handle, null, { Title: "t" }), { Password: "secret" });
  const again = kdbx.open(kdbx.save(vault.handle), password, key, { reveal: true });
  check(again.vault.entries[0]?.password === "secret", `... and saves in the same format (${again.vault.version})`);
  if (key) {
    const wrong = statusOf(() => kdbx.open(bytes, password, new TextEncoder().encode("another key file")));
    check(wrong === "wrongKey", `... and a different key file gives wrongKey`, wrong);
  }
  kdbx.close(again.handle);
  kdbx.close(vault.handle);
}

// 7. A memory cap too small for the demo's 16 MiB Argon2 is an error, not a trap; the instance keeps working.
const small = await loadKDBX(module, { memoryCapMiB: 16 });
const capped = statusOf(() => small.open(demo, demoPassword));
check(capped === "limitExceeded" || capped === "outOfMemory", `a 16 MiB memory cap refuses the demo (${capped})`);
check(small.selfTest().passed, "the capped instance still runs its self-test afterwards");

rmSync(work, { recursive: true, force: true });
kdbx.close(reopened.handle);
kdbx.close(opened.handle);
const heap = kdbx.heap();
console.log(`module heap: ${(heap.peak / 1048576).toFixed(1)} MiB at most, ${heap.inUse} bytes in use after closing`);

// 8. Figures (README, "WebAssembly"): medians of alternating runs, in one process; load noted.
if (figures) {
  const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const time = (action) => {
    const start = process.hrtime.bigint();
    action();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const runs = Number(process.env.WASM_FIGURE_RUNS ?? 7);
  const benchBin = process.env.KDBX_BENCH ?? join(root, ".build/release/kdbx-bench");
  const samples = { wasmOpen: [], nativeOpen: [], wasmArgon: [], nativeArgon: [] };
  const loadBefore = loadavg()[0];
  let tagsMatch = null;
  for (let run = 0; run < runs; run += 1) {
    samples.wasmOpen.push(
      time(() => {
        const { handle } = kdbx.open(demo, demoPassword);
        kdbx.close(handle);
      }),
    );
    samples.nativeOpen.push(time(() => native(["export", demoPath, "--format", "json"], demoPassword + "\n")));
    let wasmTag = "";
    samples.wasmArgon.push(time(() => (wasmTag = kdbx.argon2id(65536, 2, 1))));
    if (existsSync(benchBin)) {
      const output = execFileSync(benchBin, ["--derive", "id", "64", "2", "1"], { encoding: "utf8" });
      const match = output.match(/ ([0-9.]+) ms tag ([0-9a-f]+)/);
      if (match) {
        samples.nativeArgon.push(Number(match[1]));
        // kdbx-bench prints the first eight bytes without leading zeros.
        const prefix = wasmTag.slice(0, 16).match(/../g).map((b) => parseInt(b, 16).toString(16)).join("");
        tagsMatch = (tagsMatch ?? true) && prefix === match[2];
      }
    }
  }
  const load = `load average ${loadBefore.toFixed(2)} -> ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`;
  const line = (name, wasm, nat, note) =>
    console.log(
      `figure ${name}: wasm ${median(wasm).toFixed(1)} ms, native ${nat.length ? median(nat).toFixed(1) : "n/a"} ms` +
        (nat.length ? ` (wasm/native ${(median(wasm) / median(nat)).toFixed(2)}x)` : "") + `; ${note}`,
    );
  line("open demo.kdbx (Argon2id 16 MiB t=2 p=2)", samples.wasmOpen, samples.nativeOpen,
    "native = whole kdbx export process");
  line("Argon2id 64 MiB t=2 p=1", samples.wasmArgon, samples.nativeArgon, "native = kdbx-bench --derive in-process");
  console.log(`figure medians of ${runs} alternating runs, ${load}; module ${wasmBytes.length} bytes`);
  if (tagsMatch !== null) check(tagsMatch, "the module's Argon2id tag equals kdbx-bench's");
}

if (failures > 0) {
  console.log(`wasm node test: ${failures} failure(s)`);
  process.exit(1);
}
console.log("wasm node test: all checks passed");
