// House rules (家規) of the start form: presets, the dealer extra and its cap,
// the 勒子 cap, the 詐胡 penalty, and every pattern with its value and an
// on/off switch (searchable). `rules` is the house_rules document itself
// (API.md "House rules"), edited in place; GET /api/rulesets says what the
// rule set lets it change (`ruleset.house_rules`), the server checks it.

import {h} from '../dom.js';
import {chineseTag, inLanguage, t} from '../i18n.js';
import {errorSlot, field} from './form.js';

const DEALER_EXTRAS = ['1+2n', '1+n', 'none'];

/**
 * The fieldset; `repaint()` redraws the whole form (after a preset). Its fields are drawn when it is first opened
 * (on the tap, before the browser draws it open): every pattern of the rule set is 420 of the start form's 480
 * elements, which a new phone's start form drew, and the browser scanned, before it could be used
 * (benchmarks/page_load.py row 1). Its errors' place is there from the start.
 */
export function houseRulesSection(ruleset, rules, view, repaint) {
  const info = ruleset.house_rules;
  if (!info) return null;
  let drawn = false;
  const draw = () => {
    if (drawn) return;
    drawn = true;
    summary.after(...[
      presets(info.presets || [], rules, repaint),
      info.dealer_extra ? dealerFields(rules, changed) : null,
      info.lei_cap ? numberField(t('lei_cap'), rules, 'lei_cap', changed,
        {min: 1, placeholder: String(info.lei_cap.default)}) : null,
      falseWinFields(info, ruleset, rules, changed),
      patternList(ruleset, info, rules, changed)].filter(Boolean));
  };
  const summary = h('summary', {testid: 'house-rules-summary', onClick: draw}, summaryText(rules));
  const changed = () => { summary.textContent = summaryText(rules); };
  const section = h('details', {class: 'card house-rules', testid: 'house-rules', open: view.open,
    onToggle: (event) => {
      view.open = event.currentTarget.open;
      if (view.open) draw();  // opened otherwise than by a tap on its summary
    }},
  summary,
  errorSlot('house_rules'));
  if (view.open) draw();
  return section;
}

/** The document to send: empty parts left out; null when it changes nothing. */
export function houseRulesBody(rules) {
  const body = {};
  for (const [key, value] of Object.entries(rules)) {
    const empty = value === null || value === undefined || value === ''
      || (Array.isArray(value) && !value.length) || (typeof value === 'object' && !Object.keys(value).length);
    if (!empty) body[key] = value;
  }
  return Object.keys(body).length ? body : null;
}

function summaryText(rules) {
  const body = houseRulesBody(rules) || {};
  const count = Object.entries(body).reduce((n, [key, value]) => n + (key === 'values' ? Object.keys(value).length
    : Array.isArray(value) ? value.length : 1), 0);
  return count ? `${t('house_rules')} · ${t('house_rules_changes', {n: count})}` : t('house_rules');
}

function presets(items, rules, repaint) {
  if (!items.length) return null;
  const pick = (preset) => {
    for (const key of Object.keys(rules)) delete rules[key];
    Object.assign(rules, structuredClone(preset ? preset.house_rules : {}));
    repaint();
  };
  return h('div', {class: 'presets', testid: 'presets'}, h('h3', {}, t('presets')),
    h('button', {type: 'button', class: 'btn small', testid: 'preset-none', onClick: () => pick(null)}, t('preset_none')),
    items.map((preset) => h('button', {type: 'button', class: 'preset', testid: `preset-${preset.id}`,
      onClick: () => pick(preset)},
    h('strong', {}, inLanguage(preset.name)),
    h('small', {}, inLanguage(preset.description)))));
}

function dealerFields(rules, changed) {
  const select = h('select', {testid: 'hr-dealer-extra', onChange: (event) => {
    if (event.target.value === '1+2n') delete rules.dealer_extra;
    else rules.dealer_extra = event.target.value;
    changed();
  }}, DEALER_EXTRAS.map((formula) => h('option', {value: formula, selected: (rules.dealer_extra || '1+2n') === formula},
    t(`dealer_extra_${formula}`))));
  return h('div', {class: 'row'},
    field(t('dealer_extra'), select, 'house_rules.dealer_extra'),
    numberField(t('max_dealer_extra'), rules, 'max_dealer_extra', changed, {min: 0, placeholder: t('no_cap')}));
}

function numberField(label, rules, key, changed, extra) {
  return field(label, h('input', {type: 'number', inputmode: 'numeric', step: 1, value: rules[key] ?? '',
    testid: `hr-${key.replaceAll('_', '-')}`, ...extra, onInput: (event) => {
      if (event.target.value === '') delete rules[key];
      else rules[key] = Number(event.target.value);
      changed();
    }}), `house_rules.${key}`);
}

function falseWinFields(info, ruleset, rules, changed) {
  const unit = ruleset.id === 'shanghai' ? t('unit_points') : t('unit_tai');
  const fallback = info.false_win.default.as_self_draw;
  const kind = () => Object.keys(rules.false_win || {})[0] || '';
  const amount = h('input', {type: 'number', inputmode: 'numeric', min: 0, step: 1, testid: 'hr-false-win-value',
    value: rules.false_win ? Object.values(rules.false_win)[0] : '', hidden: !kind(), onInput: (event) => {
      if (kind()) rules.false_win = {[kind()]: event.target.value === '' ? '' : Number(event.target.value)};
      changed();
    }});
  const select = h('select', {testid: 'hr-false-win-kind', onChange: (event) => {
    const next = event.target.value;
    if (next) rules.false_win = {[next]: amount.value === '' ? '' : Number(amount.value)};
    else delete rules.false_win;
    amount.hidden = !next;
    changed();
  }},
  h('option', {value: '', selected: !kind()}, t('false_win_default', {n: fallback, unit})),
  h('option', {value: 'as_self_draw', selected: kind() === 'as_self_draw'}, t('false_win_as_self_draw', {unit})),
  h('option', {value: 'amount', selected: kind() === 'amount'}, t('false_win_amount')));
  return h('label', {class: 'field'}, h('span', {class: 'field-label'}, t('false_win_penalty')),
    h('div', {class: 'row'}, select, amount), errorSlot('house_rules.false_win'));
}

function patternList(ruleset, info, rules, changed) {
  const own = ruleset.patterns.filter((pattern) => info.off.includes(pattern.id));
  const rows = [...own.map((pattern) => patternRow(pattern, false, rules, changed)),
                ...info.on.map((pattern) => patternRow(pattern, true, rules, changed))];
  const search = h('input', {type: 'search', testid: 'hr-search', placeholder: t('search_patterns'),
    onInput: (event) => {
      const wanted = event.target.value.trim().toLowerCase();
      for (const row of rows) row.hidden = Boolean(wanted) && !row.dataset.search.includes(wanted);
    }});
  return h('div', {class: 'patterns'}, h('h3', {}, t('patterns')), search,
    h('p', {class: 'hint'}, t('patterns_hint')), h('div', {class: 'pattern-rows'}, rows));
}

/** One pattern: on/off, and its value. `extra`: a pattern of the other rule set (off unless switched on). */
function patternRow(pattern, extra, rules, changed) {
  const list = extra ? 'on' : 'off';
  const counted = () => (extra ? (rules.on || []).includes(pattern.id) : !(rules.off || []).includes(pattern.id));
  const value = h('input', {type: 'number', inputmode: 'numeric', min: 0, max: 1000, step: 1,
    value: rules.values?.[pattern.id] ?? pattern.value, testid: `hr-value-${pattern.id}`,
    'aria-label': `${pattern.name} ${t(`unit_${pattern.unit}`)}`, onInput: (event) => {
      rules.values = rules.values || {};
      if (event.target.value === '' || Number(event.target.value) === pattern.value) delete rules.values[pattern.id];
      else rules.values[pattern.id] = Number(event.target.value);
      changed();
    }});
  const row = h('div', {class: `pattern-row${extra ? ' extra' : ''}`, testid: `hr-pattern-${pattern.id}`,
    dataset: {search: `${pattern.name} ${pattern.id}`.toLowerCase()}},
  h('label', {class: 'toggle'}, h('input', {type: 'checkbox', checked: counted(), testid: `hr-on-${pattern.id}`,
    onChange: (event) => {
      const ids = new Set(rules[list] || []);
      if (event.target.checked === extra) ids.add(pattern.id);
      else ids.delete(pattern.id);
      rules[list] = [...ids].sort();
      changed();
    }}),
  h('span', {class: 'pattern-name', lang: chineseTag()}, pattern.name),
  extra ? h('small', {class: 'hint'}, t('pattern_extra')) : null),
  h('span', {class: 'pattern-value'}, value, ` ${t(`unit_${pattern.unit}`)}`),
  errorSlot(`house_rules.values.${pattern.id}`));
  return row;
}
