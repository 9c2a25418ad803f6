// The formula of each step, in the course's notation (Q = XW_Q, S = QKᵀ/√d_k, A = softmax(S + M),
// O = AV, MultiHead(X) = Concat(head₁…head_h)W_O), as KaTeX source. The sizes printed in them
// (T, d_model, d_k, τ) are the current ones. No DOM.
import { factor } from '../render/numbers.js';

// head₁, …, head_h as TeX (just head₁ for one head).
const heads = (h) => (h === 1 ? String.raw`\text{head}_1` : String.raw`\text{head}_1, \dots, \text{head}_{${h}}`);

const tauText = (tau) => factor(tau).replace('\u2212', '-');

// A = softmax(S + M), or with the temperature: softmax((S + M) / τ).
const attentionRule = (tempered) => String.raw`A = \operatorname{softmax}\!\left(${tempered ? String.raw`\frac{S + M}{\tau}` : 'S + M'}\right)`;

// a_ij, stable (the row's max subtracted) or naive.
const softmaxRule = (naive) =>
  naive
    ? String.raw`a_{ij} = \frac{e^{z_{ij}}}{\sum_k e^{z_{ik}}}`
    : String.raw`a_{ij} = \frac{e^{\,z_{ij} - \max_k z_{ik}}}{\sum_k e^{\,z_{ik} - \max_k z_{ik}}}`;

// a_ij over the queries, each key column normalised: the course's misconception (the lab's switch).
const columnRule = (naive) =>
  naive
    ? String.raw`a_{ij} = \frac{e^{z_{ij}}}{\sum_k e^{z_{kj}}}`
    : String.raw`a_{ij} = \frac{e^{\,z_{ij} - \max_k z_{kj}}}{\sum_k e^{\,z_{kj} - \max_k z_{kj}}}`;

// S with the division by √d_k or without it (the lab's √d_k switch).
const scaleRule = (scaled, dK, t) =>
  scaled
    ? String.raw`S = \frac{QK^T}{\sqrt{d_k}},\quad d_k = ${dK},\ \sqrt{d_k} = \sqrt{${dK}}`
    : String.raw`S = QK^T \quad (\text{${t('formula.noScale')}})`;

// The masked scores: M added after the division, or before it (the workbench's order).
const maskedRule = (before) => (before ? String.raw`\frac{QK^T + M}{\sqrt{d_k}}` : 'S + M');

// M's rule with its fill value (−∞, −10⁹ or 0) for the masked entries.
const FILLS = { '-inf': String.raw`-\infty`, '-1e9': String.raw`-10^{9}`, 0: '0' };
const maskRule = (fill, t) =>
  String.raw`M_{ij} = \begin{cases} 0 & \text{${t('formula.visible')}} \\ ${FILLS[fill]} & \text{${t('formula.masked')}} \end{cases}`;

/** The sources a formula line `tex` of step `id` switches among with a control (τ = 1 or not,
 *  naive softmax, the mask's fill value, the mask before or after the division, the division on
 *  or off), `tex` included; [tex] for a line that has no such alternatives. dK: the result's. */
export function formulaVariants(id, tex, t, dK) {
  if (id === 'scale') {
    const rules = [scaleRule(true, dK, t), scaleRule(false, dK, t)];
    if (rules.includes(tex)) return rules;
  }
  if (id === 'mask' && (tex === maskedRule(true) || tex === maskedRule(false))) return [maskedRule(false), maskedRule(true)];
  if (id === 'softmax') {
    for (const rules of [
      [attentionRule(false), attentionRule(true)],
      [softmaxRule(false), softmaxRule(true), columnRule(false), columnRule(true)],
    ]) {
      if (rules.includes(tex)) return rules;
    }
  }
  if (id === 'mask') {
    const rules = Object.keys(FILLS).map((fill) => maskRule(fill, t));
    if (rules.includes(tex)) return rules;
  }
  return [tex];
}

/** TeX lines for step `id`. state: the page state; result: the engine's result; t: translator. */
export function stepFormulas(id, state, result, t) {
  const dK = result.dK;
  const tau = state.temperature ?? 1;
  switch (id) {
    case 'x':
      return [String.raw`X \in \mathbb{R}^{T \times d_{model}},\quad T = ${result.T},\ d_{model} = ${result.dModel}`];
    case 'qkv':
      return [String.raw`Q = XW_Q,\quad K = XW_K,\quad V = XW_V`];
    case 'dots':
      return [String.raw`Q^{(h)}K^{(h)T},\qquad (QK^T)_{ij} = q_i \cdot k_j = \sum_{m=1}^{d_k} q_{im}\,k_{jm}`];
    case 'scale':
      return [scaleRule(state.scale, dK, t)];
    case 'mask':
      if (state.alibi) return [String.raw`S + B + M`, String.raw`B^{(h)}_{ij} = -m_h\,|i - j|`, maskRule(state.maskFill ?? '-inf', t)];
      return [maskedRule(state.maskBeforeScale && state.scale), maskRule(state.maskFill ?? '-inf', t)];
    case 'softmax': {
      // τ's value is a formula of its own: the slider changes it, and the small one is typeset
      // in a fraction of the time the whole line takes.
      const lines = [attentionRule(tau !== 1)];
      if (tau !== 1) lines.push(String.raw`\tau = ${tauText(tau)}`);
      lines.push(state.softmaxOver === 'queries' ? columnRule(state.naive) : softmaxRule(state.naive));
      return lines;
    }
    case 'context':
      return [String.raw`\text{head}_h = O = AV^{(h)},\qquad o_i = \sum_j a_{ij}\, v_j`];
    case 'concat':
      return [String.raw`\text{Concat}(${heads(result.heads)}) \in \mathbb{R}^{T \times d_{model}}`];
    case 'output':
      return [String.raw`\text{MultiHead}(X) = \text{Concat}(${heads(result.heads)})\,W_O`];
    default:
      return [];
  }
}
