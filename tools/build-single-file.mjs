// The playground as one self-contained HTML file, for LMS uploads and for opening from disk
// (file://): the page's JavaScript and CSS are inlined into the HTML, and every asset they load
// — the two WebAssembly builds, fonts, images — becomes a data: URL inside them (fetch() reads
// data: URLs, so the engine facade loads its wasm unchanged).
//
//   node tools/build-single-file.mjs        → dist/attention-playground-standalone.html
//
// `npx vite build` runs this by itself (vite.config.js calls buildSingleFile after the site).
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileHints } from './compile-hints.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SINGLE_FILE_NAME = 'attention-playground-standalone.html';

// The Emscripten glue names its .wasm with `new URL("attention-….wasm", import.meta.url)`, only
// used when no wasmBinary is passed; the facade always passes one. Left alone, Vite would inline
// each .wasm twice. This plugin turns the glue's reference into a plain string (single file only).
function dropGlueWasmUrl() {
  return {
    name: 'attention-playground:drop-glue-wasm-url',
    transform(code, id) {
      if (!/engine[\\/]wasm[\\/]attention-(simd|scalar)\.mjs$/.test(id)) return null;
      return code.replace(/new URL\(("attention-(?:simd|scalar)\.wasm"),\s*import\.meta\.url\)/g, '$1');
    },
  };
}

// A worker started with `new Worker(new URL('./x.js', import.meta.url), { type: 'module' })`
// (the engine's compute worker) would be a separate file, which a page opened from disk cannot
// start. In the single file it becomes Vite's inline worker (`?worker&inline`: the worker's
// bundle, its wasm inlined too, started from a blob: URL).
function inlineWorkers() {
  const pattern = /new Worker\(\s*new URL\(\s*(['"])(\.{1,2}\/[^'"]+\.m?js)\1\s*,\s*import\.meta\.url\s*\)\s*(?:,\s*\{[^}]*\}\s*)?\)/g;
  return {
    name: 'attention-playground:inline-workers',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]web[\\/]src[\\/]/.test(id) || !code.includes('new Worker(')) return null;
      const imports = [];
      const out = code.replace(pattern, (whole, quote, file) => {
        const name = `__inlineWorker${imports.length}`;
        imports.push(`import ${name} from ${JSON.stringify(`${file}?worker&inline`)};`);
        return `new ${name}()`;
      });
      return imports.length ? `${imports.join('\n')}\n${out}` : null;
    },
  };
}

// Inlines the built page: <script type="module" src> and <link rel="stylesheet" href> become
// inline elements; anything else still pointing at a file is an error.
export function inlineHtml(html, readAsset) {
  let out = html.replace(/<link rel="modulepreload"[^>]*>\s*/g, '');
  // (inline, without the page's async: an inline module script runs after parsing as it is)
  out = out.replace(/<script\b(?=[^>]*\btype="module")[^>]*? src="([^"]+)"[^>]*><\/script>/g, (whole, src) => {
    // '</script' inside the code would end the element early; '<\/script' means the same to JS.
    const code = readAsset(src).replace(/<\/script/gi, '<\\/script');
    return `<script type="module">${code}</script>`;
  });
  out = out.replace(/<link rel="stylesheet"([^>]*?) href="([^"]+)"[^>]*>/g, (whole, attrs, href) => {
    const css = dropLegacyFonts(readAsset(href)).replace(/<\/style/gi, '<\\/style');
    return `<style>${css}</style>`;
  });
  const leftover = /(?:src|href)="\.?\/?assets\/[^"]+"/.exec(out);
  if (leftover) throw new Error(`single file: ${leftover[0]} was not inlined`);
  return out;
}

// KaTeX's @font-face rules list each font as woff2, woff and ttf. Every browser that runs the
// playground (WebAssembly SIMD or not) reads woff2, so the other two would only double the file.
export function dropLegacyFonts(css) {
  return css.replace(/,\s*url\((["']?)data:font\/(?:woff|ttf|truetype);base64,[^)"']*\1\)\s*format\((["'])(?:woff|truetype)\2\)/g, '');
}

// The single file's Content Security Policy, in place of the site's (web/index.html), which
// allows files of its own origin: here everything is inline. Its one script is allowed by its
// hash (no 'unsafe-inline'), the engine's wasm and the fonts are data: URLs, the worker a blob:
// URL; data: images for the PNG export. No eval, no network. (docs/embedding.md)
export function singleFilePolicy(scriptHashes) {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes.map((hash) => `'${hash}'`).join(' ')} 'wasm-unsafe-eval'`,
    'worker-src blob:',
    'connect-src data:',
    "style-src 'unsafe-inline'",
    'font-src data:',
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

// The hash CSP compares: SHA-256 of the element's text as the HTML parser sees it (CR LF → LF).
const scriptHash = (code) => `sha256-${createHash('sha256').update(code.replace(/\r\n?/g, '\n'), 'utf8').digest('base64')}`;

/** The inlined page with the single file's policy in place of the page's (or, if it has none, first in its head). */
export function withSingleFilePolicy(html) {
  const hashes = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => scriptHash(m[1]));
  const policy = `<meta http-equiv="Content-Security-Policy" content="${singleFilePolicy(hashes)}" />`;
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="[^"]*"\s*\/?>/;
  if (meta.test(html)) return html.replace(meta, () => policy);
  // Before any script or style it governs, after <meta charset> (which must come first).
  const at = /<meta charset="[^"]*"\s*\/?>|<head[^>]*>/i.exec(html);
  if (!at) throw new Error('single file: the page has no <head> to hold its Content-Security-Policy');
  const end = at.index + at[0].length;
  return `${html.slice(0, end)}${policy}${html.slice(end)}`;
}

/** Builds the single file into `outDir` (default dist/). Returns its path. */
export async function buildSingleFile({
  outDir = path.join(repo, 'dist'),
  logLevel = 'warn',
  root = path.join(repo, 'web'),
  fileName = SINGLE_FILE_NAME,
} = {}) {
  const { build } = await import('vite');
  const work = await mkdtemp(path.join(tmpdir(), 'attention-single-'));
  try {
    await build({
      configFile: false,
      root,
      base: './',
      publicDir: false,
      logLevel,
      plugins: [dropGlueWasmUrl(), inlineWorkers(), compileHints()],
      worker: {
        // A classic worker: Chromium does not start a module worker from a blob: URL in a page
        // opened from disk (origin "null"); a classic one it does.
        format: 'iife',
        plugins: () => [dropGlueWasmUrl()],
        rolldownOptions: { output: { codeSplitting: false } },
      },
      build: {
        outDir: work,
        emptyOutDir: true,
        target: 'es2022',
        assetsInlineLimit: () => true, // every asset as a data: URL
        cssCodeSplit: false,
        modulePreload: false,
        reportCompressedSize: false,
        chunkSizeWarningLimit: 8192, // one big script is the point
        rolldownOptions: { output: { codeSplitting: false } }, // one script: no chunks to fetch
      },
    });
    const html = await readFile(path.join(work, 'index.html'), 'utf8');
    const assets = new Map();
    for (const name of await readdir(path.join(work, 'assets'))) {
      assets.set(`./assets/${name}`, await readFile(path.join(work, 'assets', name), 'utf8'));
    }
    const single = withSingleFilePolicy(
      inlineHtml(html, (ref) => {
        const text = assets.get(ref.startsWith('./') ? ref : `./${ref}`);
        if (text === undefined) throw new Error(`single file: ${ref} is not in the build`);
        return text;
      }),
    );
    await mkdir(outDir, { recursive: true });
    const file = path.join(outDir, fileName);
    await writeFile(file, single);
    return file;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = await buildSingleFile({ logLevel: 'info' });
  const { size } = await import('node:fs').then((fs) => fs.statSync(file));
  console.log(`${path.relative(repo, file)}: ${(size / 1024).toFixed(0)} KiB, self-contained`);
}
