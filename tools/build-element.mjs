// The <attention-playground> custom element as one small ES module next to the site's
// index.html, so a course page needs one line:
//   <script type="module" src="https://…/attention-playground.js"></script>
//
//   node tools/build-element.mjs        → dist/attention-playground.js
//
// `npx vite build` runs this by itself (vite.config.js calls buildElement after the site).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const ELEMENT_FILE_NAME = 'attention-playground.js';

/** Builds the element into `outDir` (default dist/, which must hold the site's index.html). */
export async function buildElement({ outDir = path.join(repo, 'dist'), logLevel = 'warn' } = {}) {
  const { build } = await import('vite');
  await build({
    configFile: false,
    publicDir: false,
    logLevel,
    build: {
      outDir,
      emptyOutDir: false, // the site is already there
      target: 'es2022',
      reportCompressedSize: false,
      lib: {
        entry: path.join(repo, 'web/src/embed/element.js'),
        formats: ['es'],
        fileName: () => ELEMENT_FILE_NAME,
      },
    },
  });
  return path.join(outDir, ELEMENT_FILE_NAME);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = await buildElement({ logLevel: 'info' });
  console.log(`${path.relative(repo, file)} written`);
}
