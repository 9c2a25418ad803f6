// Why the tiled path skipped a tile: which part of the −∞ mask hides every (query, key) pair of
// it, so that the panel can say so (i18n 'modern.flash.why.<reason>'). No DOM, no engine: the
// engine records that a tile was skipped, not why.

// The band masks' rule for one pair, as cpp/mask.hpp has it (without padding).
const BAND = {
  causal: (i, j) => j > i,
  window: (i, j, config) => j > i || j <= i - config.window,
  prefix: (i, j, config) => j > Math.max(i, config.prefix - 1),
};

const bandHides = (hidden, config, tile) => {
  for (let i = tile.row0; i < tile.row0 + tile.rows; i += 1) {
    for (let j = tile.key0; j < tile.key0 + tile.keys; j += 1) if (!hidden(i, j, config)) return false;
  }
  return true;
};

/**
 * config: the engine config the trace was made of; tile: a skipped tile. → 'padding' (every key
 * is padding), 'custom', 'causal', 'window', 'prefix' (the mask alone), or 'causalPadding',
 * 'windowPadding', 'prefixPadding' (each pair hidden by the one or the other).
 */
export function skipReason(config, tile) {
  const padding = config.padding ?? [];
  let padded = 0;
  for (let j = tile.key0; j < tile.key0 + tile.keys; j += 1) if (padding[j]) padded += 1;
  if (padded === tile.keys) return 'padding';
  const mask = config.mask ?? 'causal';
  const hidden = BAND[mask];
  if (!hidden) return 'custom'; // (mask 'none' hides nothing but padding)
  return bandHides(hidden, config, tile) ? mask : `${mask}Padding`;
}

/** How many of `tiles` each reason skipped, in the order the reasons first appear. → [[reason, n]] */
export function skipCounts(config, tiles) {
  const counts = new Map();
  for (const tile of tiles) {
    if (!tile.skipped) continue;
    const reason = skipReason(config, tile);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts];
}
