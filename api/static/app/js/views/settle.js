// Settle (結算): everyone's total, the fewest transfers that settle them, and the
// PDF sheet and hands CSV (fetched with the token, saved from a blob URL).

import {api} from '../api.js';
import {h, replace, signClass, signed} from '../dom.js';
import {t} from '../i18n.js';
import {busy, clearErrors, errorSlot, field, showError} from './form.js';

let roundTo = '';

export async function render(root, app) {
  const data = await app.loadSession();
  const box = h('div', {class: 'settlement', testid: 'settlement'});
  const form = h('form', {class: 'card', novalidate: true},
    field(t('round_to'), h('input', {type: 'number', min: 1, step: 1, inputmode: 'numeric', value: roundTo,
      placeholder: t('no_rounding'), testid: 'round-to', onInput: (event) => { roundTo = event.target.value; }}),
    'round_to', t('round_to_hint')),
    errorSlot(''),
    h('button', {type: 'submit', class: 'btn', testid: 'round-apply'}, t('apply')));
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(form.querySelector('button[type=submit]'), () => load(app, box, form));
  };
  replace(root, h('h1', {}, t('settle')), box,
    h('div', {class: 'downloads'},
      downloadButton(app, form, 'report.pdf', t('pdf_sheet'), 'download-pdf', 'primary'),
      downloadButton(app, form, 'hands.csv', t('hands_csv'), 'download-csv', '')),
    form,
    h('button', {type: 'button', class: 'btn wide ghost', onClick: () => app.go('table')}, t('back_to_table')));
  document.getElementById('title').textContent = data.name;
  await load(app, box, form);
}

function query() {
  return /^\d+$/.test(roundTo.trim()) ? `?round_to=${roundTo.trim()}` : '';
}

async function load(app, box, form) {
  clearErrors(form);
  try {
    const settlement = await api.settlement(app.session, query());
    replace(box, standings(settlement), transfers(settlement), settlement.rounding
      ? h('p', {class: 'hint', testid: 'rounding'}, settlement.rounding.explanation) : null);
  } catch (error) {
    showError(form, error);
  }
}

function standings({totals}) {
  const rows = Object.entries(totals).sort((a, b) => b[1] - a[1]);
  return h('table', {class: 'standings', testid: 'standings'},
    h('tbody', {}, rows.map(([player, total], index) => h('tr', {},
      h('td', {class: 'rank'}, index + 1), h('td', {}, player),
      h('td', {class: `amount ${signClass(total)}`}, signed(total))))));
}

function transfers({transfers: list}) {
  return h('section', {class: 'transfers', testid: 'transfers'}, h('h2', {}, t('transfers')),
    list.length ? h('ul', {}, list.map((transfer) => h('li', {
      dataset: {from: transfer.from, to: transfer.to, amount: String(transfer.amount)}},
      h('span', {class: 'from'}, transfer.from), h('span', {class: 'arrow'}, ' → '),
      h('span', {class: 'to'}, transfer.to), h('span', {class: 'amount'}, ` ${transfer.amount}`))))
      : h('p', {class: 'hint'}, t('nothing_to_pay')));
}

function downloadButton(app, form, name, label, testid, kind) {
  return h('button', {type: 'button', class: `btn big ${kind}`, testid, onClick: (event) => busy(event.currentTarget,
    () => download(app, form, name))}, label);
}

/** The file needs the bearer token, so it is fetched, then saved from a blob URL. */
async function download(app, form, name) {
  clearErrors(form);
  try {
    const {blob, filename} = await api.file(app.session, name + (name.endsWith('.pdf') ? query() : ''));
    const url = URL.createObjectURL(blob);
    const link = h('a', {href: url, download: filename || name, hidden: true});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (error) {
    showError(form, error);
  }
}
