// Browser and bundler entry: fetches and instantiates the WebAssembly module (the
// bundler resolves the `.wasm` URL as an asset), then exports the API (api.js).
import init from "./wasm/d3dbc_web.js";

await init({ module_or_path: new URL("./wasm/d3dbc_web_bg.wasm", import.meta.url) });

export * from "./api.js";
