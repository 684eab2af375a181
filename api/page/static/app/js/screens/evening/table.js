// The table (牌桌): four players around a square in turn order, who deals and
// the streak (連莊), the round and 局 wind, 荒番 for shanghai, running totals;
// big buttons for a win and a draw.

import {h, replace} from '../../dom.js';
import {t, windName} from '../../i18n.js';
import * as outbox from '../../outbox.js';
import * as storage from '../../storage.js';
import {seatWind} from '../../tiles.js';
import {signClass, signed} from '../../format/numbers.js';
import {seatsOf} from '../../format/seats.js';
import {closed, closedNote, readOnly, readOnlyNote, tableOnly} from '../../parts/access.js';
import {navButton} from '../../parts/nav.js';

/** Seats on screen: seat 0 at the bottom, the next in turn order (下家) to its right, and so on. */
const PLACES = ['bottom', 'right', 'top', 'left'];

export async function render(root, app) {
  const forms = app.tableForms();
  // Just after this phone's Record the page's copy is the evening now (app.applyRecorded): painted as it is.
  if (app.current && app.data) app.current = false;
  else {
    await app.loadSession();
    // A competition's table: its clock's seconds left as of now (not of a copy kept offline).
    if (app.data.competition && !app.offline) app.data.competition.read_at = Date.now();
  }
  await forms;
  paint(root, app);
  app.keepEveningScreens();
}

/** Draw the table from `app.data` (live updates call this with the state each change brought). */
export function paint(root, app) {
  const data = app.data;
  const {state, totals} = data;
  const writable = !readOnly(app);
  const seats = seatsOf(data);
  const dealerIndex = seats.indexOf(state.dealer);
  // Ended (live, as another phone ends it): what would change the evening is disabled, the note says why.
  const ended = closed(app);
  replace(root,
    // The view's one heading, for a screen reader (axe's page-has-heading-one, issue 29 item 16): seen, the
    // evening's name is in the top bar already and the board needs the room.
    h('h1', {class: 'visually-hidden', testid: 'table-heading'}, t('table_heading', {name: data.name})),
    offlineNote(app),
    readOnlyNote(app),
    roundPart(app),
    closedNote(app),
    writable ? pendingNote(app) : null,
    h('section', {class: 'board', testid: 'board'},
      seats.map((player, index) => playerCard(player, index, dealerIndex, state, totals)),
      centre(data, outbox.pending(app.session.id).filter((entry) => !entry.error).length)),
    benched(seats, totals),
    writable ? h('div', {class: 'actions'},
      h('button', {type: 'button', class: 'btn primary huge', testid: 'btn-win', onClick: () => app.go('win'),
        disabled: ended, 'aria-describedby': ended ? 'closed-note' : null}, t('win')),
      h('button', {type: 'button', class: 'btn huge', testid: 'btn-draw', onClick: () => app.go('draw'),
        disabled: ended, 'aria-describedby': ended ? 'closed-note' : null}, t('draw'))) : null,
    h('nav', {class: 'more'},
      navButton(app, 'history', t('history')),
      navButton(app, 'settle', t('settle')),
      writable && !tableOnly(app) ? seatButton(app, ended) : null,
      writable && !tableOnly(app) ? navButton(app, 'rules', t('nav_house_rules')) : null,
      navButton(app, 'share', t('share'), 'wide'),
      navButton(app, 'start', t('other_session'), 'wide'),
      groupButton(app)));
}

function playerCard(player, index, dealerIndex, state, totals) {
  const dealer = index === dealerIndex;
  const total = totals[player] ?? 0;
  return h('div', {class: `seat ${PLACES[index]}${dealer ? ' dealer' : ''}`, testid: `seat-${index}`},
    h('span', {class: 'seat-wind'}, windName(seatWind(index, dealerIndex))),
    h('button', {type: 'button', class: `seat-name ${nameSize(player)}`, title: player, 'aria-label': `${t('show_name')}: ${player}`,
      testid: `seat-name-${index}`, onClick: (event) => event.currentTarget.classList.toggle('full')}, player),
    h('span', {class: `seat-total ${signClass(total)}`, testid: `total-${index}`}, signed(total)),
    dealer ? h('span', {class: 'dealer-badge', testid: 'dealer'},
      t('dealer'), state.streak ? ` ${t('streak_n', {n: state.streak})}` : '') : null);
}

/** Smaller type for a long name, and smaller still for a long word, so that words stay whole on two lines. */
function nameSize(name) {
  const longestWord = Math.max(...name.split(/\s+/).map((word) => [...word].length));
  if (longestWord > 9) return 'longest';
  return [...name].length > 9 ? 'long' : '';
}

function centre(data, waiting) {
  const {state} = data;
  return h('div', {class: 'centre', testid: 'centre'},
    h('div', {class: 'winds', testid: 'winds'},
      h('div', {}, t('round_wind', {wind: windName(state.round_wind)})),
      h('div', {}, t('hand_wind', {wind: windName(state.hand_wind)}))),
    h('div', {class: 'hand-no', testid: 'hand-no'}, t('hand_n', {n: nextHand(data) + waiting})),
    playedLine(data, waiting),
    data.ruleset === 'shanghai'
      ? h('div', {class: 'wasteland', testid: 'wasteland'}, t('wasteland_n', {n: state.wasteland})) : null);
}

/**
 * The number the next hand gets, as History numbers hands: a voided hand
 * keeps its number, so this is not the count of hands played. (Hands waiting
 * on this phone to be sent are counted by the caller.)
 */
function nextHand(data) {
  return data.next_hand ?? data.state.hands_played + 1;
}

/**
 * Hands played, beside the next hand's number when the two differ (a voided hand keeps its number: after two
 * voids the table deals "hand 6" with 3 played, as the sheet counts them; issue 29 item 11).
 */
function playedLine(data, waiting) {
  const played = data.state.hands_played + waiting;
  if (nextHand(data) + waiting === played + 1) return null;
  return h('div', {class: 'hands-played', testid: 'hands-played'}, t('hands_played_n', {n: played}));
}

/** Participants who are not seated now (substitutes out) keep their totals. */
function benched(seats, totals) {
  const others = Object.keys(totals).filter((name) => !seats.includes(name));
  if (!others.length) return null;
  return h('p', {class: 'benched', testid: 'benched'}, t('also_played'), ' ',
    others.map((name) => h('span', {class: `chip ${signClass(totals[name])}`}, `${name} ${signed(totals[name])}`)));
}

/** A competition's table: its round and clock (parts/round_clock.js, imported only for such a table). */
function roundPart(app) {
  const round = app.data.competition;
  if (!round) return null;
  const slot = h('div', {class: 'round-slot', testid: 'round-slot'});
  import('../../parts/round_clock.js').then(({roundNote}) => slot.replaceChildren(roundNote(round)))
    .catch(() => {});
  return slot;
}

function offlineNote(app) {
  return app.offline ? h('p', {class: 'note warn', testid: 'offline-note'}, t('showing_saved_copy')) : null;
}

function pendingNote(app) {
  const waiting = outbox.pending(app.session.id);
  if (!waiting.length) return null;
  // A hand another phone got ahead of is not refused: it waits for this phone's choice (issue 29 item 7).
  const choosing = waiting.filter((entry) => outbox.isStale(entry.error));
  if (choosing.length) {
    return h('p', {class: 'note warn', testid: 'pending-note'}, t('pending_choice', {count: choosing.length}), ' ',
      h('button', {type: 'button', class: 'btn small', testid: 'pending-choose', onClick: () => app.chooseStale()},
        t('review_conflict')));
  }
  const failed = waiting.filter((entry) => entry.error).length;
  return h('p', {class: `note ${failed ? 'error' : 'warn'}`, testid: 'pending-note'},
    failed ? t('pending_failed', {count: failed}) : t('pending_hands', {count: waiting.length}), ' ',
    h('button', {type: 'button', class: 'btn small', onClick: () => (failed ? app.go('history') : app.sendOutbox())},
      failed ? t('review') : t('send_now')));
}

/** Back to the group of a group evening (when this phone knows the group). */
function groupButton(app) {
  const group = storage.knownGroups()[app.session.group || app.data?.group];
  return group ? h('button', {type: 'button', class: 'btn wide', testid: 'nav-group', onClick: () => {
    app.openGroup(group);
    app.go('group');
  }}, t('group_home', {name: group.name})) : null;
}

/** 換人, disabled while the evening is ended. */
function seatButton(app, ended) {
  const button = navButton(app, 'seat', t('change_seat'));
  if (ended) {
    button.disabled = true;
    button.setAttribute('aria-describedby', 'closed-note');
  }
  return button;
}
