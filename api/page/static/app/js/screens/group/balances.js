// A group's balances (結餘): what each member is owed (+) or owes (−) over every
// evening and payment, each explained by the evenings and payments behind it;
// the fewest transfers that clear them all; "Record a payment" (partial ones
// too); and the latest payments, which a member can void.

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import {day} from '../../format/dates.js';
import {signClass, signed} from '../../format/numbers.js';
import {confirmDialog} from '../../parts/dialog.js';
import {busy, clearErrors, errorSlot, field, showErrors} from '../../parts/form.js';
import {groupDownload, groupError, groupPicture, showGroupError} from '../../parts/group_shared.js';
import {transfers} from '../../parts/transfers.js';

const LATEST_PAYMENTS = 10;

export async function render(root, app) {
  const data = await app.loadGroup();
  const writable = data.access !== 'read';
  const [balances, payments] = await Promise.all([api.balances(app.group), api.payments(app.group)]);
  replace(root, h('h1', {}, t('group_balances')),
    memberBalances(balances),
    transfers(balances, 'group-transfers'),
    writable ? paymentForm(app, data.members) : null,
    latestPayments(app, payments.payments, data.evenings, writable),
    h('div', {class: 'downloads'},
      groupPicture(app, () => 'balances.png', 'share-card'),
      groupDownload(app, () => 'balances.csv', t('group_balances_csv'), 'balances-csv'),
      groupDownload(app, () => 'payments.csv', t('group_payments_csv'), 'payments-csv')),
    h('button', {type: 'button', class: 'btn wide ghost', testid: 'to-group', onClick: () => app.go('group')},
      t('group_to_home')));
}

function memberBalances({members}) {
  const rows = [...members].sort((a, b) => b.balance - a.balance || a.name.localeCompare(b.name));
  return h('section', {class: 'card', testid: 'balances'}, h('h2', {}, t('group_open_balances')),
    rows.length ? rows.map((row) => h('details', {class: 'balance', testid: 'balance', dataset: {member: row.name,
      balance: String(row.balance)}},
    h('summary', {}, h('span', {class: 'balance-name'}, row.name),
      h('span', {class: `amount ${signClass(row.balance)}`}, signed(row.balance))),
    h('ul', {class: 'because'}, row.because.map((item) => h('li', {},
      h('span', {}, item.payment ? t('group_because_payment') : item.name),
      h('span', {class: `amount ${signClass(item.amount)}`}, signed(item.amount)))))))
      : h('p', {class: 'hint'}, t('group_no_members')),
    h('p', {class: 'hint'}, t('group_balances_hint')));
}

/** "Record a payment": who paid whom how much (a part of a debt is fine), and a note. */
function paymentForm(app, members) {
  const payment = {from: '', to: '', amount: '', note: ''};
  const select = (name) => h('select', {testid: `payment-${name}`,
    onChange: (event) => { payment[name] = event.target.value; }},
  h('option', {value: ''}, t('group_pick_member')),
  members.map((member) => h('option', {value: member.id}, member.name)));
  const form = h('form', {class: 'card', testid: 'payment-form', novalidate: true},
    h('h2', {}, t('group_record_payment')),
    h('div', {class: 'row payment-row'}, field(t('group_payer'), select('from'), 'from'), field(t('group_payee'), select('to'), 'to')),
    field(t('group_amount'), h('input', {type: 'number', min: 1, step: 1, inputmode: 'numeric', testid: 'payment-amount',
      onInput: (event) => { payment.amount = event.target.value; }}), 'amount'),
    field(t('group_note'), h('input', {type: 'text', maxlength: 200, testid: 'payment-note',
      onInput: (event) => { payment.note = event.target.value; }}), 'note'),
    errorSlot(''),
    h('button', {type: 'submit', class: 'btn primary wide', testid: 'payment-submit'}, t('group_record_payment')));
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(form.querySelector('button[type=submit]'), () => record(app, form, payment, members));
  };
  return form;
}

async function record(app, form, payment, members) {
  clearErrors(form);
  const problems = paymentProblems(payment);
  if (problems.length) return showErrors(form, problems);
  const body = {from: payment.from, to: payment.to, amount: Number(payment.amount)};
  if (payment.note.trim()) body.note = payment.note.trim();
  try {
    await api.addPayments(app.group, body);
  } catch (error) {
    return showGroupError(form, error);
  }
  const name = (id) => members.find((member) => member.id === id)?.name;
  app.toast(t('group_payment_recorded', {from: name(body.from), to: name(body.to), amount: body.amount}), 'ok');
  return app.go('balances');
}

/** Every problem of the payment at once, in the page's language (the server checks again). */
function paymentProblems({from, to, amount}) {
  const problems = [];
  if (!from) problems.push({field: 'from', message: t('group_need_payer')});
  if (!to) problems.push({field: 'to', message: t('group_need_payee')});
  else if (to === from) problems.push({field: 'to', message: t('group_pay_self')});
  if (!/^[1-9]\d*$/.test(String(amount).trim())) problems.push({field: 'amount', message: t('group_need_amount')});
  return problems;
}

/** The latest payments, each with its day, the evening it settled (if any) and its note. */
function latestPayments(app, payments, evenings, writable) {
  const eveningName = (id) => evenings.find((evening) => evening.id === id)?.name;
  const latest = payments.filter((payment) => !payment.void)
    .sort((a, b) => (b.at || '').localeCompare(a.at || '')).slice(0, LATEST_PAYMENTS);
  return h('section', {class: 'card', testid: 'payments'}, h('h2', {}, t('group_payments')),
    latest.length ? h('ul', {class: 'payments'}, latest.map((payment) => h('li', {testid: 'payment',
      dataset: {from: payment.from, to: payment.to, amount: String(payment.amount)}},
    h('span', {class: 'payment-text'}, `${payment.from} → ${payment.to} `, h('strong', {}, payment.amount),
      h('span', {class: 'hint'}, [day(payment.at), eveningName(payment.session)].filter(Boolean)
        .map((part) => h('span', {class: 'payment-part'}, ` · ${part}`)), payment.note ? ` · ${payment.note}` : null)),
    writable ? h('button', {type: 'button', class: 'btn small ghost', testid: 'void-payment',
      onClick: (event) => busy(event.currentTarget, () => voidPayment(app, payment))}, t('void')) : null)))
      : h('p', {class: 'hint'}, t('group_no_payments')));
}

async function voidPayment(app, payment) {
  const words = {from: payment.from, to: payment.to, amount: payment.amount};
  if (!(await confirmDialog(t('group_confirm_void_payment', words), t('void')))) return;
  try {
    await api.voidPayment(app.group, payment.id);
    app.toast(t('group_payment_voided', words), 'ok');
  } catch (error) {
    app.toast(groupError(error), 'error');
  }
  app.go('balances');
}
