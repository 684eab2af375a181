// Where a hand's money went: its payment chips in seat order, and its payment
// lines (payer, payee, amount and why, from ledger/explain.py). History, the Win
// preview and the preview of a change show them.

import {h} from '../dom.js';
import {signClass, signed} from '../format/numbers.js';
import {paysText, reasonText} from '../format/reasons.js';
import {inSeatOrder} from '../format/seats.js';

/** The lines of a hand: "Cat pays Ben 120" and its reasons, one list item each. */
export function paymentLines(lines, testid = 'lines') {
  if (!lines?.length) return null;
  return h('ul', {class: 'lines', testid}, lines.map((line) => h('li', {class: 'line'},
    h('div', {class: 'line-head'}, h('span', {}, paysText(line)), h('strong', {class: 'line-amount'}, line.amount)),
    h('div', {class: 'line-why'}, line.reasons.map((reason) => reasonText(line, reason)).join(' · ')))));
}

/** The payment chips of a hand, in seat order. */
export function paymentChips(amounts, seats, testid = 'payments') {
  return h('div', {class: 'payments', testid}, inSeatOrder(amounts, seats).map((player) =>
    h('span', {class: `chip ${signClass(amounts[player])}`}, `${player} ${signed(amounts[player])}`)));
}
