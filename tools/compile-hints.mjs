// A Vite plugin that asks V8 to compile the page's entry script whole, as it loads, instead of
// each function the first time it is called. Without it, the first time a reader moves τ, edits
// a cell or toggles the mask, the code for it is compiled in that very interaction and starts in
// the interpreter. Measured side by side (`FRESH=8 TRACE=light COMPARE=… node
// tests/browser/measure-lesson.mjs`, 2026-12-01): first times 0.89 × those without the hint on
// the page of one step (the geometric mean over its nine interactions, both orders), 0.90 and
// 0.97 on the pages of all steps (one order); the lesson was on screen no later after a load (four runs of
// 10–20 loads each way: +7 ms on average of about 950), though the first paint of the static page
// came 35–40 ms later in three of them (the whole script is compiled before it runs).
//
// The hint is V8's "explicit compile hints" magic comment, which must be the script's first
// line; other engines read it as a comment. It is added once the chunk is final (minified), so
// that no later step drops it.
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

export function compileHints() {
  return {
    name: 'attention-playground:compile-hints',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.isEntry && !chunk.code.startsWith(COMPILE_HINT)) chunk.code = COMPILE_HINT + chunk.code;
      }
    },
  };
}
