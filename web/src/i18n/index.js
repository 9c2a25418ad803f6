// Translation lookup: dictionaries, a translator with {placeholder} filling, language choice.
// No DOM here (views/i18n-dom.js writes the texts into the page).
import en from './en.js';
import exerciseEn from './exercise-en.js';
import exerciseZhCN from './exercise-zh-CN.js';
import headsEn from './heads-en.js';
import headsZhCN from './heads-zh-CN.js';
import lessonEn from './lesson-en.js';
import lessonZhCN from './lesson-zh-CN.js';
import modernEn from './modern-en.js';
import modernZhCN from './modern-zh-CN.js';
import perfEn from './perf-en.js';
import perfZhCN from './perf-zh-CN.js';
import shareEn from './share-en.js';
import shareZhCN from './share-zh-CN.js';
import trainEn from './train-en.js';
import trainZhCN from './train-zh-CN.js';
import zhCN from './zh-CN.js';

export const DICTIONARIES = Object.freeze({
  en: { ...en, ...shareEn, ...lessonEn, ...headsEn, ...perfEn, ...exerciseEn, ...trainEn, ...modernEn },
  'zh-CN': { ...zhCN, ...shareZhCN, ...lessonZhCN, ...headsZhCN, ...perfZhCN, ...exerciseZhCN, ...trainZhCN, ...modernZhCN },
});
export const LANGUAGES = Object.freeze(Object.keys(DICTIONARIES));
export const DEFAULT_LANGUAGE = 'en';

// Names of the {placeholders} in a text, sorted: used by the tests to compare dictionaries.
export function placeholders(text) {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}

// Fills {name} with params[name], and {name|one|other} with the word for that count ("1 token",
// "6 tokens"; English only: Chinese has no plural); an unknown placeholder stays visible.
export function fill(text, params = {}) {
  return text.replace(/\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g, (whole, name, one, other) => {
    if (!Object.hasOwn(params, name)) return whole;
    if (one === undefined) return String(params[name]);
    return Number(params[name]) === 1 ? one : other;
  });
}

// t(key, params) in `lang`; a missing key falls back to English, then to the key itself, so a
// gap shows up on screen instead of throwing.
export function createTranslator(lang) {
  const dictionary = DICTIONARIES[lang] ?? DICTIONARIES[DEFAULT_LANGUAGE];
  return (key, params) => fill(dictionary[key] ?? DICTIONARIES[DEFAULT_LANGUAGE][key] ?? key, params);
}

// The first of `preferred` (e.g. navigator.languages) that we have: 'zh', 'zh-Hans', 'zh-CN'
// all mean zh-CN.
export function pickLanguage(preferred = []) {
  for (const tag of preferred) {
    if (typeof tag !== 'string') continue;
    if (LANGUAGES.includes(tag)) return tag;
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'zh') return 'zh-CN';
    if (base === 'en') return 'en';
  }
  return DEFAULT_LANGUAGE;
}

// Unicode superscript and subscript digits, for head numbers in symbols: Q⁽²⁾, head₂.
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
export function superscript(n) {
  return `⁽${String(n).replace(/\d/g, (d) => SUPERSCRIPT[d])}⁾`;
}
export function subscript(n) {
  return String(n).replace(/\d/g, (d) => SUBSCRIPT[d]);
}
