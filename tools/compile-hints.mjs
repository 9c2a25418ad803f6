// A Vite plugin that asks V8 to compile the page's entry script whole, as it loads, instead of
// each function the first time it is called. Without it, the first time a reader moves τ, edits
// a cell or toggles the mask, the code for it is compiled in that very interaction and starts in
// the interpreter. First times are about 0.9 × those without it; the static page paints a little
// later (figures and the command: docs/performance.md).
//
// The hint is V8's "explicit compile hints" magic comment, which must be the script's first
// line; other engines read it as a comment. It is added once the chunk is final (minified), so
// that no later step drops it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

export function compileHints() {
  return {
    name: 'attention-playground:compile-hints',
    apply: 'build',
    // Once the files are written: Vite puts a line of preload addresses at the top of a chunk with
    // dynamic imports after every plugin's generateBundle.
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const file = path.join(options.dir, chunk.fileName);
        const code = readFileSync(file, 'utf8');
        if (!code.startsWith(COMPILE_HINT)) writeFileSync(file, COMPILE_HINT + code.replace(COMPILE_HINT, ''));
      }
    },
  };
}
