// Two phones, one evening: a change made against a state another phone has
// since changed is refused (412) with what was changed since. The page shows
// that, in words, and lets the person drop theirs or send it again on top.

import {ApiError} from '../api.js';
import {h} from '../dom.js';
import {t} from '../i18n.js';
import {handSummary} from '../format/hand.js';
import {modal} from './dialog.js';

/** Whether `error` is the server's "the evening has moved on" (412). */
export function isStale(error) {
  return error instanceof ApiError ? error.status === 412 : error?.status === 412;
}

/**
 * Whether another phone changed hands or seats since (the 412's `since`): a
 * closing and reopening alone changes no hand, and the change simply goes on top.
 */
export function othersChangedHands(error) {
  return Boolean(error.since?.length);
}

/**
 * What another phone did, one line per entry of the 412's `since` (hands and
 * seat changes as they are now). `seen`: the number of hands this phone knew
 * of, so that a hand it knew is said to be changed, not recorded.
 */
export function whatOthersDid(since, ruleset, seen = 0) {
  const lines = (since || []).map((entry) => {
    if (entry.kind === 'house_rules') return t('since_house_rules', {n: entry.from_hand});
    if (entry.number === undefined) return t('since_seat', {player: entry.player, replaces: entry.replaces});
    if (entry.void) return t('since_voided', {n: entry.number});
    const summary = handSummary(entry.body, entry.scores, ruleset);
    return t(entry.number <= seen ? 'since_changed' : 'since_hand', {n: entry.number, summary});
  });
  return lines.length ? lines : [t('conflict_other')];
}

/**
 * Ask what to do with a change the server refused as stale: resolves true to
 * send it again against the evening as it is now, false to drop it. There is
 * no third way out (Escape does nothing): a hand is never dropped silently.
 * `mine` says what the change was; `keepLabel` names sending it again.
 */
export function conflictChoice(error, {ruleset, seen, mine, keepLabel}) {
  return modal({cls: 'confirm conflict', testid: 'conflict-dialog'}, [
    h('h2', {}, t('conflict_title')),
    h('ul', {class: 'conflict-since', testid: 'conflict-since'},
      whatOthersDid(error.since, ruleset, seen).map((line) => h('li', {}, line))),
    mine ? h('p', {class: 'conflict-mine', testid: 'conflict-mine'}, mine) : null,
  ], [
    {label: t('conflict_drop'), kind: 'ghost', testid: 'conflict-drop', answer: false},
    {label: keepLabel || t('conflict_keep'), kind: 'primary', testid: 'conflict-keep', answer: true}]);
}

/**
 * `send(revision)` a change made against `base` ({revision, seen}, from
 * `against`); on a 412, ask, and send it again against the revision the
 * server named if the person keeps it. Resolves with the answer, or null
 * when the person dropped the change.
 */
export async function sendAgainst(app, base, send, what) {
  let {revision} = base;
  for (;;) {
    try {
      return await send(revision);
    } catch (error) {
      if (!isStale(error)) throw error;
      const keep = !othersChangedHands(error) || await conflictChoice(error, {ruleset: app.data?.ruleset, seen: base.seen,
        mine: t('conflict_mine_change', {what})});
      if (!keep) {
        app.toast(t('conflict_dropped'), 'info');
        return null;
      }
      revision = error.revision;
    }
  }
}

/**
 * The state a change is made against, taken when the person starts it: the
 * revision the page shows (sent as If-Match) and how many hands it shows.
 */
export function against(app) {
  return {revision: app.data?.revision, seen: (app.data?.next_hand ?? 1) - 1};
}
