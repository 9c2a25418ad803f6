// Writes the dictionary texts into the static page: data-i18n → textContent,
// data-i18n-title → title, data-i18n-aria → aria-label.
export function applyTranslations(root, t, lang) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-title]')) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll('[data-i18n-aria]')) node.setAttribute('aria-label', t(node.dataset.i18nAria));
  root.documentElement.lang = lang;
  root.title = t('app.title');
  for (const button of root.querySelectorAll('[data-lang]')) {
    button.setAttribute('aria-pressed', button.dataset.lang === lang ? 'true' : 'false');
  }
}
