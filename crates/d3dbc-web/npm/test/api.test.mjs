// The d3dbc npm package, installed from its tarball, against the `d3dbc` command on a
// handful of corpus inputs: listings, assembled bytes, findings, translations, run
// values and rendered pixels equal the command's; errors carry their fields.
// Run by crates/d3dbc-web/tests/npm.rs: `node --test` in a folder where the packed
// tarball is installed, with D3DBC_CORPUS and D3DBC_CLI set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";

import * as d3dbc from "d3dbc";
import { Shader, Effect, assemble, rip, AsmError, DecodeError, ValidationError, ArgumentError, EffectError, D3dbcError } from "d3dbc";

const CORPUS = process.env.D3DBC_CORPUS;
const CLI = process.env.D3DBC_CLI;
const dir = mkdtempSync(join(tmpdir(), "d3dbc-npm-"));

function records(name) {
  return readFileSync(join(CORPUS, name), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

function bytesOf(dwords) {
  const b = new Uint8Array(dwords.length * 4);
  const v = new DataView(b.buffer);
  dwords.forEach((d, i) => v.setUint32(i * 4, parseInt(d, 16), true));
  return b;
}

function cli(...args) {
  const p = spawnSync(CLI, args, { maxBuffer: 1 << 28 });
  return { status: p.status, stdout: p.stdout, stderr: p.stderr.toString() };
}

function file(name, data) {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

// A handful of corpus shaders: every 20th binary of binaries.jsonl and fxc10_listings.jsonl.
const picked = [...records("binaries.jsonl"), ...records("fxc10_listings.jsonl")]
  .filter((_, i) => i % 20 === 0)
  .map((r, i) => [`s${i}.bin`, bytesOf(r.dwords)]);

test("listing, instructions, constants and findings equal the command's", () => {
  assert.ok(picked.length >= 8);
  for (const [name, data] of picked) {
    const sh = Shader.fromBytes(data);
    const path = file(name, data);
    assert.equal(sh.disassemble(), cli("dis", path).stdout.toString(), name);
    assert.equal(sh.disassemble({ offsets: true, tokens: true }), cli("dis", path, "--offsets", "--tokens").stdout.toString());
    const rec = JSON.parse(cli("dis", path, "--format", "json").stdout)[0].shaders[0];
    const items = rec.items.filter((i) => !("comment" in i));
    const ins = sh.instructions;
    assert.deepEqual(ins.map((i) => i.text), items.map((i) => i.text));
    assert.deepEqual(ins.map((i) => i.offset), items.map((i) => i.offset));
    assert.deepEqual(ins.map((i) => i.dst?.register ?? null), items.map((i) => i.dst?.register ?? null));
    assert.deepEqual(sh.constants.map((c) => [c.name, c.registerName]), (rec.ctab?.constants ?? []).map((c) => [c.name, c.register]));
    const want = JSON.parse(cli("validate", path, "--format", "json").stdout)[0].shaders[0].findings;
    assert.deepEqual(sh.validate().map((f) => [f.code, f.offset, f.message]), want.map((f) => [f.code, f.offset, f.message]));
    assert.deepEqual(Shader.fromBytes(sh.toBytes()).toBytes(), sh.toBytes());
  }
});

test("assemble gives the command's bytes, and AsmError its line and column", () => {
  const cases = records("wine_asm.jsonl").filter((r) => r.expected).filter((_, i) => i % 16 === 0);
  for (const [i, r] of cases.entries()) {
    const sh = assemble(r.text, { validate: false });
    const out = join(dir, `a${i}.bin`);
    execFileSync(CLI, ["asm", file(`a${i}.asm`, r.text), "--no-validate", "-o", out]);
    assert.deepEqual(sh.toBytes(), new Uint8Array(readFileSync(out)));
    assert.deepEqual(sh.toBytes(), bytesOf(r.expected));
  }
  assert.throws(
    () => assemble("ps_2_0\ndcl t0\nmov oC0, r9\n", { fileName: "x.asm" }),
    (e) => e instanceof AsmError && e instanceof D3dbcError && e instanceof Error && e.code === "E0204" && e.line === 3 && e.column === 10 && e.message.startsWith("x.asm:3:10:"),
  );
  const p = cli("asm", file("bad.asm", "ps_2_0\nfrobnicate r0\n"), "-o", join(dir, "bad.pso"));
  assert.throws(() => assemble("ps_2_0\nfrobnicate r0\n", { fileName: join(dir, "bad.asm") }), (e) => {
    assert.ok(p.stderr.includes(`bad.asm:${e.line}:${e.column}:`), p.stderr);
    return e instanceof AsmError;
  });
});

const TARGETS = { spirv: "spv", wgsl: "wgsl", glsl: null, msl: "metal", hlsl: "hlsl" };

test("translations are byte-identical to the command's", () => {
  let n = 0;
  for (const [name, data] of picked) {
    const sh = Shader.fromBytes(data);
    if (sh.validate().some((f) => f.severity === "error")) {
      assert.throws(() => sh.translate("wgsl"), ValidationError);
      continue;
    }
    for (const [target, ext] of Object.entries(TARGETS)) {
      const out = join(dir, `${name}.${ext ?? (sh.isPixel ? "frag" : "vert")}`);
      execFileSync(CLI, ["translate", join(dir, name), "--target", target, "-o", out]);
      const got = sh.translate(target);
      const want = readFileSync(out);
      if (target === "spirv") assert.deepEqual(Buffer.from(got), want);
      else assert.equal(got, want.toString());
    }
    n++;
  }
  assert.ok(n >= 4);
});

test("run values equal `d3dbc run`", () => {
  let n = 0;
  for (const [name, data] of picked) {
    const sh = Shader.fromBytes(data);
    if (sh.validate().some((f) => f.severity === "error")) continue;
    const p = cli("run", join(dir, name), "--format", "json", "--const", "c1=0.5,-2,3");
    const r = sh.run({ constants: { c1: [0.5, -2, 3] } });
    assert.equal(p.status, 0, p.stderr);
    const want = JSON.parse(p.stdout);
    assert.deepEqual(Object.fromEntries(Object.entries(r.outputs).sort()), Object.fromEntries(Object.entries(want.outputs).sort()));
    assert.equal(r.killed, want.killed ?? null);
    n++;
  }
  assert.ok(n >= 4);
  const sh = assemble("ps_2_0\ndcl t0.xy\ndef c1, 0.5, 0.5, 0.5, 0.5\nmul r0, t0, c1\nadd oC0, r0, c0\n");
  assert.deepEqual(sh.run({ inputs: { t0: [0.5, 1] }, constants: { c0: [0, 0, 0, 1] } }).outputs.oC0, [0.25, 0.5, 0, 1.5]);
  assert.throws(() => sh.run({ constants: { c9999: 1 } }), ArgumentError);
});

/** RGBA rows of an 8-bit RGBA PNG, as `d3dbc render` writes it. */
function pngRgba(buf) {
  let pos = 8;
  let w = 0;
  let h = 0;
  const idat = [];
  while (pos < buf.length) {
    const n = buf.readUInt32BE(pos);
    const kind = buf.toString("latin1", pos + 4, pos + 8);
    if (kind === "IHDR") [w, h] = [buf.readUInt32BE(pos + 8), buf.readUInt32BE(pos + 12)];
    if (kind === "IDAT") idat.push(buf.subarray(pos + 8, pos + 8 + n));
    pos += 12 + n;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = w * 4;
  const out = new Uint8Array(stride * h);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= 4 ? out[y * stride + i - 4] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = i >= 4 && y > 0 ? out[(y - 1) * stride + i - 4] : 0;
      const p = a + b - c;
      const pr = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, pr][f]) & 255;
    }
  }
  return { w, h, data: out };
}

test("render pixels equal the command's PNG", () => {
  let n = 0;
  for (const [name, data] of picked) {
    const sh = Shader.fromBytes(data);
    if (!sh.isPixel || sh.validate().some((f) => f.severity === "error")) continue;
    const png = join(dir, `${name}.png`);
    execFileSync(CLI, ["render", join(dir, name), "-o", png, "--size", "40x24", "--const", "c0=0.5,0.25,1,1"]);
    const px = sh.render({ width: 40, height: 24, constants: { c0: [0.5, 0.25, 1, 1] } });
    assert.ok(px instanceof Uint8ClampedArray);
    assert.equal(px.length, 40 * 24 * 4);
    const want = pngRgba(readFileSync(png));
    assert.deepEqual([want.w, want.h], [40, 24]);
    assert.deepEqual(new Uint8Array(px.buffer, px.byteOffset, px.length), want.data);
    n++;
  }
  assert.ok(n >= 3);
});

test("effects, pass shaders and rip", () => {
  const data = records("fxc_effects.jsonl").map((r) => bytesOf(r.dwords));
  for (const [i, b] of data.slice(0, 6).entries()) {
    const fx = Effect.fromBytes(b);
    const path = file(`e${i}.fxo`, b);
    const model = JSON.parse(cli("dis", path, "--format", "json").stdout)[0].effect;
    assert.deepEqual(fx.techniques.map((t) => t.name), model.techniques.map((t) => t.name));
    assert.deepEqual(fx.parameters.map((p) => p.name), model.parameters.map((p) => p.name));
    assert.equal(fx.disassemble(), cli("dis", path).stdout.toString());
  }
  const tint = readFileSync(new URL("./tint.fxo", import.meta.url));
  const fx = Effect.fromBytes(tint);
  fx.set("tint", [0.25, 1, 0.5, 1]);
  assert.deepEqual(fx.parameters[0].value, [0.25, 1, 0.5, 1]);
  const [vs, ps] = fx.passShaders("Tint", 0);
  assert.ok(vs.version.startsWith("vs_"));
  const want = JSON.parse(cli("run", file("tint.fxo", tint), "--set", "tint=0.25,1,0.5,1", "--format", "json").stdout);
  assert.deepEqual(ps.run().outputs, want.outputs);
  assert.throws(() => fx.set("nope", 1), EffectError);
  assert.throws(() => Effect.fromBytes(tint.subarray(0, 40)), (e) => e instanceof EffectError && e.offset !== null);
  const blob = new Uint8Array(20000);
  blob.set(picked[0][1], 1001);
  const finds = rip(blob);
  const cmd = JSON.parse(cli("rip", file("blob.bin", blob), "--json").stdout);
  assert.deepEqual(finds.map((f) => [f.offset, f.size, f.kind, f.version, f.crc32.toString(16).padStart(8, "0")]), cmd.map((f) => [f.offset, f.size, f.kind, f.version, f.crc32]));
  assert.equal(finds[0].offset, 1001);
});

test("bad input throws d3dbc errors, never crashes", () => {
  assert.throws(() => Shader.fromBytes(new Uint8Array(0)), DecodeError);
  assert.throws(() => Shader.fromBytes("ps_2_0\nmov oC0, t0\n"), (e) => e instanceof DecodeError && /assemble/.test(e.message));
  const good = picked[0][1];
  assert.throws(() => Shader.fromBytes(good.subarray(0, good.length - 8)), (e) => e instanceof DecodeError && e.offset !== null);
  let seed = 28;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
  for (let i = 0; i < 500; i++) {
    const b = Uint8Array.from(picked[i % picked.length][1]);
    for (let k = 0; k < 4; k++) b[rand(b.length)] = rand(256);
    try {
      const sh = Shader.fromBytes(b);
      sh.disassemble();
      sh.instructions;
      if (!sh.validate().length) sh.run();
    } catch (e) {
      assert.ok(e instanceof D3dbcError, String(e));
    }
    rip(b);
  }
  assert.equal(typeof d3dbc.Shader, "function");
});
