// Before a void or a correction: which hands change (dealer, streak, 台 or
// points, payments) and the totals after, from the server's in-memory replay
// (POST …/hands/<n>/preview), shown inside the confirmation.

import {api, OfflineError} from '../api.js';
import {h, replace} from '../dom.js';
import {t} from '../i18n.js';
import {signClass, signed} from '../format/numbers.js';
import {inSeatOrder} from '../format/seats.js';
import {describeError} from './form.js';
import {paymentChips} from './payments.js';

/** A box that fills itself with the preview of `change` ({void: true} or {body}) to hand `number`. */
export function changePreview(app, number, change) {
  const box = h('div', {class: 'change-preview', testid: 'change-preview'}, h('p', {class: 'hint'}, '…'));
  api.previewChange(app.session, number, change).then(
    (preview) => replace(box, ...previewParts(app, preview)),
    (error) => replace(box, h('p', {class: 'note warn'},
      error instanceof OfflineError ? t('preview_offline') : t('preview_failed', {message: describeError(error)}))));
  return box;
}

/**
 * A box that fills itself with what correcting the whole evening's house rules to `rules` would change
 * (POST …/house_rules/preview): every hand whose money moves and the totals after, before anything is applied.
 */
export function correctionPreview(app, rules) {
  const box = h('div', {class: 'change-preview', testid: 'rules-preview'}, h('p', {class: 'hint'}, '…'));
  api.previewHouseRules(app.session, rules).then(
    (preview) => replace(box, ...previewParts(app, {...preview, number: null}),
      ...preview.replaces.map((change) => h('p', {class: 'note warn', testid: 'rules-replaces'},
        t('rules_replaces', {n: change.from_hand})))),
    (error) => replace(box, h('p', {class: 'note warn', testid: 'rules-preview-error'},
      error instanceof OfflineError ? t('preview_offline') : t('preview_failed', {message: describeError(error)}))));
  return box;
}

/** What a change would do (a preview from the server), as the confirmation shows it; also live in a correction. */
export function previewParts(app, preview, heading = true) {
  const seats = app.data?.state?.seats || app.data?.players || [];
  const unit = t(app.data?.ruleset === 'shanghai' ? 'unit_short_points' : 'unit_short_tai').trim();
  const others = preview.changes.filter((change) => change.number !== preview.number);
  return [
    heading ? h('h2', {}, t('change_preview')) : null,
    h('ul', {class: 'changes'}, preview.changes.map((change) => h('li', {testid: `change-${change.number}`},
      h('strong', {}, t('change_hand', {n: change.number})), ' ', describe(change, unit),
      change.after.void ? null : paymentChips(change.after.payments, seats, `change-${change.number}-payments`),
      change.before.void ? null : h('p', {class: 'hint', testid: `change-${change.number}-was`}, t('change_was', {
        money: inSeatOrder(change.before.payments, seats).map((p) => `${p} ${signed(change.before.payments[p])}`)
          .join(' · ')}))))),
    others.length ? null : h('p', {class: 'hint'}, t(preview.number === null ? 'rules_nothing_changes' : 'change_none')),
    h('p', {class: 'field-label'}, t('change_totals')),
    h('div', {class: 'payments', testid: 'change-totals'}, inSeatOrder(preview.totals_after, seats).map((player) => {
      const delta = preview.totals_after[player] - (preview.totals_before[player] ?? 0);
      return h('span', {class: `chip ${signClass(preview.totals_after[player])}`},
        `${player} ${signed(preview.totals_after[player])}${delta ? ` (${signed(delta)})` : ''}`);
    })),
  ];
}

/** "dealer Ben → Amy · streak 1 → 0 · 3 → 2 台" for what moved in one hand. */
function describe({before, after}, unit) {
  const parts = [];
  if (before.void !== after.void) parts.push(t(after.void ? 'change_voided' : 'change_restored'));
  if (!after.void && before.dealer !== after.dealer) parts.push(t('change_dealer', {before: before.dealer, after: after.dealer}));
  if (!after.void && before.streak !== after.streak) parts.push(t('change_streak', {before: before.streak, after: after.streak}));
  if (!after.void && String(before.values) !== String(after.values)) {
    parts.push(t('change_values', {before: before.values.join(', ') || '-', after: after.values.join(', '), unit}));
  }
  return parts.join(' · ');
}
