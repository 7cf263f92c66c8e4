// Node.js entry (>= 18): instantiates the WebAssembly module synchronously from the
// package's own file, then exports the API (api.js).
import { readFileSync } from "node:fs";
import { initSync } from "./wasm/d3dbc_web.js";

initSync({ module: readFileSync(new URL("./wasm/d3dbc_web_bg.wasm", import.meta.url)) });

export * from "./api.js";
