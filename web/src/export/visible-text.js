// Token text as the exports write it where a raw control character would break the file (an SVG
// label must be XML 1.0; a Python comment cannot hold a NUL or a line break). One rule for every
// such place, so the same token looks the same in each: the character becomes the escape Python's
// repr() writes — "\x00" for NUL, "\x07" for BEL, "\t", "\n", "\r", "\x7f" for DEL — and what
// XML forbids even escaped (a lone surrogate, U+FFFE, U+FFFF) becomes "\ud800", "\ufffe"…
// Plain ASCII, so it shows in any font (Control Pictures such as "␀" drew as empty boxes in the
// PNG export on a machine without a font for them).
const INVISIBLE = /[\u0000-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;
const SHORT = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function visibleText(text) {
  return String(text).replace(INVISIBLE, (c) => {
    const code = c.charCodeAt(0);
    return SHORT[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
  });
}
