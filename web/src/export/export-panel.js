// The Export panel: the configuration as PyTorch or NumPy code, and one matrix as CSV, JSON, SVG
// or PNG, each a download. The generators (code.js, matrices.js, svg.js) are DOM-free; this file
// only builds the panel and turns text into files.
import { engineConfigOf } from '../share/engine-config.js';
import { numpyCode, pytorchCode } from './code.js';
import { matrixCatalog, matrixToCSV, matrixToJSON } from './matrices.js';
import { heatmapSVG } from './svg.js';
import { drawing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';

const h = (doc, tag, props = {}, children = []) => {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
};

// Saves text (or a Blob) as a file through a temporary link; works from file:// too.
export function download(doc, name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const link = h(doc, 'a', { href: url, download: name });
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  drawing.later(url, THRESHOLDS.downloadUrlMs, () => URL.revokeObjectURL(url), { background: true }); // (after the download has started)
}

// An SVG text as a PNG Blob at twice its size (sharp on high-density screens).
export function svgToPng(doc, svg) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const canvas = doc.createElement('canvas');
      canvas.width = image.naturalWidth * 2;
      canvas.height = image.naturalHeight * 2;
      const context = canvas.getContext('2d');
      context.scale(2, 2);
      context.drawImage(image, 0, 0);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png');
    };
    image.onerror = () => reject(new Error('the SVG could not be drawn'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

// A file-name-safe form of a matrix id: 'weights.2' → 'weights-head2'.
const fileStem = (entry) => `attention-${entry.name}${entry.head === undefined ? '' : `-head${entry.head + 1}`}`;

/**
 * Builds the panel into `container`. Returns { update({ state, result, link, t, selected? }) }:
 * call it after each new result (and on a language change).
 */
export function createExportPanel(doc, container) {
  let current = null;
  let catalog = [];

  const select = h(doc, 'select', { id: 'share-export-matrix' });
  const button = (action, key) => h(doc, 'button', { type: 'button', dataset: { export: action, i18n: key } });
  container.append(
    h(doc, 'h2', { dataset: { i18n: 'export.title' } }),
    h(doc, 'p', { class: 'share-row' }, [
      h(doc, 'span', { dataset: { i18n: 'export.code' } }),
      button('pytorch', 'export.pytorch'),
      button('numpy', 'export.numpy'),
    ]),
    h(doc, 'p', { class: 'share-row' }, [
      h(doc, 'label', { for: 'share-export-matrix', dataset: { i18n: 'export.matrix' } }),
      select,
      button('csv', 'export.csv'),
      button('json', 'export.json'),
      button('svg', 'export.svg'),
      button('png', 'export.png'),
    ]),
  );

  const selected = () => catalog.find((entry) => entry.id === select.value) ?? catalog[0];

  container.addEventListener('click', async (event) => {
    const action = event.target.closest('[data-export]')?.dataset.export;
    if (!action || !current) return;
    const { state, result, link, t } = current;
    const entry = selected();
    const title = entry ? t(`name.${entry.name}`) : '';
    switch (action) {
      case 'pytorch':
        download(doc, 'attention_pytorch.py', pytorchCode({ config: engineConfigOf(state), result, link }), 'text/x-python');
        break;
      case 'numpy':
        download(doc, 'attention_numpy.py', numpyCode({ config: engineConfigOf(state), result, link }), 'text/x-python');
        break;
      case 'csv':
        download(doc, `${fileStem(entry)}.csv`, matrixToCSV(entry), 'text/csv');
        break;
      case 'json':
        download(doc, `${fileStem(entry)}.json`, matrixToJSON(entry, { link }), 'application/json');
        break;
      case 'svg':
        download(doc, `${fileStem(entry)}.svg`, heatmapSVG(entry, { title }), 'image/svg+xml');
        break;
      case 'png':
        download(doc, `${fileStem(entry)}.png`, await svgToPng(doc, heatmapSVG(entry, { title })));
        break;
      default:
    }
  });

  return {
    /** Selects a matrix by id ('weights.1', 'x', …) if it exists. */
    select(id) {
      if (catalog.some((entry) => entry.id === id)) select.value = id;
    },
    update({ state, result, link, t }) {
      current = { state, result, link, t };
      const keep = select.value || 'weights.1';
      catalog = matrixCatalog(result);
      select.replaceChildren(
        ...catalog.map((entry) => {
          const name = t(`name.${entry.name}`);
          const label = `${entry.symbol} · ${name === `name.${entry.name}` ? entry.name : name}`;
          return h(doc, 'option', { value: entry.id, text: label });
        }),
      );
      select.value = catalog.some((entry) => entry.id === keep) ? keep : catalog[0].id;
    },
  };
}
