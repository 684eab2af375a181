// What entering a win and a draw share: the table context of the hand, the
// value field of the rule set, the score breakdown, and recording the hand
// (through the outbox for a new hand; PUT for a correction).

import {api} from '../api.js';
import {h, signed} from '../dom.js';
import {t} from '../i18n.js';
import * as outbox from '../outbox.js';
import * as storage from '../storage.js';
import {seatWind} from '../tiles.js';
import {changePreview} from './changes.js';
import {inSeatOrder} from './explain.js';
import {confirmDialog, describeError, showError} from './form.js';

const QUICK_EVENTS = {taiwan: [], taiwan_zz: ['eight_flowers', 'seven_flowers_rob'], shanghai: ['eight_flowers']};

/** A winner's value in a quick entry: 台 (`tai`), or one share in 底分 (`points`) in shanghai. */
export function valueKey(ruleset) {
  return ruleset === 'shanghai' ? 'points' : 'tai';
}

/** Win events that change who pays, allowed on a quick-entry winner. */
export function quickEvents(ruleset) {
  return QUICK_EVENTS[ruleset] || [];
}

/**
 * Who sat where and the winds of the hand being entered: the table now, or for
 * a correction the table as it was before that hand (`editing.before`).
 */
export function handContext(app, editing) {
  const state = editing?.before || app.data.state;
  const seats = state.seats || app.data.players;
  const dealerIndex = seats.indexOf(state.dealer);
  return {seats, dealer: state.dealer, winds: seats.map((_, index) => seatWind(index, dealerIndex)),
          round_wind: state.round_wind, hand_wind: state.hand_wind, options: app.data.options || {},
          house_rules: app.data.house_rules || {}};
}

/**
 * What the evening's house rules changed, by pattern id, for the breakdown:
 * "house rule (was 8)" for a value, "house rule: added" for a pattern switched on.
 */
export function houseMarks(app) {
  const rules = app.data?.house_rules || {};
  const base = Object.fromEntries((app.ruleset().patterns || []).map((pattern) => [pattern.id, pattern.value]));
  const marks = {};
  for (const [id, value] of Object.entries(rules.values || {})) {
    if (base[id] !== undefined && base[id] !== value) marks[id] = t('house_mark_was', {base: base[id]});
  }
  for (const id of rules.on || []) marks[id] = t('house_mark_added');
  return marks;
}

/** The engine's breakdown: every pattern (Chinese name and value) and the total; `marks` (houseMarks) flag house rules. */
export function breakdown(score, marks = {}) {
  if (score.offline) return h('p', {class: 'note warn'}, t('count_offline'));
  const shanghai = score.unit === 'flower';
  return h('div', {class: 'breakdown', testid: 'breakdown'},
    h('ul', {}, score.patterns.map((pattern) => h('li', {dataset: {pattern: pattern.id},
      class: marks[pattern.id] ? 'house' : null},
    h('span', {class: 'pattern-name', lang: 'zh-Hant'}, pattern.name,
      marks[pattern.id] ? h('small', {class: 'house-mark', testid: 'house-mark'}, marks[pattern.id]) : null),
    h('span', {class: 'pattern-value'}, `${pattern.value} ${t(`unit_${pattern.unit || score.unit}`)}`)))),
    h('p', {class: 'total', testid: 'breakdown-total'}, shanghai
      ? t('shanghai_total', {flowers: score.flowers, lei: score.lei, fan: score.fan, points: score.points})
      : t('tai_total', {total: score.total})));
}

/** The title of the form when it changes a recorded hand or one waiting in the outbox. */
export function editTitle(editing) {
  return editing.number ? t('correct_hand_n', {n: editing.number}) : t('edit_waiting_hand');
}

/** "Hand 3 recorded: Amy +180, Cat -180", players in seat order; `key` names what happened. */
export function paymentSummary(result, key = 'hand_n_recorded') {
  const payments = result.payments || {};
  const moves = inSeatOrder(payments, result.state?.seats).filter((player) => payments[player] !== 0)
    .map((player) => `${player} ${signed(payments[player])}`);
  return `${t(key, {n: result.number})}${moves.length ? `: ${moves.join(', ')}` : ''}`;
}

/** Undo a hand just recorded: a void (audited like any other), offered by the toast for a few seconds. */
export function undoAction(app, number) {
  return {label: t('undo'), run: async () => {
    try {
      await api.voidHand(app.session, number);
      app.toast(t('hand_n_undone', {n: number}), 'ok');
    } catch (error) {
      app.toast(describeError(error), 'error');
    }
    app.data = null;
    app.go(document.body.dataset.view || 'table');
  }};
}

/**
 * Record `body`; true when it is recorded or safely queued. A new hand goes
 * through the outbox (its Idempotency-Key is made now, once). A hand the
 * server rejects is taken back out of the outbox and its error shown in `form`.
 */
export async function recordHand(app, form, body) {
  if (app.editing?.number) return correct(app, form, body);
  const waiting = app.editing?.outboxKey;
  const entry = waiting ? outbox.replaceBody(waiting, body) : outbox.enqueue(app.session.id, body);
  const report = await outbox.flush(storage.knownSessions());
  const sent = report.sent.find((item) => item.entry.key === entry.key);
  const rejected = report.rejected.find((item) => item.entry.key === entry.key);
  if (rejected) {
    if (waiting) app.editing.outboxKey = entry.key;
    else outbox.discard(entry.key);
    showError(form, rejected.error);
    return false;
  }
  app.editing = null;
  app.data = null;
  if (sent) app.toast(paymentSummary(sent.result), 'ok', undoAction(app, sent.result.number));
  else app.toast(t('queued'), 'warn');
  app.go('table');
  return true;
}

async function correct(app, form, body) {
  const number = app.editing.number;
  const preview = changePreview(app, number, {body});
  if (!(await confirmDialog(t('confirm_correct', {n: number}), t('correct'), preview))) return false;
  try {
    const result = await api.correctHand(app.session, number, body);
    app.toast(paymentSummary(result, 'hand_n_corrected'), 'ok');
  } catch (error) {
    showError(form, error);
    return false;
  }
  app.editing = null;
  app.data = null;
  app.go('history');
  return true;
}
