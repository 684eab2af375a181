// What an evening is played under: the rule set, its stakes and options, and
// the house rules (家規, with their presets). The same fields in every form
// that sets them: the start form, a new group's defaults (and the admin's
// change of them later), and a group evening's form, which starts from the
// group's defaults and may change them for that evening (issue 29 item 1).
// `terms` is {ruleset, stakes, options, house, houseView}, edited in place.

import {h} from '../dom.js';
import {optionLabel, t, word} from '../i18n.js';
import {choices, errorSlot, field, fieldWords} from './form.js';
import {houseRulesBody, houseRulesSection} from './house_rules.js';

/** Default stakes per unit: 底 100 / 台 20 at Taiwanese tables, 底分 10 in shanghai. */
const DEFAULT_STAKES = {tai: {base: 100, per_tai: 20}, flower: {base: 10}};

export function defaultOptions(ruleset) {
  return Object.fromEntries(ruleset.options.map((option) => [option.id, option.default]));
}

/** Fresh terms: the first rule set's, or a group's defaults (`from`) over them where it names a rule set. */
export function newTerms(rulesets, from = null) {
  const ruleset = rulesets.find((r) => r.id === from?.ruleset) || rulesets[0];
  const terms = {ruleset: ruleset.id, stakes: {...DEFAULT_STAKES[ruleset.unit]}, options: defaultOptions(ruleset),
                 house: {}, houseView: {open: false}};
  if (from?.ruleset === ruleset.id) {
    Object.assign(terms.stakes, from.stakes || {});
    Object.assign(terms.options, from.options || {});
    terms.house = structuredClone(from.house_rules || {});
  }
  return terms;
}

export function pickRuleset(terms, ruleset) {
  terms.ruleset = ruleset.id;
  terms.stakes = {...DEFAULT_STAKES[ruleset.unit]};
  terms.options = defaultOptions(ruleset);
  terms.house = {};
}

/** The fields; `prefix` keeps test ids apart where two forms share a screen (the start screen's group form). */
export function termsFields(rulesets, terms, repaint, prefix = '') {
  const ruleset = rulesets.find((r) => r.id === terms.ruleset);
  return [
    h('fieldset', {}, h('legend', {}, t('ruleset')),
      // The rule set's name in the page's language (the server's copy names it in Chinese for a reader of
      // English, as it does the patterns), issue 29 item 10.
      choices(rulesets.map((r) => ({value: r.id, label: rulesetName(r)})), {
        selected: [terms.ruleset], testid: `${prefix}ruleset`, cls: 'stack',
        onPick: (id) => { pickRuleset(terms, rulesets.find((r) => r.id === id)); repaint(); },
      }), errorSlot('ruleset')),
    stakesFields(ruleset, terms, prefix),
    optionFields(ruleset, terms, prefix),
    houseRulesSection(ruleset, terms.house, terms.houseView, repaint),
  ];
}

export function rulesetName(ruleset) {
  const key = `ruleset.name.${ruleset.id}`;
  const name = word(key);
  return name === key ? ruleset.name : name;
}

function stakesFields(ruleset, terms, prefix) {
  const names = ruleset.unit === 'tai' ? ['base', 'per_tai'] : ['base'];
  return h('fieldset', {class: 'stakes'}, h('legend', {}, t('stakes')),
    h('div', {class: 'row'}, names.map((name) => field(t(`stake_${name}_${ruleset.unit}`),
      input('number', terms.stakes[name], (v) => { terms.stakes[name] = v === '' ? '' : Number(v); },
        `${prefix}stake-${name}`, {min: 0, step: 1, inputmode: 'numeric'}), `stakes.${name}`))),
    errorSlot('stakes'));
}

function optionFields(ruleset, terms, prefix) {
  if (!ruleset.options.length) return null;
  return h('fieldset', {class: 'options'}, h('legend', {}, t('options')),
    ruleset.options.map((option) => optionControl(option, terms, prefix)), errorSlot('options'));
}

function optionControl(option, terms, prefix) {
  const name = `options.${option.id}`;
  if (option.type === 'bool') {
    return h('label', {class: 'toggle'},
      h('input', {type: 'checkbox', checked: Boolean(terms.options[option.id]), testid: `${prefix}option-${option.id}`,
        onChange: (event) => { terms.options[option.id] = event.target.checked; }}),
      h('span', {}, optionLabel(option)), errorSlot(name));
  }
  return field(optionLabel(option), input('number', terms.options[option.id] ?? '', (v) => {
    terms.options[option.id] = v === '' ? null : Number(v);
  }, `${prefix}option-${option.id}`, {min: 1, step: 1, inputmode: 'numeric', placeholder: t('no_cap')}), name);
}

function input(type, value, onInput, testid, extra = {}) {
  return h('input', {type, value: value ?? '', testid, ...extra, onInput: (event) => onInput(event.target.value)});
}

/**
 * The request's part: {ruleset, stakes, options, house_rules}. `changedOnly`: options only where they differ
 * from the rule set's defaults (a plain evening); a group's defaults and its evenings carry them all, so that
 * a later change of the defaults never changes what an evening's form showed.
 */
export function termsBody(rulesets, terms, changedOnly = false) {
  const ruleset = rulesets.find((r) => r.id === terms.ruleset);
  const defaults = defaultOptions(ruleset);
  const options = Object.fromEntries(Object.entries(terms.options)
    .filter(([id, value]) => id in defaults && (!changedOnly || value !== defaults[id])));
  const body = {ruleset: ruleset.id, stakes: {...terms.stakes}, options};
  const houseRules = houseRulesBody(terms.house);
  if (houseRules) body.house_rules = houseRules;
  return body;
}

/** Every problem of the terms at once, in the page's language (the server checks again). */
export function termsProblems(rulesets, terms) {
  const ruleset = rulesets.find((r) => r.id === terms.ruleset);
  const problems = [];
  for (const [key, value] of Object.entries(terms.stakes)) {
    if (!Number.isInteger(value) || value < 1) {
      problems.push({field: `stakes.${key}`, message: t('need_stake', {field: fieldWords(`stakes.${key}`)})});
    }
  }
  const cap = terms.options.max_tai;
  if (ruleset.options.some((option) => option.id === 'max_tai') && cap !== null && cap !== undefined
      && (!Number.isInteger(cap) || cap < 1)) {
    problems.push({field: 'options.max_tai', message: t('need_cap')});
  }
  return problems;
}
