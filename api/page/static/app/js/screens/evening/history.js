// History (紀錄): the running totals as a chart, then every hand with its
// payments, newest first; tap one to void (作廢), restore or correct (更正) it. Hands still in the outbox are listed
// as pending (待送出), with the server's answer if it refused one. A change of
// the house rules from a hand on stands between the hands, "from hand 3: …"
// (struck through once a correction of the whole evening replaced it), and so
// does a change of seat, "from hand 5: Eve in for Dan".

import {api, OfflineError} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t, windName, word} from '../../i18n.js';
import * as outbox from '../../outbox.js';
import * as storage from '../../storage.js';
import {parseTiles} from '../../tiles.js';
import {clock} from '../../format/dates.js';
import {handSummary, valueKey} from '../../format/hand.js';
import {houseRulesText} from '../../format/house_rules_text.js';
import {readOnly, readOnlyNote} from '../../parts/access.js';
import {changePreview} from '../../parts/changes.js';
import {against, sendAgainst} from '../../parts/conflict.js';
import {confirmDialog} from '../../parts/dialog.js';
import {breakdown, houseMarks, keepStale} from '../../parts/entry.js';
import {eveningChart, participants, runningTotals} from '../../parts/evening_chart.js';
import {busy, describeError} from '../../parts/form.js';
import {paymentChips, paymentLines} from '../../parts/payments.js';
import {emptyHand} from '../../parts/picker.js';

export async function render(root, app) {
  await app.loadSession();
  paint(root, app, await loadHands(app.session));
}

/** Show `hands` (and when each was corrected); live updates call this with the hands they brought. */
export function paint(root, app, {hands, offline, corrected}) {
  const pending = outbox.pending(app.session.id);
  const last = hands.length ? hands[hands.length - 1].number : null;
  const between = [...changes(app), ...seatChanges(app, hands)];
  replace(root, h('h1', {}, t('history')), readOnlyNote(app),
    offline ? h('p', {class: 'note warn', testid: 'offline-note'}, t('showing_saved_copy')) : null,
    pending.length ? h('section', {class: 'pending', testid: 'pending-list'}, h('h2', {}, t('pending')),
      pending.map((entry) => pendingCard(app, entry))) : null,
    eveningChart(runningTotals(hands, participants(app.data)), app.data),
    hands.length || between.length ? h('ol', {class: 'hands', reversed: true, testid: 'hand-list'},
      newestFirst(hands, between).map((item) => (item.replaces !== undefined ? seatCard(item)
        : item.from_hand !== undefined ? rulesCard(app, item)
          : handCard(app, item, {last: item.number === last, corrected: corrected[item.number]}))))
      : h('p', {class: 'hint'}, t('no_hands_yet')),
    h('button', {type: 'button', class: 'btn wide', onClick: () => app.go('table')}, t('back_to_table')));
}

/** The evening's changes of the house rules from a hand on (the session's). */
function changes(app) {
  return app.data?.house_rules_changes || [];
}

/** The evening's changes of seat, each from the first hand recorded after it (`from_hand`). */
function seatChanges(app, hands) {
  return (app.data?.seat_changes || []).map((change) => {
    const next = hands.find((hand) => hand.created_at > change.created_at);
    return {...change, from_hand: next ? next.number : app.data.next_hand ?? hands.length + 1};
  });
}

/** Hands and changes (house rules, seats), newest first: a change stands just before its first hand. */
function newestFirst(hands, rulesChanges) {
  const at = (item) => (item.from_hand !== undefined ? item.from_hand - 0.5 : item.number);
  return [...hands, ...rulesChanges].sort((a, b) => at(b) - at(a));
}

function rulesCard(app, change) {
  return h('li', {class: `hand rules-change${change.void ? ' void' : ''}`, testid: `rules-change-${change.from_hand}`},
    h('p', {class: 'rules-line'}, h('strong', {}, t('rules_from_hand', {n: change.from_hand})), ' ',
      houseRulesText(change.house_rules, app.ruleset())),
    change.void ? h('p', {class: 'hint', testid: 'rules-replaced'}, t('rules_replaced')) : null);
}

function seatCard(change) {
  return h('li', {class: 'hand seat-change', testid: `seat-change-${change.from_hand}`},
    h('p', {class: 'rules-line'},
      t('seat_from_hand', {n: change.from_hand, player: change.player, replaces: change.replaces})));
}

/**
 * The hands from the server and when each was last corrected (its audit
 * trail), or while offline the copy saved the last time.
 */
async function loadHands(session) {
  try {
    const [hands, audit] = await Promise.all([api.hands(session), api.audit(session)]);
    const corrected = {};
    for (const line of audit) {
      if (line.action !== 'void') corrected[line.number] = line.at;
    }
    storage.write(`hands.${session.id}`, {hands, corrected});
    return {hands, corrected, offline: false};
  } catch (error) {
    if (!(error instanceof OfflineError)) throw error;
    const saved = storage.read(`hands.${session.id}`, {});
    if (Array.isArray(saved)) return {hands: saved, corrected: {}, offline: true}; // saved by an earlier page
    return {hands: saved.hands || [], corrected: saved.corrected || {}, offline: true};
  }
}

function handCard(app, hand, {last, corrected}) {
  const details = h('div', {class: 'hand-details', hidden: true});
  const card = h('li', {class: `hand${hand.void ? ' void' : ''}`, testid: `hand-${hand.number}`},
    h('button', {type: 'button', class: 'hand-head', 'aria-expanded': 'false', onClick: (event) => {
      details.hidden = !details.hidden;
      event.currentTarget.setAttribute('aria-expanded', String(!details.hidden));
      if (!details.hidden) replace(details, ...detailParts(app, hand));
    }},
    h('span', {class: 'hand-no'}, `#${hand.number}`),
    h('span', {class: 'hand-context'}, `${t('round_wind', {wind: windName(hand.round_wind)})} `
      + `${t('hand_wind', {wind: windName(hand.hand_wind)})} · ${t('dealer')} ${hand.dealer}`),
    hand.void ? h('span', {class: 'void-badge', testid: 'void-badge'}, t('voided')) : null,
    h('span', {class: 'hand-summary'}, handSummary(hand.body, hand.scores, app.data.ruleset))),
    corrected ? h('p', {class: 'corrected-mark', testid: 'corrected'},
      word('hand.corrected', {time: clock(corrected)})) : null,
    hand.void ? null : paymentChips(hand.payments, hand.state?.seats),
    hand.void ? null : paymentLines(hand.lines, `hand-${hand.number}-lines`),
    last && !hand.void && !readOnly(app) ? h('button', {type: 'button', class: 'btn small danger void-last', testid: 'void-last',
      onClick: (event) => busy(event.currentTarget, () => voidLast(app, hand))}, t('void_last')) : null,
    details);
  return card;
}

/** One tap voids the last hand; the toast offers to restore it. */
async function voidLast(app, hand) {
  const base = against(app);
  const restored = () => change(app, hand, against(app), (revision) => api.correctHand(app.session, hand.number,
    hand.body, revision), t('what_correct', {n: hand.number}), t('hand_n_restored', {n: hand.number}));
  await change(app, hand, base, (revision) => api.voidHand(app.session, hand.number, revision),
    t('what_void', {n: hand.number}), t('hand_n_voided', {n: hand.number}), {label: t('undo'), run: restored});
}

function detailParts(app, hand) {
  const scored = (hand.scores || []).filter((score) => score.score);
  return [
    scored.map((score) => h('div', {}, h('strong', {}, score.player), breakdown(score.score, houseMarks(app)))),
    readOnly(app) ? null : h('div', {class: 'row'},
      hand.void
        ? actionButton(t('restore'), 'restore', () => restore(app, hand))
        : actionButton(t('void'), 'void', () => voidHand(app, hand)),
      hand.void ? null : actionButton(t('correct'), 'correct', () => correct(app, hand))),
    h('p', {class: 'field-error', hidden: true, testid: `hand-${hand.number}-error`}),
  ];
}

function actionButton(label, action, work) {
  return h('button', {type: 'button', class: `btn ${action === 'void' ? 'danger' : ''}`, testid: `hand-${action}`,
    onClick: (event) => busy(event.currentTarget, work)}, label);
}

async function voidHand(app, hand) {
  const base = against(app);
  const preview = changePreview(app, hand.number, {void: true});
  if (!(await confirmDialog(t('confirm_void', {n: hand.number}), t('void'), preview))) return;
  await change(app, hand, base, (revision) => api.voidHand(app.session, hand.number, revision),
    t('what_void', {n: hand.number}), t('hand_n_voided', {n: hand.number}));
}

async function restore(app, hand) {
  const base = against(app);
  const preview = changePreview(app, hand.number, {body: hand.body});
  if (!(await confirmDialog(t('confirm_restore', {n: hand.number}), t('restore'), preview))) return;
  await change(app, hand, base, (revision) => api.correctHand(app.session, hand.number, hand.body, revision),
    t('what_correct', {n: hand.number}), t('hand_n_restored', {n: hand.number}));
}

/** Send a void or a correction made against `base` (`what` says what it was, if it meets a conflict). */
async function change(app, hand, base, send, what, message, action = null) {
  try {
    if (!(await sendAgainst(app, base, send, what))) {
      app.data = null;
      app.go('history');
      return;
    }
  } catch (error) {
    const slot = document.querySelector(`[data-testid="hand-${hand.number}-error"]`);
    if (slot) {
      slot.textContent = describeError(error);
      slot.hidden = false;
    }
    return;
  }
  app.toast(message, 'ok', action);
  app.data = null;
  if (location.hash === '#history') app.go('history'); // a person who went on meanwhile stays where they went
}

/** Open the win or draw form filled in with the hand as entered. */
function correct(app, hand) {
  const before = {seats: hand.state.seats, dealer: hand.dealer, round_wind: hand.round_wind,
                  hand_wind: hand.hand_wind};
  const kind = hand.body.draw ? 'draw' : 'win';
  app.editing = {kind, number: hand.number, before, base: against(app), draft: draftFrom(hand.body, hand.scores, app.data.ruleset)};
  app.go(kind);
}

function extrasFrom(body) {
  return {dice: body.dice ? [...body.dice] : [null, null],
          threeMouth: (body.three_mouth || []).map((pair) => [...pair]), discarderReady: Boolean(body.discarder_ready)};
}

/** The form state that shows `body` again. */
function draftFrom(body, scores, ruleset) {
  if (body.draw) return {reason: body.reason || 'exhausted', extras: extrasFrom(body)};
  if (body.false_win) return {falseWin: true, offender: body.false_win};
  const winners = body.winners.map((winner) => winner.player);
  const name = valueKey(ruleset);
  const hands = Object.fromEntries(body.winners.filter((w) => w.hand).map((w) => [w.player, handFrom(w)]));
  const full = body.winners.every((winner) => hands[winner.player]);
  return {
    winners, by: body.by, discarder: body.discarder || null, mode: full ? 'full' : 'quick', hands,
    quick: Object.fromEntries(body.winners.map((w, i) => [w.player, String(w[name] ?? scores?.[i]?.[name] ?? '')])),
    events: Object.fromEntries(body.winners.map((w) => [w.player, w.event || null])),
    previews: {}, active: winners[0], extras: extrasFrom(body),
  };
}

function handFrom(winner) {
  const concealed = parseTiles(winner.hand.concealed);
  const winning = parseTiles(winner.hand.winning_tile ?? []);
  const flowers = parseTiles(winner.hand.flowers || []);
  const melds = (winner.hand.melds || []).map((meld) => ({kind: meld.kind, tiles: parseTiles(meld.tiles),
                                                          concealed: Boolean(meld.concealed)}));
  if (!concealed || !winning || winning.length > 1 || !flowers || melds.some((meld) => !meld.tiles)) return null;
  return {...emptyHand(), concealed, melds, winning: winning[0] || null, flowers,
          flags: {...emptyHand().flags, ...pickFlags(winner.win || {})}};
}

function pickFlags(win) {
  const {after_kong: afterKong = false, last_tile: lastTile = false, declared_ready: ready = false,
         event = null} = win;
  return {after_kong: afterKong, last_tile: lastTile, declared_ready: ready, event};
}

function pendingCard(app, entry) {
  return h('div', {class: `pending-hand${entry.error ? ' failed' : ''}`, testid: 'pending-hand'},
    h('span', {class: 'badge'}, outbox.isStale(entry.error) ? t('waits_choice') : entry.error ? t('refused') : t('pending')),
    h('span', {}, handSummary(entry.body, null, app.data.ruleset)),
    entry.error && !outbox.isStale(entry.error) ? h('p', {class: 'field-error'}, describeError(entry.error)) : null,
    outbox.isStale(entry.error) ? h('p', {class: 'hint'}, t('pending_choice', {count: 1})) : null,
    readOnly(app) ? null : h('div', {class: 'row'},
      outbox.isStale(entry.error) ? h('button', {type: 'button', class: 'btn small primary', testid: 'pending-conflict',
        onClick: () => resolveStale(app, entry)}, t('review_conflict')) : null,
      entry.error && !outbox.isStale(entry.error) ? h('button', {type: 'button', class: 'btn small', testid: 'pending-edit',
        onClick: () => editWaiting(app, entry)}, t('edit')) : null,
      entry.error && !outbox.isStale(entry.error) ? h('button', {type: 'button', class: 'btn small',
        onClick: () => retry(app, entry)}, t('retry')) : null,
      h('button', {type: 'button', class: 'btn small danger', onClick: async () => {
        if (await confirmDialog(t('confirm_discard'), t('discard'))) {
          outbox.discard(entry.key);
          app.go('history');
        }
      }}, t('discard'))));
}

/** Open a refused waiting hand in its form; saving puts the changed hand back in its place. */
function editWaiting(app, entry) {
  const kind = entry.body.draw ? 'draw' : 'win';
  app.editing = {kind, outboxKey: entry.key, draftKey: entry.key, draft: draftFrom(entry.body, null, app.data.ruleset)};
  app.go(kind);
}

/** A waiting hand another phone got ahead of: the same choice as when it was refused. */
async function resolveStale(app, entry) {
  if (await keepStale(app, entry, entry.error)) await app.sendOutbox();
  app.go('history');
}

function retry(app, entry) {
  outbox.clearError(entry.key);
  app.sendOutbox().then(() => app.go('history'));
}
