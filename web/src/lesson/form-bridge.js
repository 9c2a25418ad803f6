// The lesson changes the √d_k switch through the controls form, as a reader would: it sets the
// control and sends the same 'input' event, so main.js validates, stores and recomputes exactly as
// for a click. (X goes to main.js as rows: deps.setEmbeddings.)

export function setScaleInForm(form, on) {
  const box = form.querySelector('#scale');
  box.checked = on;
  box.dispatchEvent(new Event('input', { bubbles: true }));
}
