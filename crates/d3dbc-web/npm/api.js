// The d3dbc API for JavaScript: the same classes, methods and errors as the Python
// package, over the WebAssembly module's stateless `api*` exports (crates/d3dbc-web,
// src/api.rs, which call the Rust crate d3dbc-bind). This file only moves values across:
// shaders travel as their tokens, results come back as JSON, failures as the error's
// JSON, turned here into Error subclasses with the same fields.
import * as raw from "./wasm/d3dbc_web.js";

/** Base of every d3dbc error: `message`, `code`, `line`, `column`, `offset`,
 * `diagnostics`, `findings`. */
export class D3dbcError extends Error {
  constructor(message, fields = {}) {
    super(message);
    this.name = new.target.name;
    this.code = fields.code ?? null;
    this.line = fields.line ?? null;
    this.column = fields.column ?? null;
    this.offset = fields.offset ?? null;
    this.diagnostics = fields.diagnostics ?? [];
    this.findings = (fields.findings ?? []).map(finding);
  }
}
export class DecodeError extends D3dbcError {}
export class AsmError extends D3dbcError {}
export class ValidationError extends D3dbcError {}
export class TranslateError extends D3dbcError {}
export class RunError extends D3dbcError {}
export class EffectError extends D3dbcError {}
export class ArgumentError extends D3dbcError {}

const CLASSES = { DecodeError, AsmError, ValidationError, TranslateError, RunError, EffectError, ArgumentError };

/** Calls a WebAssembly export, turning the error JSON it throws into its class. */
function call(fn, ...args) {
  try {
    return fn(...args);
  } catch (e) {
    if (typeof e === "string" && e.startsWith("{")) {
      const d = JSON.parse(e);
      const Cls = CLASSES[d.kind] ?? D3dbcError;
      throw new Cls(d.message, d);
    }
    throw e;
  }
}

function bytesOf(data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === "string") return new TextEncoder().encode(data);
  throw new TypeError(`expected bytes (Uint8Array, ArrayBuffer, a typed array) or text, got ${typeof data}`);
}

function finding(f) {
  return {
    code: f.code,
    message: f.message,
    offset: f.offset,
    severity: f.severity,
    instruction: f.instruction,
    location: f.location ?? null,
  };
}

function constantType(t) {
  return {
    class: t.class,
    rows: t.rows,
    columns: t.columns,
    elements: t.elements,
    name: t.type,
    members: (t.members ?? []).map((m) => [m.name, constantType(m.type)]),
  };
}

function operand(o) {
  if (o == null) return null;
  return {
    text: o.text,
    register: o.register,
    index: o.index,
    relative: o.relative ?? null,
    mask: o.mask ?? null,
    swizzle: o.swizzle ?? null,
    modifier: o.modifier ?? null,
    saturate: o.saturate ?? false,
    partialPrecision: o.partial_precision ?? false,
    centroid: o.centroid ?? false,
    shift: o.shift ?? 0,
  };
}

function values(name, v) {
  if (typeof v === "number" || typeof v === "boolean") return [v];
  if (v != null && typeof v[Symbol.iterator] === "function") return Array.from(v);
  throw new ArgumentError(`${name}: expected a number or an array of numbers`);
}

function constantsOf(constants) {
  const out = {};
  for (const [k, v] of Object.entries(constants ?? {})) out[k] = values(k, v);
  return out;
}

const annotations = (list) => Object.fromEntries(list.map((a) => [a.name, a.value]));

/** One shader, read once: from `Shader.fromBytes`, `assemble`, or an effect's
 * `passShaders` (then carrying the pass's constants). */
export class Shader {
  #tokens;
  #bound;
  constructor(described) {
    this.#tokens = Uint32Array.from(described.tokens);
    this.#bound = described.bound ?? "";
    /** `ps_3_0`, `vs_1_1`, … */
    this.version = described.version;
    /** Warnings from reading or assembling. */
    this.warnings = described.warnings ?? [];
  }

  /** The first shader in `data`: bytecode, an fxc `/Fh` header or hex text (bytes or a
   * string). Throws DecodeError. */
  static fromBytes(data) {
    return new Shader(JSON.parse(call(raw.apiShaderRead, bytesOf(data))));
  }

  /** Whether this is a pixel shader. */
  get isPixel() {
    return this.version.startsWith("ps_");
  }

  /** The bytecode. */
  toBytes() {
    const b = new Uint8Array(this.#tokens.length * 4);
    const view = new DataView(b.buffer);
    this.#tokens.forEach((t, i) => view.setUint32(i * 4, t, true));
    return b;
  }

  /** The listing `d3dbc dis` prints (`offsets`, `tokens`: its `--offsets`, `--tokens`). */
  disassemble({ offsets = false, tokens = false } = {}) {
    return call(raw.apiDisassemble, this.#tokens, offsets, tokens);
  }

  /** The constant table's entries. */
  get constants() {
    return JSON.parse(call(raw.apiConstants, this.#tokens)).map((c) => ({
      name: c.name,
      registerSet: c.register_set,
      register: c.register_index,
      count: c.register_count,
      type: constantType(c.type),
      default: c.default_value ?? null,
      registerName: c.register,
    }));
  }

  /** The instructions (comments left out). */
  get instructions() {
    return JSON.parse(call(raw.apiInstructions, this.#tokens)).map((i) => ({
      offset: i.offset,
      opcode: i.opcode,
      mnemonic: i.mnemonic,
      text: i.text,
      tokens: i.tokens.map((t) => parseInt(t, 16)),
      dst: operand(i.dst),
      srcs: (i.srcs ?? []).map(operand),
      predicate: operand(i.predicate),
      dcl: i.dcl ?? null,
      values: i.values ?? null,
      comparison: i.comparison ?? null,
      coissue: i.coissue ?? false,
    }));
  }

  /** The runtime validator's findings; empty when the runtime accepts the shader. */
  validate() {
    return JSON.parse(call(raw.apiFindings, this.#tokens)).map(finding);
  }

  /** `spirv` → Uint8Array (the direct back end; `via: "naga"` through naga); `wgsl`,
   * `glsl`, `msl`, `hlsl` → string. Other keys are translation options (`semantics`,
   * `pipeline`). */
  translate(target, { validate = true, via = "direct", ...options } = {}) {
    if (via !== "direct" && via !== "naga") throw new ArgumentError(`via: expected "direct" or "naga", got ${via}`);
    const opts = Object.keys(options).length ? JSON.stringify(options) : "";
    const out = call(raw.apiTranslate, this.#tokens, String(target), opts, validate, via === "naga");
    return target === "spirv" || target === "spv" ? out : new TextDecoder().decode(out);
  }

  /** The interface a translation gives the host, as `translate --interface` writes it. */
  interface({ validate = true, ...options } = {}) {
    const opts = Object.keys(options).length ? JSON.stringify(options) : "";
    return JSON.parse(call(raw.apiInterface, this.#tokens, opts, validate));
  }

  /** Runs the shader once, as `d3dbc run`: `{outputs: {oC0: [x, y, z, w], …}, killed,
   * trace, traceTruncated}`. */
  run({ inputs = {}, constants = {}, trace = false, validate = true } = {}) {
    const req = {
      inputs: Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, values(k, v)])),
      constants: constantsOf(constants),
      trace,
      validate,
    };
    const d = JSON.parse(call(raw.apiRun, this.#tokens, this.#bound, JSON.stringify(req)));
    return {
      outputs: Object.fromEntries(d.order.map((n) => [n, d.outputs[n]])),
      killed: d.killed,
      trace: d.trace.map((t) => [t.instruction, t.value]),
      traceTruncated: d.trace_truncated,
    };
  }

  /** The picture `d3dbc render` draws: RGBA bytes, `width × height × 4`, rows top to
   * bottom (`new ImageData(pixels, width, height)` shows it). `textures`: stage →
   * `{width, height, data}` (RGBA). */
  render({ width = 256, height = 256, constants = {}, vs = null, textures = {}, validate = true } = {}) {
    const info = [];
    const chunks = [];
    for (const [stage, t] of Object.entries(textures)) {
      const s = typeof stage === "string" && stage.startsWith("s") ? Number(stage.slice(1)) : Number(stage);
      info.push(s, t.width, t.height);
      chunks.push(bytesOf(t.data));
    }
    const data = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      data.set(c, at);
      at += c.length;
    }
    const req = JSON.stringify({ width, height, constants: constantsOf(constants), validate });
    const rgba = call(
      raw.apiRender,
      this.#tokens,
      this.#bound,
      vs ? vs.#tokens : new Uint32Array(0),
      vs ? vs.#bound : "",
      req,
      Uint32Array.from(info),
      data,
    );
    return new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  }
}

/** Assembles as `d3dbc asm`; throws AsmError (`code`, `line`, `column`, `message`). */
export function assemble(text, { defines = {}, includeDirs = [], validate = true, raw: rawMode = false, fileName = "input" } = {}) {
  const opts = JSON.stringify({
    defines: Object.fromEntries(Object.entries(defines).map(([k, v]) => [k, v == null ? null : String(v)])),
    include_dirs: includeDirs,
    no_validate: !validate,
    raw: rawMode,
    file_name: fileName,
  });
  return new Shader(JSON.parse(call(raw.apiAssemble, String(text), opts)));
}

/** An fx_2_0 effect with the parameter values set so far. */
export class Effect {
  #bytes;
  #values = {};
  constructor(bytes) {
    this.#bytes = bytes;
  }

  /** Reads an effect; throws EffectError (`offset`: byte). */
  static fromBytes(data) {
    const b = Uint8Array.from(bytesOf(data));
    call(raw.apiEffect, b, "");
    return new Effect(b);
  }

  #model() {
    return JSON.parse(call(raw.apiEffect, this.#bytes, JSON.stringify(this.#values)));
  }

  /** The effect's bytes. */
  toBytes() {
    return Uint8Array.from(this.#bytes);
  }

  /** fxc's listing of the effect, as `d3dbc dis` prints it. */
  disassemble() {
    return call(raw.apiEffectDisassemble, this.#bytes);
  }

  /** `[{name, passes: [{name, annotations, states}], annotations}]`. */
  get techniques() {
    return this.#model().techniques.map((t) => ({
      name: t.name,
      passes: t.passes.map((p) => ({ name: p.name, annotations: annotations(p.annotations), states: p.states })),
      annotations: annotations(t.annotations),
    }));
  }

  /** `[{name, type, semantic, annotations, value, class, rows, columns, elements}]`. */
  get parameters() {
    return this.#model().parameters.map((p) => ({
      name: p.name,
      type: p.type,
      semantic: p.semantic,
      annotations: annotations(p.annotations),
      value: p.value,
      class: p.class,
      rows: p.rows,
      columns: p.columns,
      elements: p.elements,
    }));
  }

  /** Sets a parameter: a number or (nested) arrays, flattened row-major. */
  set(name, value) {
    const flat = [value].flat(Infinity).map(Number);
    call(raw.apiEffectSet, this.#bytes, JSON.stringify(this.#values), String(name), Float32Array.from(flat));
    this.#values[name] = flat;
  }

  /** `[vertexShader, pixelShader]` a pass binds (index or name; `null` where none),
   * carrying the pass's constants. */
  passShaders(technique = 0, pass = 0) {
    const [ti, tn] = typeof technique === "number" ? [technique, ""] : [-1, String(technique)];
    const [pi, pn] = typeof pass === "number" ? [pass, ""] : [-1, String(pass)];
    const d = JSON.parse(call(raw.apiPassShaders, this.#bytes, JSON.stringify(this.#values), ti, tn, pi, pn));
    return [d.vs && new Shader(d.vs), d.ps && new Shader(d.ps)];
  }
}

/** Every shader and effect inside `data`: `[{offset, size, kind, version, crc32}]`. */
export function rip(data) {
  return JSON.parse(call(raw.apiRip, bytesOf(data)));
}
