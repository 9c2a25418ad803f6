// English texts of sharing, embedding and export (web/src/share, web/src/embed, web/src/export).
// Same keys as share-zh-CN.js; merged into the page's dictionary by i18n/index.js.
export default {
  'share.copy': 'Copy link',
  'share.linkLabel': 'Link to this page',
  'share.copied': 'Link copied',
  'share.copyFailed': 'Could not copy: the link is in the address bar',
  'share.tooLarge': 'This configuration is too large for a link: {length} characters, and browsers open links of up to {max}.',
  'share.embedButton': 'Embed / use in class',
  'share.exportButton': 'Export',
  'share.galleryButton': 'Examples',

  'share.ignored.title': 'Parts of this link were not applied; the rest is as the link says:',
  'share.ignored.dismiss': 'Dismiss',
  'share.ignored.unreadable': '“{value}” is not valid link text.',
  'share.ignored.duplicate': '{name} is given twice; the first one is used.',
  'share.ignored.malformed': '{name}={value} cannot be read; the example’s value is used.',
  'share.ignored.newer':
    'The link was made by a newer version of the playground (v={value}); what this version knows was applied.',
  'share.ignored.preset': 'There is no example “{value}”; the default example is used.',
  'share.ignored.clamped': '{name}={value} is out of range; {used} is used.',
  'share.ignored.tooLong': '{name} is too long ({length} characters); the example’s value is used.',
  'share.ignored.linkTooLong': 'The link is too long ({length} characters) and was not read.',
  'share.ignored.expands':
    '{name}: the compressed value expands past {max} characters, the most this field can hold here; the example’s value is used.',
  'share.ignored.tooManyParts': 'The link has {count} parts; only the first {max} were read.',
  'share.ignored.noTokens': '{name}: the sentence has no tokens; “{used}” is used.',
  'share.ignored.tokens': '{name}: the sentence has {T} tokens, more than {max}; “{used}” is used.',
  'share.ignored.tokenBytes': '{name}: a token is {bytes} bytes long, more than the {max} the engine takes; “{used}” is used.',
  'share.ignored.heads': '{heads} heads do not divide d_model = {dModel}; h = {used} is used.',
  'share.ignored.shape':
    '{name}: a {rows} × {cols} matrix does not fit the {wantRows} × {wantCols} that the tokens and d_model need; {used} is used.',
  'share.ignored.shapeDropped':
    '{name}: a {rows} × {cols} matrix does not fit the {wantRows} × {wantCols} that the tokens and d_model need; it is left out.',
  'share.ignored.fitted': '{name}={value} does not fit this configuration; {used} is used.',
  'share.ignored.kvWeights':
    '{name}={value}: shared key/value heads need narrower W_K and W_V than the edited weights; {name}={used} (one key/value head per head) is used.',
  'share.ignored.unknown': '“{name}” is not a setting of this playground.',

  'gallery.title': 'Examples gallery',
  'gallery.intro': 'Each example is a link: open it, change it, share it.',
  'gallery.open': 'Open',
  'gallery.journey.title': 'The course’s worked example',
  'gallery.journey.text':
    '“Your journey starts with one step”, d_model = 3, identity weights and a causal mask, exactly as in the course: Q = K = V = X, the scores are divided by √3, and the second row of A is [0.423, 0.577, 0, 0, 0, 0]. Every matrix printed in the course can be checked here to 3 decimals.',
  'gallery.journey-bidirectional.title': 'The same example without the mask',
  'gallery.journey-bidirectional.text':
    'The worked example with M = 0: every token now also reads from the tokens after it, so “Your” no longer attends only to itself. The scores S are unchanged; only which keys enter each softmax differs. Compare row by row with the causal version.',
  'gallery.journey-unscaled.title': 'The same example without √d_k',
  'gallery.journey-unscaled.text':
    'The worked example with the scaling switched off: the scores are √3 ≈ 1.73 times larger and every softmax row gets sharper (row 2 becomes [0.368, 0.632]). With d_k in the hundreds the effect is far stronger, which is why the scores are divided by √d_k.',
  'gallery.cat-sat.title': '“The cat sat”: cat looks at itself',
  'gallery.cat-sat.text':
    'The hand-computed example of the self-test note: d_k = 4, identity weights, so the query of “cat” is [1, 0, 1, 0] and the keys are [1,1,0,0], [1,0,1,0], [0,1,1,0]. Its scores are [1, 2, 1] / 2 and its weights [0.274, 0.452, 0.274]; the note rounds the middle one to 0.46.',
  'gallery.self-test-2.title': 'Self-test question 2, computed',
  'gallery.self-test-2.text':
    'd_k = 8 and the query row’s scores before scaling are [2, 4, 2]. Divided by √8 they are [0.71, 1.41, 0.71], and softmax gives [0.248, 0.503, 0.248], not the [0.09, 0.82, 0.09] of the note’s answer. Switch the scaling off to see [0.107, 0.787, 0.107]: neither matches the note.',
  'gallery.default.title': 'The default: two heads, random weights',
  'gallery.default.text':
    'Six tokens, d_model = 6, two heads of d_k = 3, weights drawn from seed 0. The weights are random, not trained, so the patterns carry no meaning about the sentence: they only show the mechanics.',
  'gallery.four-heads.title': 'Four heads',
  'gallery.four-heads.text':
    'd_model = 8 split into four heads of d_k = 2. Each head takes its own two columns of Q, K and V and computes its own attention pattern; Concat puts the four results side by side and W_O mixes them.',
  'gallery.one-head.title': 'One head on the same weights',
  'gallery.one-head.text':
    'The same input and the same weight matrices as the four-head example (d_model = 8, seed 1), but one head of d_k = 8: a single attention pattern instead of four. Open both and compare the outputs.',
  'gallery.other-seed.title': 'Other random weights',
  'gallery.other-seed.text':
    'The default example with seed 42: the same sentence with different random W_Q, W_K, W_V, W_O gives different patterns. A large weight is not evidence that two words are related; it is what these weights make of these vectors.',
  'gallery.it-was-tired.title': 'A longer sentence',
  'gallery.it-was-tired.text':
    '“The animal didn’t cross the street because it was too tired”: eleven tokens, three heads, causal mask. Later tokens spread their attention over more keys, so their rows are flatter; the first row is always [1, 0, …].',
  'gallery.chinese.title': 'A Chinese sentence',
  'gallery.chinese.text':
    'Chinese puts no spaces between words: the sentence is split into words by the browser’s word segmenter (the tokenization control also splits at spaces or by character). No mask: every word reads from every other word.',

  'embed.title': 'Embed / use in class',
  'embed.intro':
    'Choose what learners see. The classroom link opens the full page with those parts hidden; the iframe and the custom element put this view into a course page. All three carry the current state.',
  'embed.hideLabel': 'Hide',
  'embed.classroom': 'Classroom link',
  'embed.iframe': 'iframe for a course page (works where only an iframe is allowed)',
  'embed.iframeHint':
    'The optional script lets the iframe fit its content: the embed reports its height with postMessage (docs/embedding.md).',
  'embed.element': 'Custom element (one script, any number of playgrounds)',
  'embed.copy': 'Copy',
  'embed.copied': 'Copied',
  'embed.openFull': 'Open in the full playground ↗',
  'embed.frameTitle': 'Attention playground',
  'embed.part.prose': 'explanations',
  'embed.part.presets': 'examples',
  'embed.part.lang': 'language switch',
  'embed.part.share': 'sharing',
  'embed.part.export': 'export',
  'embed.part.overview': 'attention weights at the top',
  'embed.part.lesson': 'step-by-step lesson',
  'embed.part.inputs': 'matrices from earlier steps',
  'embed.part.tokenView': 'token-to-token view',
  'embed.part.positionsView': 'positions and shuffling',
  'embed.part.crossView': 'cross-attention view',
  'embed.part.perf': 'performance panel',
  'embed.more': 'More views: the head split, token to token, positions, performance',
  'embed.field.sentence': 'sentence',
  'embed.field.dModel': 'd_model',
  'embed.field.heads': 'heads',
  'embed.field.mask': 'mask',
  'embed.field.scale': 'scaling',
  'embed.field.weights': 'weights',
  'embed.field.seed': 'seed',
  'embed.field.tokenization': 'tokenization',
  'embed.field.kvHeads': 'key/value heads',
  'embed.field.positional': 'positional encoding',
  'embed.field.cross': 'cross-attention',
  'embed.field.embeddings': 'embeddings',
  'embed.field.source': 'source sentence (cross-attention)',
  'embed.field.sourcePadding': 'source padding',
  'embed.field.crossCausal': 'causal mask over the source',
  'embed.field.split': 'head split',

  'export.title': 'Export',
  'export.code': 'This configuration as code that prints the same matrices:',
  'export.pytorch': 'PyTorch (.py)',
  'export.numpy': 'NumPy (.py)',
  'export.matrix': 'One matrix:',
  'export.csv': 'CSV',
  'export.json': 'JSON',
  'export.svg': 'SVG',
  'export.png': 'PNG',
  'export.head': 'head {h}',
};
