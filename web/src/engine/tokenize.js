// Splitting text into tokens, part of the package's main export:
//   tokenize('我爱自然语言处理', 'word')  →  ['我', '爱', '自然', '语言', '处理']
// "whitespace" splits at runs of white space; "char" gives one token per character (grapheme
// cluster, so 'é' or an emoji stays whole); "word" uses Intl.Segmenter's word segmentation,
// which also segments text without spaces (Chinese, Japanese, Thai), keeping punctuation as
// tokens and dropping white space.
const MODES = ['whitespace', 'char', 'word'];

const segmenters = new Map();
function segmenter(granularity, locale) {
  const key = `${granularity}|${locale ?? ''}`;
  if (!segmenters.has(key)) segmenters.set(key, new Intl.Segmenter(locale, { granularity }));
  return segmenters.get(key);
}

/**
 * @param {string} text
 * @param {'whitespace' | 'char' | 'word'} [mode='whitespace']
 * @param {string} [locale] a BCP 47 tag for word segmentation, e.g. 'zh-CN' (default: the runtime's)
 * @returns {string[]}
 */
export function tokenize(text, mode = 'whitespace', locale = undefined) {
  if (typeof text !== 'string') throw new Error('tokenize() needs a string');
  switch (mode) {
    case 'whitespace':
      return text.split(/\s+/u).filter((token) => token.length > 0);
    case 'char':
      return Array.from(segmenter('grapheme', locale).segment(text), (s) => s.segment).filter((token) => !/^\s+$/u.test(token));
    case 'word':
      return Array.from(segmenter('word', locale).segment(text), (s) => s.segment).filter((token) => !/^\s+$/u.test(token));
    default:
      throw new Error(`unknown tokenize mode "${String(mode)}": use ${MODES.map((m) => `"${m}"`).join(', ')}`);
  }
}
