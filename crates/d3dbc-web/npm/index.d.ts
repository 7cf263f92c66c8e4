// Types of the d3dbc npm package: Direct3D 9 shader bytecode (shader models 1-3) in
// JavaScript, the same API as the Python package (`pip install d3dbc`).

export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView | string;
export type Vec4 = [number, number, number, number];
export type Values = number | boolean | Iterable<number | boolean>;

/** Fields every d3dbc error carries. */
export declare class D3dbcError extends Error {
  /** The rule's or diagnostic's code (`E0204`). */
  code: string | null;
  /** 1-based line in assembly text (AsmError). */
  line: number | null;
  /** 1-based column. */
  column: number | null;
  /** DWORD offset in the token stream (byte offset in an effect). */
  offset: number | null;
  /** Every assembler diagnostic as the compiler prints it (source line, caret). */
  diagnostics: string[];
  /** The validator's findings (ValidationError). */
  findings: Finding[];
}
/** The bytes hold no shader, or it does not decode. */
export declare class DecodeError extends D3dbcError {}
/** Assembly failed: `code`, `line`, `column`, `message` of the first error. */
export declare class AsmError extends D3dbcError {}
/** The runtime validator rejects the shader (`findings`). */
export declare class ValidationError extends D3dbcError {}
/** A back end could not translate the shader. */
export declare class TranslateError extends D3dbcError {}
/** The CPU executor could not run or draw the shader. */
export declare class RunError extends D3dbcError {}
/** The effect is malformed, or names no such technique, pass or parameter. */
export declare class EffectError extends D3dbcError {}
/** An argument is malformed or out of range. */
export declare class ArgumentError extends D3dbcError {}

/** One validator finding. */
export interface Finding {
  code: string;
  message: string;
  /** DWORD offset of the instruction. */
  offset: number;
  severity: "error" | "warning";
  /** The instruction as `dis` prints it. */
  instruction: string;
  /** `file:line:col` for text input. */
  location: string | null;
}

export interface ConstantType {
  /** `scalar`, `vector`, `matrix_rows`, `matrix_columns`, `object`, `struct`. */
  class: string;
  rows: number;
  columns: number;
  elements: number;
  /** HLSL base type: `float`, `int`, `bool`, `sampler2D`… */
  name: string;
  members: [string, ConstantType][];
}

/** One entry of the constant table (CTAB). */
export interface Constant {
  name: string;
  /** `float4`, `int4`, `bool`, `sampler`. */
  registerSet: string | number;
  /** First register number. */
  register: number;
  /** Registers spanned. */
  count: number;
  type: ConstantType;
  /** Floats for float4 constants, ints otherwise; null when the table gives none. */
  default: number[] | null;
  /** `c4`, `s0`: as `dis` prints it. */
  registerName: string;
}

export interface Operand {
  text: string;
  /** `r0`, `c4`, `oC0`… */
  register: string;
  index: number;
  /** `a0.x`, `aL`. */
  relative: string | null;
  /** Destinations. */
  mask: string | null;
  /** Sources. */
  swizzle: string | null;
  /** `neg`, `abs`, `bx2`… */
  modifier: string | null;
  saturate: boolean;
  partialPrecision: boolean;
  centroid: boolean;
  shift: number;
}

export interface Instruction {
  /** DWORD offset. */
  offset: number;
  opcode: string;
  /** With suffixes: `mov_sat`, `texldp`. */
  mnemonic: string;
  /** As `dis` prints it. */
  text: string;
  tokens: number[];
  dst: Operand | null;
  srcs: Operand[];
  predicate: Operand | null;
  /** `{usage, usage_index}` or `{sampler_type}` of a `dcl`. */
  dcl: Record<string, string | number | null> | null;
  /** A `def`'s values. */
  values: (number | boolean)[] | null;
  comparison: string | null;
  coissue: boolean;
}

export interface RunResult {
  /** Output register → value, in the shader's order. */
  outputs: Record<string, Vec4>;
  /** Pixel shaders: whether the pixel was discarded; null for vertex shaders. */
  killed: boolean | null;
  /** With `trace: true`: [instruction as `dis` prints it, value written]. */
  trace: [string, Vec4 | null][];
  traceTruncated: boolean;
}

export interface Texture {
  width: number;
  height: number;
  /** RGBA8, rows top to bottom. */
  data: Bytes;
}

/** One shader, read once. */
export declare class Shader {
  /** `ps_3_0`, `vs_1_1`… */
  readonly version: string;
  readonly warnings: string[];
  readonly isPixel: boolean;
  /** The first shader in bytecode, an fxc `/Fh` header or hex text. */
  static fromBytes(data: Bytes): Shader;
  toBytes(): Uint8Array;
  /** The listing `d3dbc dis` prints. */
  disassemble(options?: { offsets?: boolean; tokens?: boolean }): string;
  readonly constants: Constant[];
  readonly instructions: Instruction[];
  /** Empty when the runtime accepts the shader. */
  validate(): Finding[];
  translate(target: "spirv", options?: TranslateOptions): Uint8Array;
  translate(target: "wgsl" | "glsl" | "msl" | "hlsl", options?: TranslateOptions): string;
  interface(options?: { validate?: boolean; semantics?: object; pipeline?: object }): object;
  run(options?: {
    inputs?: Record<string, Values>;
    constants?: Record<string, Values>;
    trace?: boolean;
    validate?: boolean;
  }): RunResult;
  /** RGBA8, width × height × 4 bytes. */
  render(options?: {
    width?: number;
    height?: number;
    constants?: Record<string, Values>;
    vs?: Shader | null;
    textures?: Record<string | number, Texture>;
    validate?: boolean;
  }): Uint8ClampedArray;
}

export interface TranslateOptions {
  validate?: boolean;
  /** SPIR-V: `direct` (d3dbc-spirv, default) or `naga`. */
  via?: "direct" | "naga";
  /** `d3dbc::Semantics` keys. */
  semantics?: object;
  /** `d3dbc_naga::PipelineState` keys. */
  pipeline?: object;
}

/** Assembles Microsoft-format assembly as `d3dbc asm`. */
export declare function assemble(
  text: string,
  options?: {
    defines?: Record<string, string | null>;
    includeDirs?: string[];
    validate?: boolean;
    raw?: boolean;
    fileName?: string;
  },
): Shader;

export interface Pass {
  name: string;
  annotations: Record<string, unknown>;
  states: string[];
}
export interface Technique {
  name: string;
  passes: Pass[];
  annotations: Record<string, unknown>;
}
export interface Parameter {
  name: string;
  type: string;
  semantic: string;
  annotations: Record<string, unknown>;
  /** Numbers (row-major), a string's text, or null for objects. */
  value: unknown;
  class: string;
  rows: number;
  columns: number;
  elements: number;
}

/** An fx_2_0 effect. */
export declare class Effect {
  static fromBytes(data: Bytes): Effect;
  toBytes(): Uint8Array;
  disassemble(): string;
  readonly techniques: Technique[];
  readonly parameters: Parameter[];
  set(name: string, value: unknown): void;
  passShaders(technique?: number | string, pass?: number | string): [Shader | null, Shader | null];
}

export interface Find {
  offset: number;
  size: number;
  /** `vso`, `pso`, `fxo`. */
  kind: string;
  version: string;
  crc32: number;
}

/** Every shader and effect inside any bytes. */
export declare function rip(data: Bytes): Find[];
