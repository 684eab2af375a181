// Shanghai extras (上海): the dice thrown before the hand (骰子, for 荒番), the
// 三口 pairs (three melds from one player's discards) and whether the
// discarder was ready (聽牌). Used by the win and the draw forms.

import {h} from '../dom.js';
import {t} from '../i18n.js';
import {choices, errorSlot} from './form.js';

const FACES = [1, 2, 3, 4, 5, 6];
const DIE_SIGNS = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/** The extras section; `by` is null for a draw (no 三口, no discarder). */
export function shanghaiExtras(extras, seats, by, paint) {
  return h('section', {class: 'step extras', testid: 'shanghai-extras'}, h('h2', {}, t('shanghai_extras')),
    diceRows(extras, paint),
    by ? threeMouth(extras, seats, paint) : null,
    by === 'discard' ? h('label', {class: 'toggle'},
      h('input', {type: 'checkbox', checked: extras.discarderReady, testid: 'discarder-ready',
        onChange: (event) => { extras.discarderReady = event.target.checked; }}),
      h('span', {}, t('discarder_ready'))) : null,
    errorSlot('discarder_ready'));
}

function diceRows(extras, paint) {
  return h('fieldset', {class: 'dice'}, h('legend', {}, t('dice')),
    [0, 1].map((die) => choices(FACES.map((face) => ({value: face, label: DIE_SIGNS[face - 1], sub: face})), {
      selected: [extras.dice[die]], testid: `die-${die}`, cls: 'dice-row',
      onPick: (face) => { extras.dice[die] = extras.dice[die] === face ? null : face; paint(); },
    })),
    h('p', {class: 'hint'}, t('dice_hint')), errorSlot('dice'));
}

function threeMouth(extras, seats, paint) {
  const picking = extras.picking || [];
  return h('fieldset', {class: 'three-mouth'}, h('legend', {}, t('three_mouth')),
    extras.threeMouth.map(([a, b], index) => h('p', {class: 'pair', testid: `pair-${index}`}, `${a} ⇄ ${b} `,
      h('button', {type: 'button', class: 'btn small ghost', 'aria-label': t('remove'),
        onClick: () => { extras.threeMouth.splice(index, 1); paint(); }}, '✕'), errorSlot(`three_mouth.${index}`))),
    choices(seats.map((player) => ({value: player, label: player})), {
      selected: picking, testid: 'three-mouth-pick', cls: 'small',
      onPick: (player) => { pickPair(extras, player); paint(); },
    }),
    h('p', {class: 'hint'}, t('three_mouth_hint')), errorSlot('three_mouth'));
}

function pickPair(extras, player) {
  const picking = extras.picking || [];
  if (picking.includes(player)) {
    extras.picking = picking.filter((name) => name !== player);
    return;
  }
  const pair = [...picking, player];
  if (pair.length < 2) {
    extras.picking = pair;
    return;
  }
  extras.threeMouth.push(pair);
  extras.picking = [];
}

/** The request fields for the extras (only those given). */
export function extrasBody(extras, by) {
  const body = {};
  if (extras.dice.every((face) => face !== null)) body.dice = [...extras.dice];
  if (by && extras.threeMouth.length) body.three_mouth = extras.threeMouth.map((pair) => [...pair]);
  if (by === 'discard' && extras.discarderReady) body.discarder_ready = true;
  return body;
}

/** A client-side check: one die without the other is a slip of the finger. */
export function diceProblem(extras) {
  const thrown = extras.dice.filter((face) => face !== null).length;
  return thrown === 1 ? {message: t('need_both_dice'), field: 'dice'} : null;
}
