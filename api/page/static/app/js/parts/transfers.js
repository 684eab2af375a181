// Who pays whom: the fewest transfers that settle an evening (Settle) or clear
// a group's balances (Balances), drawn alike.

import {h} from '../dom.js';
import {t} from '../i18n.js';

/** Who pays whom: an evening's settlement, or the transfers that clear a group's balances (its own testid). */
export function transfers({transfers: list}, testid = 'transfers') {
  return h('section', {class: 'transfers', testid}, h('h2', {}, t('transfers')),
    list.length ? h('ul', {}, list.map((transfer) => h('li', {
      dataset: {from: transfer.from, to: transfer.to, amount: String(transfer.amount)}},
      h('span', {class: 'from'}, transfer.from), h('span', {class: 'arrow'}, ' → '),
      h('span', {class: 'to'}, transfer.to), h('span', {class: 'amount'}, ` ${transfer.amount}`))))
      : h('p', {class: 'hint'}, t('nothing_to_pay')));
}
