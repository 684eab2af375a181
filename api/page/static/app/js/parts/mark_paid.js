// "Mark as paid" on the Settle view of an evening that belongs to a group: the
// evening's suggested transfers become the group's payments in one request
// (one transaction: all or none), so the group's balances stop counting the
// evening as owed. An evening whose payments are already recorded says so.

import {api} from '../api.js';
import {h, replace} from '../dom.js';
import {t} from '../i18n.js';
import * as storage from '../storage.js';
import {readOnly} from './access.js';
import {confirmDialog} from './dialog.js';
import {busy, errorSlot, showError} from './form.js';
import {groupError} from './group_shared.js';

/** The group of the evening in use, when this phone holds a token of it that may record payments. */
function groupOf(app) {
  const id = app.session?.group || (typeof app.data?.group === 'string' ? app.data.group : app.data?.group?.id);
  const group = id ? storage.knownGroups()[id] : null;
  return group && group.access !== 'read' ? group : null;
}

/** The section under the transfers (null for an evening outside a group or a read-only phone). */
export async function markPaidSection(app, settlement) {
  const group = groupOf(app);
  if (!group || readOnly(app)) return null;
  const box = h('section', {class: 'card mark-paid', testid: 'mark-paid'});
  try {
    const {payments} = await api.payments(group);
    paint(app, box, group, settlement, payments.filter((payment) => payment.session === app.session.id && !payment.void));
  } catch (error) {
    replace(box, h('p', {class: 'hint'}, groupError(error)));
  }
  return box;
}

function paint(app, box, group, settlement, recorded) {
  if (recorded.length) {
    replace(box, h('p', {class: 'note', testid: 'marked-paid'}, t('group_marked_paid', {count: recorded.length})),
      h('ul', {class: 'plain-list'}, recorded.map((payment) => h('li', {},
        `${payment.from} → ${payment.to} `, h('strong', {}, payment.amount)))));
    return;
  }
  if (!settlement.transfers.length) {
    replace(box);
    box.hidden = true;
    return;
  }
  const button = h('button', {type: 'button', class: 'btn primary wide', testid: 'mark-paid-button',
    onClick: () => busy(button, () => markPaid(app, box, group, settlement))}, t('group_mark_paid'));
  replace(box, h('p', {class: 'hint'}, t('group_mark_paid_hint', {group: group.name})), errorSlot(''), button);
}

async function markPaid(app, box, group, settlement) {
  const payments = settlement.transfers.map(({from, to, amount}) => ({from, to, amount}));
  if (!(await confirmDialog(t('group_confirm_mark_paid', {count: payments.length}), t('group_mark_paid')))) return;
  try {
    const answer = await api.addPayments(group, {session: app.session.id, payments});
    app.toast(t('group_marked_paid', {count: answer.payments.length}), 'ok');
    paint(app, box, group, settlement, answer.payments);
  } catch (error) {
    showError(box, {field: '', message: groupError(error)});
  }
}
