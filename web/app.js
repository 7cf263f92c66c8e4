// The d3dbc playground: every panel is a call into the d3dbc-web WebAssembly module
// (the same library calls as the `d3dbc` command). The state lives in the URL
// fragment: `#hex=<bytecode as hex bytes>` or `#asm=<base64url of UTF-8 text>`, plus
// `&target=wgsl` (and `&offsets=1`, `&tokens=1`), so a link reproduces the page.
import init, * as d3 from './pkg/d3dbc_web.js';
import { EXAMPLES } from './examples.js';

const $ = (id) => document.getElementById(id);
const state = { hex: '', pixel: false, constants: {}, size: 256, technique: null, pass: null, set: {} };

// ---- URL fragment ----
function b64urlEncode(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function b64urlDecode(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}
function hexToDwords(hex) {
  const clean = hex.replace(/[^0-9a-fA-F]/g, '');
  const words = [];
  for (let i = 0; i + 8 <= clean.length; i += 8) {
    const b = clean.slice(i, i + 8).match(/../g).reverse().join('');
    words.push('0x' + b.toLowerCase());
  }
  const lines = [];
  for (let i = 0; i < words.length; i += 4) lines.push(words.slice(i, i + 4).join(', '));
  return lines.join(',\n');
}
function readFragment() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (p.get('target')) $('target').value = p.get('target');
  $('opt-offsets').checked = p.get('offsets') === '1';
  $('opt-tokens').checked = p.get('tokens') === '1';
  // An effect's pass and parameter values (`&technique=…&pass=…&set=NAME%3DVALUES`).
  state.pending = { technique: p.get('technique'), pass: p.get('pass'), set: p.getAll('set') };
  try {
    if (p.has('asm')) return b64urlDecode(p.get('asm'));
    if (p.has('hex')) return hexToDwords(p.get('hex'));
  } catch (e) {
    setStatus('the link’s shader could not be read: ' + e.message, true);
  }
  return null;
}
function writeFragment(kind) {
  const p = new URLSearchParams();
  const text = $('input').value;
  if (kind === 'assembly') p.set('asm', b64urlEncode(text));
  else if (state.hex) p.set('hex', state.hex);
  else if (text.trim()) p.set('asm', b64urlEncode(text));
  p.set('target', $('target').value);
  if ($('opt-offsets').checked) p.set('offsets', '1');
  if ($('opt-tokens').checked) p.set('tokens', '1');
  if (state.technique !== null) p.set('technique', state.technique);
  if (state.pass !== null) p.set('pass', state.pass);
  for (const [n, v] of Object.entries(state.set)) p.append('set', `${n}=${v}`);
  const frag = '#' + p.toString();
  if (location.hash !== frag) history.replaceState(null, '', frag);
}

// ---- panels ----
function setStatus(text, error) {
  $('status').textContent = text;
  $('status').classList.toggle('error-text', !!error);
}
function showFindings(a) {
  const box = $('findings');
  box.replaceChildren();
  for (const f of a.findings) {
    const pre = document.createElement('pre');
    pre.className = f.severity;
    pre.dataset.code = f.code || '';
    pre.dataset.at = f.at;
    pre.textContent = f.text;
    box.append(pre);
  }
  if (!a.findings.length) {
    const ok = document.createElement('div');
    ok.className = 'none';
    ok.textContent = a.kind === 'none' ? 'no input' : 'no findings: the runtime accepts this shader';
    box.append(ok);
  }
  const v = $('verdict');
  v.textContent = a.kind === 'none' ? '' : a.valid ? 'valid' : 'invalid';
  v.className = 'tag ' + (a.valid ? 'valid' : 'invalid');
}
function showTranslation() {
  if (!state.hex) {
    $('translation').textContent = '';
    $('interface').textContent = '';
    return;
  }
  const t = JSON.parse(d3.translate(state.hex, $('target').value));
  $('translation').textContent = t.error ? 'error: ' + t.error : t.text;
  $('translation').classList.toggle('error-text', !!t.error);
  $('interface').textContent = t.interface || '';
}
function showDecompiled() {
  // d3dbc decompile: HLSL that compiles again (d3dbc-hlsl), beside the listing.
  const d = state.hex ? JSON.parse(d3.decompile(state.hex)) : { text: '' };
  $('decompiled').textContent = d.error ? 'error: ' + d.error : d.text;
  $('decompiled').classList.toggle('error-text', !!d.error);
  $('decompiled-profile').textContent = d.profile || '';
}
function request() {
  return JSON.stringify({
    width: state.size, height: state.size, constants: state.constants,
    technique: state.technique, pass: state.pass,
    set: Object.entries(state.set).map(([n, v]) => `${n}=${v}`),
  });
}
// An effect: technique and pass pickers and a parameter editor (the values
// `d3dbc render --set NAME=VALUES` takes; `identity` for a matrix).
function showEffect() {
  const info = state.hex ? JSON.parse(d3.effectInfo(state.hex)) : { error: 'none' };
  const box = $('effect-controls');
  box.hidden = !!info.error;
  if (info.error) { state.technique = state.pass = null; state.set = {}; return; }
  const tsel = $('fx-technique');
  const psel = $('fx-pass');
  const key = JSON.stringify(info.techniques);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    state.technique = state.pass = null;
    state.set = {};
    tsel.replaceChildren(...info.techniques.map(([name], i) => {
      const o = document.createElement('option');
      o.value = String(i); o.textContent = name || `#${i}`;
      return o;
    }));
    const passes = () => {
      const t = info.techniques[Number(tsel.value) || 0];
      psel.replaceChildren(...t[1].map((name, i) => {
        const o = document.createElement('option');
        o.value = String(i); o.textContent = name || `#${i}`;
        return o;
      }));
    };
    passes();
    tsel.onchange = () => { passes(); state.technique = tsel.value; state.pass = '0'; showRender(); writeFragment(lastKind); };
    psel.onchange = () => { state.pass = psel.value; showRender(); writeFragment(lastKind); };
    const table = $('fx-params');
    table.replaceChildren(...info.parameters.map(([name, ty, value]) => {
      const tr = document.createElement('tr');
      const td = document.createElement('td');
      td.textContent = `${ty} ${name}`;
      const inp = document.createElement('input');
      inp.value = value; inp.dataset.param = name;
      inp.title = ty.includes('x') ? 'numbers, row-major, or identity' : 'numbers, comma-separated';
      inp.addEventListener('change', () => { state.set[name] = inp.value; showRender(); writeFragment(lastKind); });
      const cell = document.createElement('td');
      cell.append(inp);
      tr.append(td, cell);
      return tr;
    }));
  }
  // Values from a link, once.
  const pending = state.pending;
  state.pending = null;
  if (pending) {
    if (pending.technique !== null) { tsel.value = pending.technique; tsel.onchange(); }
    if (pending.pass !== null) { psel.value = pending.pass; state.pass = pending.pass; }
    for (const s of pending.set) {
      const at = s.indexOf('=');
      if (at < 0) continue;
      const [name, value] = [s.slice(0, at), s.slice(at + 1)];
      state.set[name] = value;
      const inp = document.querySelector(`#fx-params input[data-param="${CSS.escape(name)}"]`);
      if (inp) inp.value = value;
    }
  }
}
function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (const b of bytes) { h ^= b; h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16).padStart(8, '0');
}
function showRender() {
  const canvas = $('canvas');
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  delete canvas.dataset.hash;
  canvas.dataset.nonblank = 'false';
  $('render-warning').textContent = '';
  if (!state.hex || !state.pixel) {
    $('trace').textContent = state.hex ? 'the render panel draws pixel shaders' : '';
    return;
  }
  const t0 = performance.now();
  const rgba = d3.render(state.hex, request());
  if (!rgba.length) {
    $('trace').textContent = 'error: ' + d3.lastError();
    return;
  }
  canvas.width = canvas.height = state.size;
  ctx.putImageData(new ImageData(new Uint8ClampedArray(rgba), state.size, state.size), 0, 0);
  canvas.dataset.hash = fnv1a(rgba);
  canvas.dataset.nonblank = String(rgba.some((b, i) => i % 4 !== 3 && b !== rgba[i % 4]));
  canvas.dataset.ms = (performance.now() - t0).toFixed(1);
  $('render-warning').textContent = d3.lastWarning();
  $('trace').textContent = 'click a pixel to trace the shader there';
}
function showConstants(a) {
  const table = $('constants');
  table.replaceChildren();
  state.constants = {};
  for (const c of a.constants) {
    c.value.forEach((v, r) => {
      const reg = 'c' + (c.register + r);
      const tr = document.createElement('tr');
      const name = document.createElement('td');
      name.textContent = (c.count > 1 ? `${c.name}[${r}]` : c.name) + ' ' + reg;
      tr.append(name);
      v.forEach((x, k) => {
        const td = document.createElement('td');
        const inp = document.createElement('input');
        inp.type = 'number'; inp.step = 'any'; inp.value = x;
        inp.addEventListener('change', () => {
          const cur = state.constants[reg] || v.slice();
          cur[k] = parseFloat(inp.value) || 0;
          state.constants[reg] = cur;
          showRender();
        });
        td.append(inp);
        tr.append(td);
      });
      table.append(tr);
    });
  }
  const box = $('samplers');
  box.replaceChildren();
  for (const s of a.samplers) {
    const label = document.createElement('label');
    label.textContent = `s${s.stage}${s.name ? ' (' + s.name + ')' : ''}: `;
    const inp = document.createElement('input');
    inp.type = 'file'; inp.accept = 'image/*';
    inp.addEventListener('change', () => loadTexture(s.stage, inp.files[0]));
    label.append(inp);
    box.append(label);
  }
}
async function loadTexture(stage, file) {
  if (!file) return;
  const bmp = await createImageBitmap(file);
  const c = new OffscreenCanvas(bmp.width, bmp.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(bmp, 0, 0);
  const data = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
  d3.setTexture(stage, bmp.width, bmp.height, new Uint8Array(data.buffer));
  showRender();
}

let lastKind = 'none';
function update() {
  const a = JSON.parse(d3.analyze($('input').value, JSON.stringify({
    offsets: $('opt-offsets').checked, tokens: $('opt-tokens').checked })));
  state.hex = a.hex;
  state.pixel = a.pixel;
  lastKind = a.kind;
  $('listing').textContent = a.listing;
  $('version').textContent = a.version || '';
  showFindings(a);
  showConstants(a);
  showEffect();
  showTranslation();
  showDecompiled();
  showRender();
  writeFragment(a.kind);
  if (document.body.dataset.state !== 'ready') {
    // Time from navigation to the first full update (every panel filled).
    document.body.dataset.readyMs = performance.now().toFixed(0);
  }
  document.body.dataset.state = 'ready';
  setStatus(a.kind === 'none' ? 'paste a shader' : `${a.version} · ${a.kind} · ${a.hex.length / 2} bytes`);
}

let timer = 0;
function soon() { clearTimeout(timer); timer = setTimeout(update, 200); }

async function openFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  // Bytecode and effects (anything with control bytes) are shown as hex DWORDs.
  const binary = bytes.some((b) => b === 0 || (b < 0x20 && b !== 9 && b !== 10 && b !== 13));
  $('input').value = binary ? hexToDwords(Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')) : text;
  update();
}

async function main() {
  try {
    await init();
  } catch (e) {
    setStatus('the WebAssembly module did not load: ' + e, true);
    document.body.dataset.state = 'error';
    return;
  }
  $('d3dbc-version').textContent = 'd3dbc ' + d3.version();
  for (const ex of EXAMPLES) {
    const o = document.createElement('option');
    o.value = ex.name; o.textContent = ex.name;
    $('examples').append(o);
  }
  $('examples').addEventListener('change', () => {
    const ex = EXAMPLES.find((e) => e.name === $('examples').value);
    if (ex) { $('input').value = ex.text; d3.clearTextures(); update(); }
  });
  $('input').addEventListener('input', soon);
  $('target').addEventListener('change', () => { showTranslation(); writeFragment(lastKind); });
  for (const id of ['opt-offsets', 'opt-tokens']) $(id).addEventListener('change', update);
  $('file').addEventListener('change', () => $('file').files[0] && openFile($('file').files[0]));
  const ta = $('input');
  ta.addEventListener('dragover', (e) => { e.preventDefault(); ta.classList.add('drop'); });
  ta.addEventListener('dragleave', () => ta.classList.remove('drop'));
  ta.addEventListener('drop', (e) => {
    e.preventDefault(); ta.classList.remove('drop');
    if (e.dataTransfer.files[0]) openFile(e.dataTransfer.files[0]);
  });
  $('share').addEventListener('click', async () => {
    writeFragment(lastKind);
    try { await navigator.clipboard.writeText(location.href); setStatus('link copied'); }
    catch { setStatus('copy the address bar: it holds the shader'); }
  });
  $('canvas').addEventListener('click', (e) => {
    if (!state.hex || !state.pixel) return;
    const c = $('canvas');
    const x = Math.floor(e.offsetX * c.width / c.clientWidth);
    const y = Math.floor(e.offsetY * c.height / c.clientHeight);
    const t = JSON.parse(d3.trace(state.hex, request(), x, y));
    $('trace').textContent = t.error ? 'error: ' + t.error : t.lines.join('\n');
  });
  window.addEventListener('hashchange', () => {
    const text = readFragment();
    if (text !== null && text !== $('input').value) { $('input').value = text; update(); }
  });
  const fromLink = readFragment();
  $('input').value = fromLink ?? (EXAMPLES.find((e) => e.name.endsWith('.pso'))?.text || '');
  update();
  if ('serviceWorker' in navigator && location.protocol.startsWith('http')) {
    navigator.serviceWorker.register('sw.js').catch(() => {});
  }
}
main();
