// The page lives in web/; `npm run build` writes a static site to dist/ that any static file
// server can host. `base: './'` keeps every asset URL relative, so the site also works from a
// sub-folder of a course server.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: false,
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022' },
  server: { host: 'localhost', port: 5173, strictPort: false },
  preview: { host: 'localhost', port: 4173 },
});
