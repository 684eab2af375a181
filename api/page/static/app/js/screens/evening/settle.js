// Settle (結算): everyone's total, the fewest transfers that settle them, the
// running totals as a chart, the evening for the group's chat (a picture to share, or a few lines of text to
// copy), and the PDF sheet and hands CSV (fetched with the token, saved from a
// blob URL).

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {languageId, languageTag, t} from '../../i18n.js';
import * as storage from '../../storage.js';
import {localDate} from '../../format/dates.js';
import {signClass, signed} from '../../format/numbers.js';
import {inSeatOrder, seatsOf} from '../../format/seats.js';
import {closed, closedNote, readOnly, readOnlyNote, tableOnly} from '../../parts/access.js';
import {against, sendAgainst} from '../../parts/conflict.js';
import {confirmDialog} from '../../parts/dialog.js';
import {eveningChart} from '../../parts/evening_chart.js';
import {busy, clearErrors, describeError, errorSlot, field, showError} from '../../parts/form.js';
import {markPaidSection} from '../../parts/mark_paid.js';
import {save, sharePicture} from '../../parts/picture.js';
import {transfers} from '../../parts/transfers.js';

/**
 * "Round totals to" belongs to the evening it was set for (kept on this
 * phone under the session's id): another evening opened in the same tab is
 * settled, listed and printed exactly unless it is given its own.
 */
let roundTo = '';
/** The "round to" box on screen, whose typing a live redraw keeps. */
let roundToBox = null;
/**
 * The settlement on screen ({session, query, settlement}): what "Copy as text" copies, and what Settle drawn again
 * for another phone's change shows until the new one is read, rather than an empty place.
 */
let shown = null;

/**
 * Draw Settle. `live`: drawn again for a change from another phone, which
 * keeps a "round to" typed but not yet applied, and the typing in it.
 */
export async function render(root, app, {live = false} = {}) {
  const data = await app.loadSession();
  const typing = live && roundToBox !== null && document.activeElement === roundToBox;
  if (!live) roundTo = storage.read(`round_to.${app.session.id}`, '');
  const box = h('div', {class: 'settlement', testid: 'settlement'});
  if (live && shown?.session === app.session.id && shown.query === query(applied(app))) {
    replace(box, figures(shown.settlement, data));
  } else {
    shown = null;
  }
  roundToBox = h('input', {type: 'number', min: 1, step: 1, inputmode: 'numeric', value: roundTo,
    placeholder: t('no_rounding'), testid: 'round-to', onInput: (event) => { roundTo = event.target.value; }});
  const form = h('form', {class: 'card', novalidate: true},
    field(t('round_to'), roundToBox, 'round_to', t('round_to_hint')),
    errorSlot(''),
    h('button', {type: 'submit', class: 'btn', testid: 'round-apply'}, t('apply')));
  const downloads = h('div', {class: 'downloads'});
  const paintDownloads = () => replace(downloads,
    downloadButton(app, form, 'report.pdf', applied(app) ? t('pdf_sheet_rounded', {unit: applied(app)}) : t('pdf_sheet'),
      'download-pdf', 'primary'),
    downloadButton(app, form, 'hands.csv', t('hands_csv'), 'download-csv', ''));
  paintDownloads();
  form.onsubmit = (event) => {
    event.preventDefault();
    if (roundTo.trim() && !query()) return showError(form, {field: 'round_to', message: t('need_round_to')});
    storage.write(`round_to.${app.session.id}`, query() ? roundTo.trim() : '');
    paintDownloads();
    return busy(form.querySelector('button[type=submit]'), () => load(app, box, form, data));
  };
  const chat = h('div', {class: 'downloads chat'},
    h('button', {type: 'button', class: 'btn big primary', testid: 'share-card',
      onClick: (event) => busy(event.currentTarget, () => shareCard(app, form))}, t('share_card')),
    h('button', {type: 'button', class: 'btn big', testid: 'copy-text',
      onClick: (event) => busy(event.currentTarget, () => copyText(app, data))}, t('copy_text')));
  replace(root, h('h1', {}, t('settle')), readOnlyNote(app), closedNote(app), box, chat, downloads,
    form, readOnly(app) || tableOnly(app) ? null : closing(app),
    h('button', {type: 'button', class: 'btn wide ghost', onClick: () => app.go('table')}, t('back_to_table')));
  if (typing) roundToBox.focus();
  await load(app, box, form, data);
}

/** `?round_to=N` for `value` (what is typed, by default) when it is a whole number from 1, else ''. */
function query(value = roundTo) {
  return /^[1-9]\d*$/.test(String(value).trim()) ? `?round_to=${String(value).trim()}` : '';
}

/** The rounding applied to this evening (what the PDF uses), not what is typed and not yet applied. */
function applied(app) {
  return storage.read(`round_to.${app.session.id}`, '');
}

/** The PDF in the page's language and the phone's time zone, rounded only as applied to this evening. */
function pdfQuery(app) {
  const rounded = query(applied(app));
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return `${rounded || '?'}${rounded ? '&' : ''}lang=${languageId()}&tz=${encodeURIComponent(zone)}`;
}

async function load(app, box, form, data) {
  clearErrors(form);
  try {
    const asked = query(applied(app));
    const settlement = await api.settlement(app.session, asked);
    shown = {session: app.session.id, query: asked, settlement};
    replace(box, figures(settlement, data), await markPaidSection(app, settlement));
  } catch (error) {
    showError(form, error);
  }
}

/** What `settlement` says of the evening `data`: the standings, the transfers, any rounding, the chart. */
function figures(settlement, data) {
  return [standings(settlement), transfers(settlement), settlement.rounding
    ? h('p', {class: 'hint', testid: 'rounding'}, roundingNote(settlement.rounding, data)) : null,
  eveningChart(settlement.running_totals, data)];
}

/** How the totals were rounded, in words: who moved by how much, in seat order. */
function roundingNote({round_to: unit, adjustments}, data) {
  const moves = inSeatOrder(adjustments, seatsOf(data))
    .filter((player) => adjustments[player]).map((player) => `${player} ${signed(adjustments[player])}`);
  return moves.length ? t('rounding_note', {unit, moves: moves.join(', ')}) : t('rounding_note_none', {unit});
}

function standings({totals}) {
  const rows = Object.entries(totals).sort((a, b) => b[1] - a[1]);
  return h('table', {class: 'standings', testid: 'standings'},
    h('tbody', {}, rows.map(([player, total], index) => h('tr', {},
      h('td', {class: 'rank'}, index + 1), h('td', {}, player),
      h('td', {class: `amount ${signClass(total)}`}, signed(total))))));
}

function downloadButton(app, form, name, label, testid, kind) {
  return h('button', {type: 'button', class: `btn big ${kind}`, testid, onClick: (event) => busy(event.currentTarget,
    () => download(app, form, name))}, label);
}

/** The file needs the bearer token, so it is fetched, then saved from a blob URL. */
async function download(app, form, name) {
  clearErrors(form);
  try {
    const {blob, filename} = await api.file(app.session, name + (name.endsWith('.pdf') ? pdfQuery(app) : ''));
    save(blob, filename || name);
  } catch (error) {
    showError(form, error);
  }
}

/**
 * "Share as a picture": the settlement card (card.png, in the page's language,
 * rounded as applied) to the share sheet, or downloaded (parts/picture.js).
 */
async function shareCard(app, form) {
  clearErrors(form);
  try {
    const rounded = query(applied(app));
    const card = await api.file(app.session, `card.png${rounded || '?'}${rounded ? '&' : ''}lang=${languageTag()}`);
    await sharePicture(app, card, app.data.name);
  } catch (error) {
    showError(form, error);
  }
}

/** "Copy as text": the evening in a few lines for a chat message, and a visible word that it was copied. */
async function copyText(app, data) {
  if (!shown) return;
  const text = summary(data, shown.settlement);
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h('textarea', {class: 'offscreen', readonly: true}, text);
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  app.toast(t('text_copied'), 'ok');
}

/**
 * The evening, its date (on this phone's calendar), everyone's total from the
 * highest, and who pays whom, e.g.
 * "Friday · 2026-12-01 / Totals: Dan +380 · Ben +20 · … / Who pays whom: / Cat → Dan 280 / …".
 */
function summary(data, {totals, transfers: list, rounding}) {
  const ranked = Object.entries(totals).sort((a, b) => b[1] - a[1])
    .map(([player, total]) => `${player} ${signed(total)}`).join(' · ');
  return [
    `${data.name} · ${localDate(data.created_at)}`,
    t('summary_totals', {totals: ranked}) + (rounding ? ` ${t('summary_rounded', {unit: rounding.round_to})}` : ''),
    list.length ? t('summary_transfers') : t('nothing_to_pay'),
    ...list.map((transfer) => `${transfer.from} → ${transfer.to} ${transfer.amount}`),
  ].join('\n');
}

/** "End the evening" (結束, asked first), or "Reopen" once it is ended. */
function closing(app) {
  const ending = !closed(app);
  return h('button', {type: 'button', class: `btn wide ${ending ? 'danger' : ''}`,
    testid: ending ? 'end-evening' : 'reopen-evening',
    onClick: (event) => busy(event.currentTarget, () => (ending ? end(app) : reopen(app)))},
  t(ending ? 'end_evening' : 'reopen_evening'));
}

async function end(app) {
  const base = against(app);
  if (!(await confirmDialog(t('confirm_end'), t('end_evening')))) return;
  await closeOrReopen(app, base, (revision) => api.close(app.session, revision), 'what_close', 'evening_ended');
}

async function reopen(app) {
  await closeOrReopen(app, against(app), (revision) => api.reopen(app.session, revision), 'what_reopen',
    'evening_reopened');
}

async function closeOrReopen(app, base, send, what, done) {
  try {
    if (await sendAgainst(app, base, send, t(what))) app.toast(t(done), 'ok');
  } catch (error) {
    app.toast(describeError(error), 'error');
  }
  app.data = null;
  app.go('settle');
}
