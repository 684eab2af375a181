// House rules (家規) of an evening under way (RULES.md §8). With hands played
// the table says which it means: "we play differently from now on" (from the
// next hand: POST …/house_rules, the hands before keep their rules; first,
// the usual case) or "we set them up wrong" (a correction of the whole
// evening: PUT, every hand re-priced, and any change made from a hand on
// replaced). A correction shows what it would change in money first
// (POST …/house_rules/preview) and is applied only from there.

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import {correctionPreview} from '../../parts/changes.js';
import {against, sendAgainst} from '../../parts/conflict.js';
import {busy, choices, clearErrors, errorSlot, showError} from '../../parts/form.js';
import {houseRulesBody, houseRulesSection} from '../../parts/house_rules.js';

const FROM_NEXT = 'next';
const CORRECT = 'correct';
let draft = null;

export async function render(root, app) {
  const data = await app.loadSession();
  const rulesets = await app.loadRulesets();
  const ruleset = rulesets.find((r) => r.id === data.ruleset);
  if (!draft || draft.session !== app.session.id || draft.revision !== data.revision) {
    draft = {session: app.session.id, revision: data.revision, rules: structuredClone(data.house_rules || {}),
             view: {open: true}, when: FROM_NEXT, preview: null};
  }
  const base = against(app);
  const played = (data.next_hand ?? 1) > 1;
  const form = h('form', {class: 'entry rules-form', testid: 'rules-form', novalidate: true});
  const paint = () => replace(form,
    houseRulesSection(ruleset, draft.rules, draft.view, () => { draft.preview = null; paint(); }),
    played ? when(data, paint) : null,
    draft.when === CORRECT && draft.preview ? draft.preview : null,
    h('div', {class: 'submit-row'}, errorSlot(''),
      h('button', {type: 'button', class: 'btn ghost', onClick: () => { draft = null; app.go('table'); }}, t('cancel')),
      h('button', {type: 'submit', class: 'btn primary big', testid: 'rules-submit'}, submitLabel(data, played))));
  form.addEventListener('input', () => {  // an edited rule: the money shown is no longer what would change
    if (draft.preview) { draft.preview = null; paint(); }
  });
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(form.querySelector('[data-testid="rules-submit"]'), () => submit(app, form, base, played, paint));
  };
  paint();
  replace(root, h('h1', {}, t('house_rules')), h('p', {class: 'hint'}, t(played ? 'rules_hint' : 'rules_hint_start')),
    form);
}

/** The question: from the next hand (first), or a correction of the whole evening. */
function when(data, paint) {
  const next = data.next_hand;
  return h('section', {class: 'step', testid: 'rules-when'}, h('h2', {}, t('rules_when')),
    choices([
      {value: FROM_NEXT, label: t('rules_from_next', {n: next}), sub: t('rules_from_next_sub', {last: next - 1})},
      {value: CORRECT, label: t('rules_correct'), sub: t('rules_correct_sub')},
    ], {selected: [draft.when], testid: 'rules-when-choice', cls: 'stack', onPick: (value) => {
      draft.when = value;
      draft.preview = null;
      paint();
    }}));
}

function submitLabel(data, played) {
  if (!played) return t('rules_save');
  if (draft.when === FROM_NEXT) return t('rules_save_next', {n: data.next_hand});
  return draft.preview ? t('rules_apply_correction') : t('rules_show_correction');
}

async function submit(app, form, base, played, paint) {
  clearErrors(form);
  const body = houseRulesBody(draft.rules) || {};
  if (played && draft.when === CORRECT && !draft.preview) {  // first the money, then the correction
    draft.preview = correctionPreview(app, body);
    paint();
    return;
  }
  const fromNext = played && draft.when === FROM_NEXT;
  if (fromNext && JSON.stringify(body) === JSON.stringify(houseRulesBody(app.data.house_rules || {}) || {})) {
    return showError(form, {message: t('rules_same'), field: ''});
  }
  try {
    const done = await sendAgainst(app, base, (revision) => (fromNext
      ? api.changeHouseRules(app.session, body, revision) : api.correctHouseRules(app.session, body, revision)),
    t('house_rules'));
    if (done) app.toast(fromNext ? t('rules_changed', {n: done.from_hand}) : t('rules_corrected'), 'ok');
  } catch (error) {
    if (String(error.field || '').startsWith('house_rules')) draft.view.open = true;
    return showError(form, error);
  }
  draft = null;
  app.data = null;
  app.go('table');
}
