// The tile picker (選牌): build one winning hand by tapping tiles shown as
// Chinese characters. Tiles go to the hand, into a meld (吃/碰/明槓/暗槓, one
// tap per meld), or become the winning tile; flowers toggle. Nothing here
// scores: the hand is sent to POST /api/score.

import {h, replace} from '../dom.js';
import {eventLabel, spell, t} from '../i18n.js';
import {face, isFlower, meldTiles, ROWS, tileName, tileOrder} from '../tiles.js';
import {errorSlot} from './form.js';

const MELD_KINDS = ['chow', 'pung', 'kong', 'concealed_kong'];
const WIN_FLAGS = ['after_kong', 'last_tile', 'declared_ready'];
/** Where the next tile tapped goes: the concealed hand, a meld, or the winning tile. */
const TARGETS = ['hand', 'meld', 'winning'];

export function emptyHand() {
  return {concealed: [], melds: [], winning: null, flowers: [], target: 'hand', meldKind: 'pung', suit: 'm',
          flags: {after_kong: false, last_tile: false, declared_ready: false, event: null}};
}

/**
 * The hand as /api/score wants it (tile lists are accepted like compact strings).
 * No winning tile is left out: a flower event (八仙過海, 八花) needs only the flowers.
 */
export function handBody(hand) {
  return {
    concealed: [...hand.concealed],
    melds: hand.melds.map((meld) => ({kind: meld.kind, tiles: [...meld.tiles],
                                      ...(meld.kind === 'kong' ? {concealed: meld.concealed} : {})})),
    ...(hand.winning ? {winning_tile: hand.winning} : {}),
    flowers: [...hand.flowers],
  };
}

/** A tile as a button (or a plain span when `onClick` is missing). */
export function tileView(tile, {onClick, disabled = false, testid, extra = ''} = {}) {
  const {top, bottom, kind} = face(tile);
  return h(onClick ? 'button' : 'span', {
    type: onClick ? 'button' : undefined, class: `tile t-${kind}${bottom ? '' : ' single'} ${extra}`,
    title: tileName(tile), 'aria-label': tileName(tile), disabled: onClick ? disabled : undefined,
    dataset: {tile}, testid, onClick,
  }, h('span', {class: 'tile-top'}, top), bottom ? h('span', {class: 'tile-bottom'}, bottom) : null);
}

/**
 * The picker for `hand` (mutated in place); `handSize` is 17 or 14, `events`
 * the rule set's win events; `onChange()` after every change (the preview is stale).
 */
export function picker(hand, {handSize, events, field, onChange}) {
  const root = h('div', {class: 'picker', testid: 'picker'});
  const changed = () => { paint(); onChange(); };
  const paint = () => replace(root,
    targetBar(hand, paint),
    hand.target === 'meld' ? meldKindBar(hand, paint) : null,
    handArea(hand, handSize, field, changed),
    palette(hand, handSize, changed, paint),
    flagArea(hand, events, field, changed));
  paint();
  return root;
}

function targetBar(hand, paint) {
  return h('div', {class: 'segmented', role: 'group', testid: 'picker-target'}, TARGETS.map((target) => h('button', {
    type: 'button', class: hand.target === target ? 'on' : '', 'aria-pressed': String(hand.target === target),
    dataset: {value: target}, onClick: () => { hand.target = target; paint(); },
  }, t(`target_${target}`))));
}

function meldKindBar(hand, paint) {
  return h('div', {class: 'segmented small', testid: 'meld-kind'}, MELD_KINDS.map((kind) => h('button', {
    type: 'button', class: hand.meldKind === kind ? 'on' : '', dataset: {value: kind},
    onClick: () => { hand.meldKind = kind; paint(); },
  }, t(`meld_${kind}`))));
}

function copiesUsed(hand) {
  const used = {};
  const all = [...hand.concealed, ...hand.melds.flatMap((meld) => meld.tiles), ...hand.flowers];
  if (hand.winning) all.push(hand.winning);
  for (const tile of all) used[tile] = (used[tile] || 0) + 1;
  return used;
}

function handArea(hand, handSize, field, changed) {
  const needed = handSize - 1 - 3 * hand.melds.length;
  const complete = hand.concealed.length === needed && hand.winning;
  return h('div', {class: 'hand-area'},
    h('div', {class: `count ${complete ? 'ok' : ''}`, testid: 'tile-count'},
      t('tiles_in_hand', {n: hand.concealed.length, needed})),
    h('div', {class: 'hand-row', testid: 'hand-tiles'},
      [...hand.concealed].sort(tileOrder).map((tile) => tileView(tile, {
        extra: 'small', onClick: () => { removeOne(hand.concealed, tile); changed(); }})),
      hand.concealed.length ? null : h('span', {class: 'hint'}, t('tap_tiles_below'))),
    h('div', {class: 'melds', testid: 'melds'}, hand.melds.map((meld, index) => meldView(hand, meld, index, changed))),
    h('div', {class: 'winning-row'}, h('span', {class: 'field-label'}, t('winning_tile')),
      hand.winning ? tileView(hand.winning, {extra: 'small win', testid: 'winning-tile',
        onClick: () => { hand.winning = null; changed(); }}) : h('span', {class: 'hint'}, '—')),
    h('div', {class: 'flower-row', testid: 'flowers'}, h('span', {class: 'field-label'}, t('flowers')),
      hand.flowers.map((tile) => tileView(tile, {extra: 'small', onClick: () => { removeOne(hand.flowers, tile); changed(); }}))),
    errorSlot(`${field}.hand`));
}

function meldView(hand, meld, index, changed) {
  const label = meld.kind === 'kong' ? t(meld.concealed ? 'meld_concealed_kong' : 'meld_kong') : t(`meld_${meld.kind}`);
  return h('div', {class: 'meld', testid: `meld-${index}`},
    h('span', {class: 'meld-tiles'}, meld.tiles.map((tile) => tileView(tile, {extra: 'small'}))),
    h('span', {class: 'meld-label'}, label),
    meld.kind === 'kong' ? h('button', {type: 'button', class: 'btn small', testid: `meld-${index}-concealed`,
      onClick: () => { meld.concealed = !meld.concealed; changed(); }}, t('toggle_concealed')) : null,
    h('button', {type: 'button', class: 'btn small ghost', 'aria-label': t('remove'),
      onClick: () => { hand.melds.splice(index, 1); changed(); }}, '✕'));
}

/**
 * The tiles to tap, one suit at a time (萬 筒 條 字 花 tabs): five to a row,
 * so that every tile is a full-size tap target on a phone.
 */
function palette(hand, handSize, changed, paint) {
  const used = copiesUsed(hand);
  const row = ROWS.find((tiles) => tiles[0].endsWith(hand.suit)) || ROWS[0];
  return h('div', {class: 'palette', testid: 'palette'},
    h('div', {class: 'segmented suits', testid: 'palette-suit'}, ROWS.map((tiles) => {
      const suit = tiles[0].slice(-1);
      return h('button', {type: 'button', class: suit === hand.suit ? 'on' : '', dataset: {value: suit},
        'aria-pressed': String(suit === hand.suit), onClick: () => { hand.suit = suit; paint(); }}, spell(SUIT_TABS[suit]));
    })),
    h('div', {class: 'palette-row'}, row.map((tile) => {
      const limit = isFlower(tile) ? 1 : 4;
      const full = (used[tile] || 0) >= limit && !(isFlower(tile) && hand.flowers.includes(tile));
      return tileView(tile, {disabled: full && !isFlower(tile), extra: hand.flowers.includes(tile) ? 'on' : '',
        onClick: () => { if (place(hand, tile, used, handSize)) changed(); }});
    })));
}

const SUIT_TABS = {m: '萬', p: '筒', s: '條', z: '字', f: '花'};

/** How many concealed tiles the hand holds before its winning tile, given its melds. */
function neededTiles(hand, handSize) {
  return handSize - 1 - 3 * hand.melds.length;
}

/**
 * Put `tile` where the picker's target says; false when nothing changed.
 * A full hand takes no more concealed tiles: the next tile is the winning
 * tile, and the picker moves to it by itself once the hand is full; after a
 * meld it goes back to single tiles.
 */
function place(hand, tile, used, handSize) {
  if (isFlower(tile)) {
    if (hand.flowers.includes(tile)) removeOne(hand.flowers, tile);
    else hand.flowers.push(tile);
    return true;
  }
  const full = hand.concealed.length >= neededTiles(hand, handSize);
  if (hand.target === 'winning' || (hand.target === 'hand' && full)) {
    hand.winning = tile;
    hand.target = 'hand';
    return true;
  }
  if (hand.target === 'meld') {
    const added = addMeld(hand, tile, used);
    if (added) hand.target = 'hand';
    return added;
  }
  hand.concealed.push(tile);
  if (hand.concealed.length === neededTiles(hand, handSize) && !hand.winning) hand.target = 'winning';
  return true;
}

function addMeld(hand, tile, used) {
  const kind = hand.meldKind === 'concealed_kong' ? 'kong' : hand.meldKind;
  const tiles = meldTiles(kind, tile);
  if (!tiles) return false;
  const counts = {};
  for (const each of tiles) counts[each] = (counts[each] || 0) + 1;
  if (Object.entries(counts).some(([each, n]) => (used[each] || 0) + n > 4)) return false;
  hand.melds.push({kind, tiles, concealed: hand.meldKind === 'concealed_kong'});
  return true;
}

function removeOne(list, tile) {
  const index = list.indexOf(tile);
  if (index >= 0) list.splice(index, 1);
}

function flagArea(hand, events, field, changed) {
  return h('div', {class: 'flags'},
    WIN_FLAGS.map((flag) => h('label', {class: 'toggle'},
      h('input', {type: 'checkbox', checked: hand.flags[flag], testid: `flag-${flag}`,
        onChange: (event) => { hand.flags[flag] = event.target.checked; changed(); }}),
      h('span', {}, t(`flag_${flag}`)))),
    events.length ? h('label', {class: 'field'}, h('span', {class: 'field-label'}, t('special_event')),
      h('select', {testid: 'flag-event', onChange: (event) => { hand.flags.event = event.target.value || null; changed(); }},
        h('option', {value: ''}, t('none')),
        events.map((id) => h('option', {value: id, selected: hand.flags.event === id}, eventLabel(id))))) : null,
    errorSlot(`${field}.win`));
}
