// The page lives in web/; `npm run build` writes a static site to dist/ that any static file
// server can host. `base: './'` keeps every asset URL relative, so the site also works from a
// sub-folder of a course server.
//
// After the site, the same `vite build` writes two more files into dist/ (tools/):
//   attention-playground.js                  the <attention-playground> custom element
//   attention-playground-standalone.html     the whole playground in one file (wasm inlined),
//                                            for LMS uploads and for opening from disk
import { defineConfig } from 'vite';

import { buildElement } from './tools/build-element.mjs';
import { compileHints } from './tools/compile-hints.mjs';
import { buildSingleFile } from './tools/build-single-file.mjs';

function extraOutputs() {
  return {
    name: 'attention-playground:extra-outputs',
    apply: 'build',
    async closeBundle(error) {
      if (error) return;
      await buildElement();
      await buildSingleFile();
    },
  };
}

// Vite writes the page's entry <script> anew and drops `blocking`; web/index.html says why it is
// there (no frame of the page before its scripts filled in its texts).
function renderBlockingEntry() {
  return {
    name: 'attention-playground:render-blocking-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script async type="module"/;
        if (!entry.test(html)) throw new Error('render-blocking-entry: no `<script async type="module"` in the page');
        return html.replace(entry, '<script async blocking="render" type="module"');
      },
    },
  };
}

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: false,
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022' },
  plugins: [compileHints(), renderBlockingEntry(), extraOutputs()],
  server: { host: 'localhost', port: 5173, strictPort: false },
  preview: { host: 'localhost', port: 4173 },
});
