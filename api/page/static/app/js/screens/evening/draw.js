// Enter a draw (流局): the reason, and in shanghai the dice of the hand.

import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import {against} from '../../parts/conflict.js';
import {editTitle, recordHand} from '../../parts/entry.js';
import {diceProblem, extrasBody, shanghaiExtras} from '../../parts/extras.js';
import {busy, choices, clearErrors, errorSlot, showError} from '../../parts/form.js';

const REASONS = ['exhausted', 'four_winds', 'four_kongs'];
let draft = null;

export async function render(root, app) {
  if (!app.data) await app.loadSession();
  const editing = app.editing?.kind === 'draw' ? app.editing : null;
  const key = `${app.session.id}:${editing ? editing.number || editing.draftKey : 'new'}`;
  if (draft?.key !== key) {
    draft = {key, reason: 'exhausted', extras: {dice: [null, null], threeMouth: [], discarderReady: false},
             ...(editing?.draft || {})};
  }
  draft.base = editing?.base || against(app); // what the table showed when the form was opened
  const shanghai = app.data.ruleset === 'shanghai';
  const form = h('form', {class: 'entry', testid: 'draw-form', novalidate: true});
  const paint = () => replace(form,
    h('section', {class: 'step'}, h('h2', {}, t('draw_reason')),
      choices(REASONS.map((reason) => ({value: reason, label: t(`reason_${reason}`)})), {
        selected: [draft.reason], testid: 'draw-reason', cls: 'stack',
        onPick: (reason) => { draft.reason = reason; paint(); },
      }), errorSlot('reason')),
    shanghai ? shanghaiExtras(draft.extras, [], null, paint) : null,
    submitRow(app, form, shanghai));
  paint();
  replace(root, h('h1', {}, editing ? editTitle(editing) : t('enter_draw')), form);
}

function submitRow(app, form, shanghai) {
  const button = h('button', {type: 'submit', class: 'btn primary big', testid: 'draw-submit'}, t('record'));
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(button, async () => {
      clearErrors(form);
      const problem = shanghai ? diceProblem(draft.extras) : null;
      if (problem) return showError(form, problem);
      const body = {draw: true, reason: draft.reason, ...(shanghai ? extrasBody(draft.extras, null) : {})};
      if (await recordHand(app, form, body, draft.base)) draft = null;
    });
  };
  return h('div', {class: 'submit-row'}, errorSlot(''),
    h('button', {type: 'button', class: 'btn ghost', onClick: () => {
      const back = app.editing ? 'history' : 'table';
      draft = null;
      app.editing = null;
      app.go(back);
    }}, t('cancel')),
    button);
}
