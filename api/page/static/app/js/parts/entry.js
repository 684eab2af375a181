// What entering a win and a draw share: the table context of the hand, the
// score breakdown, and recording the hand (through the outbox for a new hand;
// PUT for a correction).

import {api} from '../api.js';
import {h} from '../dom.js';
import {chineseTag, t} from '../i18n.js';
import * as outbox from '../outbox.js';
import * as storage from '../storage.js';
import {seatWind} from '../tiles.js';
import {handSummary, paymentSummary} from '../format/hand.js';
import {changePreview} from './changes.js';
import {against, conflictChoice, othersChangedHands, sendAgainst} from './conflict.js';
import {confirmDialog} from './dialog.js';
import {describeError, showError} from './form.js';

const QUICK_EVENTS = {taiwan: [], taiwan_zz: ['eight_flowers', 'seven_flowers_rob'], shanghai: ['eight_flowers']};

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
    h('span', {class: 'pattern-name', lang: chineseTag()}, pattern.name,
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

/** Undo a hand just recorded: a void (audited like any other), offered by the toast for a few seconds. */
export function undoAction(app, number) {
  return {label: t('undo'), run: async () => {
    try { // against the evening as the page shows it when Undo is tapped (the hand itself included)
      const done = await sendAgainst(app, against(app), (revision) => api.voidHand(app.session, number, revision),
        t('what_void', {n: number}));
      if (done) app.toast(t('hand_n_undone', {n: number}), 'ok');
    } catch (error) {
      app.toast(describeError(error), 'error');
    }
    app.data = null;
    app.go(document.body.dataset.view || 'table');
  }};
}

/**
 * Record `body`, made against `base` (the evening as the form showed it); true
 * when it is recorded, safely queued or dropped by the person after a conflict.
 * A new hand goes through the outbox (its Idempotency-Key is made now, once).
 * A hand the server rejects is taken back out of the outbox and its error
 * shown in `form`; one another phone got ahead of (412) is shown for the choice.
 */
export async function recordHand(app, form, body, base) {
  if (app.editing?.number) return correct(app, form, body, base);
  const waiting = app.editing?.outboxKey;
  const entry = waiting ? outbox.replaceBody(waiting, body) : outbox.enqueue(app.session.id, body, base);
  for (;;) {
    const report = await outbox.flush(storage.knownSessions());
    const sent = report.sent.find((item) => item.entry.key === entry.key);
    const rejected = report.rejected.find((item) => item.entry.key === entry.key);
    if (rejected && outbox.isStale(rejected.error)) {
      if (await keepStale(app, entry, rejected.error)) continue;
      return done(app, 'table');
    }
    if (rejected) {
      if (waiting) app.editing.outboxKey = entry.key;
      else outbox.discard(entry.key);
      showError(form, rejected.error);
      return false;
    }
    if (sent) app.toast(paymentSummary(sent.result), 'ok', undoAction(app, sent.result.number));
    else app.toast(t('queued'), 'warn');
    // The answer carries the evening after the hand: the table paints it without reading it again (issue 32).
    return done(app, 'table', Boolean(sent) && app.applyRecorded(sent.result));
  }
}

/**
 * A waiting hand met a 412: show what the other phone did and ask. Kept, it
 * (and any hand queued after it) goes on top of the evening as it is now;
 * dropped, it leaves the outbox. True when kept.
 */
export function keepStale(app, entry, error) {
  if (!asking.has(entry.key)) { // the form and the outbox's own retries may meet the same refusal
    asking.set(entry.key, askStale(app, entry, error).finally(() => asking.delete(entry.key)));
  }
  return asking.get(entry.key);
}

const asking = new Map();

async function askStale(app, entry, error) {
  const keep = !othersChangedHands(error) || await conflictChoice(error, {ruleset: app.data?.ruleset, seen: entry.seen,
    mine: t('conflict_mine', {summary: handSummary(entry.body, null, app.data?.ruleset)}),
    keepLabel: t('conflict_keep_hand'), body: entry.body});
  if (keep) {
    outbox.rebase(entry.session, error.revision);
  } else {
    outbox.discard(entry.key);
    app.toast(t('conflict_dropped'), 'info');
  }
  return keep;
}

/** Back to `route`; the evening is read again there unless `current` (the page's copy is the evening now). */
function done(app, route, current = false) {
  app.editing = null;
  if (!current) app.data = null;
  app.go(route);
  return true;
}

async function correct(app, form, body, base) {
  const number = app.editing.number;
  const preview = changePreview(app, number, {body});
  if (!(await confirmDialog(t('confirm_correct', {n: number}), t('correct'), preview))) return false;
  try {
    const result = await sendAgainst(app, base, (revision) => api.correctHand(app.session, number, body, revision),
      t('what_correct', {n: number}));
    if (result) app.toast(paymentSummary(result, 'hand_n_corrected'), 'ok');
  } catch (error) {
    showError(form, error);
    return false;
  }
  return done(app, 'history');
}
