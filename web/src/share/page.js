// Sharing on the page: the link kept in the address bar as the reader works, "Copy link", the
// message about what a link could not apply, the examples gallery, the "Embed / use in class"
// panel, the Export panel and embed mode. main.js calls the three hooks below; all texts come
// from i18n (data-i18n, filled by views/i18n-dom.js) and every link text goes in as a property,
// never as HTML.
import { enterEmbedMode } from '../embed/embed-mode.js';
import { embedFragment } from '../embed/protocol.js';
import { createExportPanel } from '../export/export-panel.js';
import { iframeSnippet } from '../exercise/embed-snippet.js';
import { parseCellRef } from '../state/schema.js';
import { ALL_FIELDS, encodeStateSteps, linkLength, linkOf, PAGE_PARTS } from '../state/url.js';
import { runSteps } from '../state/lz-bounded.js';
import { galleryItems } from './gallery.js';
import { applyHidden, controlsOnPage } from './hide.js';
import { drawing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';
import './share.css';

const { linkWriteDelayMs, linkWriteWaitMs, linkStepMs, sliceMs, noteShownMs } = THRESHOLDS;
// (in the page's scheduler: idle time after the reader stopped; nothing waits for it to count as drawn)
const WRITING = { waitMs: linkWriteWaitMs, costCapMs: sliceMs, background: true };

// The longest link kept in the address bar as the reader works (history.replaceState's time grows
// with the link, in one task); a longer link is made when the reader copies it. (The link a page was opened with stays until the state changes.)
export const ADDRESS_MAX_CHARS = 65536;

// The longest link Chromium opens (url::kMaxURLChars): a longer one is not offered as a link.
export const LINK_MAX_CHARS = 2 * 1024 * 1024;

const h = (doc, tag, props = {}, children = []) => {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name === 'className') node.className = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
};

// The page's address without its fragment (works for http(s) and file://).
const pageAddress = (win) => win.location.href.split('#')[0];

/**
 * Builds the sharing parts into the page. Returns the hooks main.js calls:
 *   linkOpened({ ignored, view })                    after decodeHash(location.hash)
 *   stateChanged({ presetId, state, result, lang, t }) after each new result, view change and
 *                                                    language change (the address follows)
 *   currentHash()                                    the link's hash for what is shown now
 *   flush()                                          writes a pending address now
 */
export function installSharing({ doc = document, win = window } = {}) {
  let view = { embed: false, hidden: [] };
  let current = null; // { presetId, state, result, lang, t, parts, hash }
  let encoding = null; // the steps encoding current's state (url.js encodeStateSteps), under way
  let openedAddress = false; // the address is the link the page was opened with, and still holds
  let notice = []; // ignored items of the opened link
  let pending = false; // an address to write
  let exporterStale = false; // the export panel shows an older state (updated when opened)
  const writeKey = { address: win };
  let embed = null;

  // ---- the address, rewritten as the reader works ------------------------------------------------
  // The address is encoded when it is written (the text of edited matrices takes milliseconds:
  // not on every keystroke or pointer move), in steps over idle periods (a matrix of a million
  // numbers is written row by row, and only its changed rows the next time), or at once when
  // something asks for it (partsNow, hashNow).
  const partsNow = () => {
    if (current && current.parts === null) {
      current.parts = runSteps(encoding ?? encodeStateSteps(current));
      encoding = null;
    }
    return current?.parts ?? null;
  };
  const hashNow = () => {
    if (current && current.hash === null) current.hash = linkOf(partsNow(), { lang: current.lang, view });
    return current?.hash ?? null;
  };
  // One idle job writes the address: the state's text a few milliseconds at a time (a task of its
  // own each), then the address itself.
  const write = () => {
    if (!pending) return;
    if (current.parts === null) {
      encoding ??= encodeStateSteps(current);
      const end = performance.now() + linkStepMs;
      for (;;) {
        const { done, value } = encoding.next();
        if (done) {
          current.parts = value;
          encoding = null;
          break;
        }
        if (performance.now() >= end) {
          drawing.idle(writeKey, write, WRITING);
          return;
        }
      }
    }
    pending = false;
    if (embed && linkLength(current.parts, { lang: current.lang }) <= LINK_MAX_CHARS)
      embed.setLink(fullLink(linkOf(current.parts, { lang: current.lang })));
    // Too long to keep in the address: the link the page was opened with stays while nothing
    // changed; else no fragment, rather than one that no longer says what is on screen.
    const fits = linkLength(current.parts, { lang: current.lang, view }) <= ADDRESS_MAX_CHARS;
    if (!fits && openedAddress) return;
    const hash = fits ? hashNow() : '';
    if (hash === (win.location.hash === '#' ? '' : win.location.hash)) return;
    openedAddress = false;
    win.history.replaceState(win.history.state, '', hash || `${win.location.pathname}${win.location.search}`);
  };
  // Once the reader paused, in idle time: encoding an edited state takes milliseconds, and a timer
  // firing between an input's handler and its frame delayed that frame by as much.
  const schedule = () => {
    pending = true;
    drawing.later(writeKey, linkWriteDelayMs, write, WRITING);
  };
  const flush = () => {
    drawing.cancel(writeKey);
    if (!pending || !current) return;
    partsNow();
    write();
  };
  win.addEventListener('pagehide', flush);

  // ---- the share bar (in the header) ---------------------------------------------------------------
  const bar = h(doc, 'div', { id: 'share-bar', className: 'share-bar', role: 'group' });
  const copy = h(doc, 'button', { type: 'button', id: 'share-copy', className: 'share-primary', dataset: { i18n: 'share.copy' } });
  const status = h(doc, 'span', { id: 'share-status', className: 'share-status', role: 'status' });
  const linkBox = h(doc, 'input', {
    id: 'share-link',
    className: 'share-link',
    readonly: true,
    hidden: true,
    dataset: { i18nAria: 'share.linkLabel' },
  });
  const opener = (panel, key) =>
    h(doc, 'button', { type: 'button', dataset: { shareOpen: panel, i18n: key }, 'aria-expanded': 'false', 'aria-controls': panel });
  bar.append(
    copy,
    opener('share-gallery', 'share.galleryButton'),
    opener('share-embed', 'share.embedButton'),
    opener('share-export', 'share.exportButton'),
    status,
    linkBox,
  );
  const header = doc.querySelector('header.top');
  (header?.querySelector('.lang') ?? header)?.before(bar);
  if (!header) doc.body.prepend(bar);

  // ---- the message about ignored link parts -------------------------------------------------------
  const noticeBox = h(doc, 'div', { id: 'share-notice', className: 'share-notice', role: 'status', hidden: true });
  const noticeTitle = h(doc, 'p', { className: 'share-notice-title', dataset: { i18n: 'share.ignored.title' } });
  const noticeList = h(doc, 'ul');
  const dismiss = h(doc, 'button', { type: 'button', className: 'share-dismiss', dataset: { i18n: 'share.ignored.dismiss' } });
  noticeBox.append(dismiss, noticeTitle, noticeList);
  (doc.querySelector('main') ?? doc.body).prepend(noticeBox); // (above every view)
  dismiss.addEventListener('click', () => {
    notice = [];
    noticeBox.hidden = true;
  });

  // ---- panels: gallery, embed, export (one open at a time, under the controls) ----------------------
  const controlsPanel = doc.getElementById('controls')?.closest('section');
  const anchor = controlsPanel ?? doc.getElementById('results');
  const gallery = h(doc, 'section', { id: 'share-gallery', className: 'panel share-panel', hidden: true });
  const embedPanel = h(doc, 'section', { id: 'share-embed', className: 'panel share-panel', hidden: true });
  const exportBox = h(doc, 'section', { id: 'share-export', className: 'panel share-panel', hidden: true });
  if (controlsPanel) controlsPanel.after(gallery, embedPanel, exportBox);
  else if (anchor) anchor.before(gallery, embedPanel, exportBox);
  else doc.body.append(gallery, embedPanel, exportBox);
  const panels = [gallery, embedPanel, exportBox];

  bar.addEventListener('click', (event) => {
    const target = event.target.closest('[data-share-open]');
    if (!target) return;
    const panel = doc.getElementById(target.dataset.shareOpen);
    const open = panel.hidden;
    for (const other of panels) other.hidden = true;
    for (const button of bar.querySelectorAll('[data-share-open]')) button.setAttribute('aria-expanded', 'false');
    panel.hidden = !open;
    target.setAttribute('aria-expanded', String(open));
    if (open) {
      if (panel === exportBox) updateExporter();
      renderPanels();
      panel.scrollIntoView({ block: 'nearest' });
    }
  });

  // The gallery: every example a link with its paragraph.
  gallery.append(
    h(doc, 'h2', { dataset: { i18n: 'gallery.title' } }),
    h(doc, 'p', { className: 'share-gallery-intro', dataset: { i18n: 'gallery.intro' } }),
    h(
      doc,
      'ul',
      { className: 'share-gallery-list' },
      galleryItems().map((item) =>
        h(doc, 'li', {}, [
          h(doc, 'a', { href: item.hash || '#', dataset: { gallery: item.id } }, [
            h(doc, 'strong', { dataset: { i18n: item.titleKey } }),
            item.textKey ? h(doc, 'span', { dataset: { i18n: item.textKey } }) : '',
          ]),
        ]),
      ),
    ),
  );

  // Embed / use in class: what to hide, then the three ways in.
  const hideBox = h(doc, 'fieldset', { className: 'share-hide' }, [h(doc, 'legend', { dataset: { i18n: 'embed.hideLabel' } })]);
  const output = (id, labelKey, rows) => {
    const area = h(doc, 'textarea', { id, readonly: true, rows: String(rows), spellcheck: 'false' });
    const copyButton = h(doc, 'button', { type: 'button', dataset: { copy: id, i18n: 'embed.copy' } });
    return h(doc, 'div', { className: 'share-output' }, [
      h(doc, 'label', { for: id, dataset: { i18n: labelKey } }),
      h(doc, 'div', { className: 'share-output-row' }, [area, copyButton]),
    ]);
  };
  embedPanel.append(
    h(doc, 'h2', { dataset: { i18n: 'embed.title' } }),
    h(doc, 'p', { className: 'share-gallery-intro', dataset: { i18n: 'embed.intro' } }),
    hideBox,
    output('share-classroom', 'embed.classroom', 2),
    output('share-iframe', 'embed.iframe', 4),
    h(doc, 'p', { className: 'hint', dataset: { i18n: 'embed.iframeHint' } }),
    output('share-element', 'embed.element', 3),
  );
  const chosenHidden = new Set();
  hideBox.addEventListener('change', (event) => {
    const name = event.target.dataset?.hideName;
    if (!name) return;
    if (event.target.checked) chosenHidden.add(name);
    else chosenHidden.delete(name);
    renderPanels();
  });
  embedPanel.addEventListener('click', (event) => {
    const id = event.target.closest('[data-copy]')?.dataset.copy;
    if (!id) return;
    const area = doc.getElementById(id);
    copyText(area.value, area).then((ok) => {
      event.target.textContent = current?.t(ok ? 'embed.copied' : 'share.copyFailed') ?? '';
      drawing.later(
        event.target,
        noteShownMs,
        () => {
          event.target.textContent = current?.t('embed.copy') ?? '';
        },
        { background: true },
      );
    });
  });

  const exporter = createExportPanel(doc, exportBox);
  function updateExporter() {
    if (!exporterStale || !current?.result) return;
    exporterStale = false;
    const { state, result, t } = current;
    exporter.update({ state, result, link: fullLink(hashNow()), t });
    const cell = typeof state.cell === 'string' && state.cell ? parseCellRef(state.cell) : null;
    if (cell) exporter.select(cell.head === null ? cell.name : `${cell.name}.${cell.head + 1}`);
  }
  // Clicking a matrix's caption selects it for export; not its tools (Randomise, Identity…),
  // which do their own job (bringing the exporter up to date would add its link's compression
  // to their click).
  doc.getElementById('results')?.addEventListener('click', (event) => {
    const figure = event.target.closest('figure');
    const cell = figure?.querySelector('[data-matrix]');
    if (!cell || !event.target.closest('figcaption') || event.target.closest('button')) return;
    updateExporter();
    exporter.select(cell.dataset.head === undefined ? cell.dataset.matrix : `${cell.dataset.matrix}.${Number(cell.dataset.head) + 1}`);
  });

  // ---- copying -------------------------------------------------------------------------------------
  async function copyText(text, fallbackField) {
    try {
      await win.navigator.clipboard.writeText(text);
      return true;
    } catch {
      // No clipboard API (file://, an iframe without permission): select the text and copy.
      try {
        fallbackField.select();
        return doc.execCommand('copy');
      } catch {
        return false;
      }
    }
  }

  copy.addEventListener('click', async () => {
    if (!current) return;
    flush();
    const length = pageAddress(win).length + linkLength(partsNow(), { lang: current.lang, view });
    if (length > LINK_MAX_CHARS) {
      // Chromium would not open it: say so rather than copy it.
      status.textContent = current.t('share.tooLarge', { length, max: LINK_MAX_CHARS });
      status.dataset.state = 'failed';
      return;
    }
    const link = fullLink(hashNow());
    linkBox.value = link;
    linkBox.hidden = false;
    const ok = await copyText(link, linkBox);
    status.textContent = current.t(ok ? 'share.copied' : 'share.copyFailed');
    status.dataset.state = ok ? 'ok' : 'failed';
    if (!ok) linkBox.select();
    drawing.later(
      status,
      noteShownMs,
      () => {
        status.textContent = '';
      },
      { background: true },
    );
  });

  const fullLink = (hash) => `${pageAddress(win)}${hash}`;

  // ---- rendering what depends on the state or the language -----------------------------------------
  function renderNotice() {
    if (!current) return;
    // Unchanged (as on most updates: no notice), nothing is rewritten, so nothing is laid out again.
    if (notice.length || noticeList.firstChild)
      noticeList.replaceChildren(...notice.map((item) => h(doc, 'li', { text: current.t(item.key, item.params) })));
    if (noticeBox.hidden !== (notice.length === 0)) noticeBox.hidden = notice.length === 0;
  }

  function renderPanels() {
    if (!current) return;
    const { t, lang } = current;
    if (!embedPanel.hidden) {
      const names = [
        ...controlsOnPage(
          doc,
          ALL_FIELDS.map((field) => field.key),
        ),
        ...PAGE_PARTS,
      ];
      const label = (name) => {
        const key = PAGE_PARTS.includes(name) ? `embed.part.${name}` : `embed.field.${name}`;
        const text = t(key);
        return text === key ? name : text;
      };
      hideBox.replaceChildren(
        h(doc, 'legend', { text: t('embed.hideLabel') }),
        ...names.map((name) =>
          h(doc, 'label', {}, [
            h(doc, 'input', { type: 'checkbox', dataset: { hideName: name }, checked: chosenHidden.has(name) }),
            ` ${label(name)}`,
          ]),
        ),
      );
      const hidden = names.filter((name) => chosenHidden.has(name));
      const parts = partsNow();
      const classroom = fullLink(linkOf(parts, { lang, view: { hidden } }));
      const embedLink = `${pageAddress(win)}#${embedFragment({ link: linkOf(parts, { lang, view: { hidden } }) })}`;
      doc.getElementById('share-classroom').value = classroom;
      doc.getElementById('share-iframe').value = iframeSnippet(embedLink, t('embed.frameTitle'));
      const scriptUrl = new URL('attention-playground.js', pageAddress(win)).href;
      const attrs = [`link="${escapeAttribute(linkOf(parts) || '#')}"`];
      if (lang) attrs.push(`lang="${lang}"`);
      const hideFields = hidden.filter((name) => name !== 'prose');
      if (hideFields.length) attrs.push(`hide="${hideFields.join(' ')}"`);
      if (hidden.includes('prose')) attrs.push('hide-prose');
      doc.getElementById('share-element').value =
        `<script type="module" src="${escapeAttribute(scriptUrl)}"></script>\n<attention-playground ${attrs.join(' ')}></attention-playground>`;
    }
  }

  return {
    linkOpened({ ignored = [], view: opened = { embed: false, hidden: [] } } = {}) {
      // A new link replaces whatever the old one was about to write.
      drawing.cancel(writeKey);
      pending = false;
      encoding = null;
      openedAddress = 'opening';
      notice = ignored;
      view = { embed: Boolean(opened.embed), hidden: [...(opened.hidden ?? [])] };
      if (view.embed && !embed) embed = enterEmbedMode(doc, win);
      applyHidden(doc, view.hidden);
      renderNotice();
    },

    stateChanged({ presetId, state, result, lang = null, t }) {
      const languageChanged = current !== null && current.lang !== lang;
      // The first state after a link was opened is that link's; any later one is a change.
      openedAddress = openedAddress === 'opening';
      current = { presetId, state, result, lang, t, parts: null, hash: null };
      encoding = null;
      schedule();
      if (languageChanged) flush(); // a click, not typing: no reason to wait
      renderNotice();
      renderPanels();
      if (view.hidden.length) applyHidden(doc, view.hidden);
      // The export panel's list and link: now if it is open, else when it opens.
      exporterStale = true;
      if (!exportBox.hidden) updateExporter();
      // (embed mode's link follows when the address is written)
    },

    /** The hash of the state shown now (the address may be written a moment later). */
    currentHash: hashNow,

    /** An exercise's score, to the page that holds this one in a frame once it asks (embed mode only). */
    postExercise: (score) => embed?.postExercise(score),

    flush,
  };
}

function escapeAttribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
