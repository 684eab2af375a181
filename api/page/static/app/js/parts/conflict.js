// Two phones, one evening: a change made against a state another phone has
// since changed is refused (412) with what was changed since. The page shows
// that, in words, and lets the person drop theirs or send it again on top.

import {h} from '../dom.js';
import {t} from '../i18n.js';
import {handSummary, howWon, valueKey} from '../format/hand.js';
import {isStale} from '../outbox.js';
import {modal} from './dialog.js';

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
 * A hand's body reduced to what makes it that hand: the winners (each with its 台 or points, tiles and
 * extras), how it was won and from whom; a draw and its reason; a false win. Empty parts are left out, so
 * that a body as the server keeps it and as the phone sent it compare equal.
 */
function handKey(body) {
  const plain = (value) => {
    if (Array.isArray(value)) return value.map(plain).filter((item) => item !== undefined);
    if (value && typeof value === 'object') {
      const kept = Object.keys(value).sort().map((key) => [key, plain(value[key])])
        .filter(([, item]) => item !== undefined && !(Array.isArray(item) && !item.length)
                && !(item && typeof item === 'object' && !Array.isArray(item) && !Object.keys(item).length));
      return kept.length ? Object.fromEntries(kept) : undefined;
    }
    return value === null || value === false || value === '' ? undefined : value;
  };
  const winners = [...(body.winners || [])].sort((a, b) => String(a.player).localeCompare(String(b.player)));
  return JSON.stringify(plain({winners, by: body.draw || body.false_win ? undefined : body.by || 'discard',
    discarder: body.by === 'self_draw' ? undefined : body.discarder, draw: body.draw,
    reason: body.draw ? body.reason || 'exhausted' : undefined, false_win: body.false_win}) ?? {});
}

/** The hands another phone recorded since (not the ones this phone knew of, not voids). */
function newHands(since, seen) {
  return (since || []).filter((entry) => entry.number !== undefined && !entry.void && entry.number > seen);
}

/**
 * How my hand differs from theirs, in words: the winners, how it was won (and from whom), the 台 or points,
 * else the rest (tiles, extras).
 */
export function howTheyDiffer(mine, theirs, ruleset) {
  const lines = [];
  const names = (body) => (body.winners || []).map((winner) => winner.player).join(', ');
  const kind = (body) => (body.draw ? t('draw') : body.false_win ? t('false_win_by', {player: body.false_win}) : null);
  if (kind(mine) || kind(theirs)) {
    return [t('differs_what', {theirs: handSummary(theirs, null, ruleset), mine: handSummary(mine, null, ruleset)})];
  }
  if (names(mine) !== names(theirs)) lines.push(t('differs_winner', {theirs: names(theirs), mine: names(mine)}));
  if (howWon(mine) !== howWon(theirs)) lines.push(t('differs_how', {theirs: howWon(theirs), mine: howWon(mine)}));
  const value = valueKey(ruleset);
  const values = (body) => (body.winners || []).map((winner) => winner[value] ?? '').join(', ');
  if (!lines.length && values(mine) !== values(theirs)) {
    lines.push(t('differs_value', {theirs: values(theirs), mine: values(mine), unit: t(`unit_short_${value}`)}));
  }
  return lines.length ? lines : [t('differs_details')];
}

/**
 * Ask what to do with a change the server refused as stale: resolves true to
 * send it again against the evening as it is now, false to drop it. There is
 * no third way out (Escape does nothing): a hand is never dropped silently.
 * `mine` says what the change was; `keepLabel` names sending it again.
 * `body`: my hand's body, when the change is a new hand. When another phone
 * recorded the very same hand, the dialog says so and dropping mine is the
 * main button (issue 29 item 4); when theirs differs, it says how.
 */
export function conflictChoice(error, {ruleset, seen, mine, keepLabel, body}) {
  const theirs = body ? newHands(error.since, seen) : [];
  const same = theirs.find((entry) => handKey(entry.body) === handKey(body));
  if (same) {
    return modal({cls: 'confirm conflict', testid: 'conflict-dialog'}, [
      h('h2', {testid: 'conflict-same'}, t('conflict_same_title')),
      h('p', {class: 'conflict-since', testid: 'conflict-since'},
        t('conflict_same', {n: same.number, summary: handSummary(same.body, same.scores, ruleset)})),
    ], [
      {label: keepLabel || t('conflict_keep'), kind: 'ghost', testid: 'conflict-keep', answer: true},
      {label: t('conflict_drop_same'), kind: 'primary', testid: 'conflict-drop', answer: false}]);
  }
  const last = theirs[theirs.length - 1];
  return modal({cls: 'confirm conflict', testid: 'conflict-dialog'}, [
    h('h2', {}, t('conflict_title')),
    h('ul', {class: 'conflict-since', testid: 'conflict-since'},
      whatOthersDid(error.since, ruleset, seen).map((line) => h('li', {}, line))),
    mine ? h('p', {class: 'conflict-mine', testid: 'conflict-mine'}, mine) : null,
    last ? h('div', {class: 'conflict-differs', testid: 'conflict-differs'},
      h('p', {}, t('differs_title', {n: last.number})),
      h('ul', {}, howTheyDiffer(body, last.body, ruleset).map((line) => h('li', {}, line)))) : null,
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
