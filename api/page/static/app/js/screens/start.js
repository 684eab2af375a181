// Start an evening (開桌): name, rule set with its options and stakes, four
// players in seat order. Also lists the evenings and the groups this phone
// already knows, and starts a group (牌友會).

import {api} from '../api.js';
import {h, replace} from '../dom.js';
import {optionLabel, t, windName} from '../i18n.js';
import * as storage from '../storage.js';
import {WINDS} from '../tiles.js';
import {localDate} from '../format/dates.js';
import {confirmDialog} from '../parts/dialog.js';
import {busy, choices, clearErrors, errorSlot, field, fieldWords, showError, showErrors} from '../parts/form.js';
import {showGroupError} from '../parts/group.js';
import {houseRulesBody, houseRulesSection} from '../parts/house_rules.js';

/** Default stakes per unit: 底 100 / 台 20 at Taiwanese tables, 底分 10 in shanghai. */
const DEFAULT_STAKES = {tai: {base: 100, per_tai: 20}, flower: {base: 10}};

let draft = null;

function newDraft(rulesets) {
  const ruleset = rulesets[0];
  return {name: localDate(new Date()), ruleset: ruleset.id, players: ['', '', '', ''],
          stakes: {...DEFAULT_STAKES[ruleset.unit]}, options: defaultOptions(ruleset), house: {}, houseView: {open: false}};
}

function defaultOptions(ruleset) {
  return Object.fromEntries(ruleset.options.map((option) => [option.id, option.default]));
}

export async function render(root, app) {
  let rulesets = await app.loadRulesets();
  if (!rulesets[0]?.house_rules) {  // a copy saved before house rules existed: fetch them again
    app.rulesets = null;
    rulesets = await app.loadRulesets();
  }
  draft = draft || newDraft(rulesets);
  const form = h('form', {class: 'card start', testid: 'start-form', novalidate: true});
  const paint = () => replace(form, ...fields(rulesets, paint), submitRow(form, app, rulesets));
  paint();
  replace(root, known(app), knownGroups(app), h('h1', {}, t('new_evening')), form, newGroup(app));
}

function known(app) {
  const sessions = Object.values(storage.knownSessions()).sort((a, b) => (b.opened || '').localeCompare(a.opened || ''));
  if (!sessions.length) return null;
  return h('section', {class: 'card', testid: 'known-sessions'}, h('h2', {}, t('continue_evening')),
    sessions.map((session) => h('div', {class: 'row known'},
      h('button', {type: 'button', class: 'btn wide', onClick: () => { app.open(session); app.go('table'); }},
        session.name || session.id.slice(0, 8)),
      h('button', {type: 'button', class: 'btn ghost small', 'aria-label': t('forget'), onClick: async () => {
        if (!(await confirmDialog(t('confirm_forget', {name: session.name || session.id}), t('forget')))) return;
        storage.forgetSession(session.id);
        if (app.session?.id === session.id) app.close();
        app.go('start');
      }}, '✕'))));
}

/** The groups this phone knows, listed like its evenings. */
function knownGroups(app) {
  const groups = Object.values(storage.knownGroups()).sort((a, b) => (b.opened || '').localeCompare(a.opened || ''));
  if (!groups.length) return null;
  return h('section', {class: 'card', testid: 'known-groups'}, h('h2', {}, t('groups')),
    groups.map((group) => h('div', {class: 'row known'},
      h('button', {type: 'button', class: 'btn wide', testid: 'known-group', onClick: () => {
        app.openGroup(group);
        app.go('group');
      }}, group.name || group.id.slice(0, 8)),
      h('button', {type: 'button', class: 'btn ghost small', 'aria-label': t('forget'), onClick: async () => {
        if (!(await confirmDialog(t('confirm_forget_group', {name: group.name || group.id}), t('forget')))) return;
        storage.forgetGroup(group.id);
        if (app.group?.id === group.id) app.group = null;
        app.go('start');
      }}, '✕'))));
}

/** "Start a group": a name; the phone keeps the admin token and shows the links to hand out. */
function newGroup(app) {
  let name = '';
  const form = h('form', {class: 'new-group', novalidate: true, testid: 'new-group'});
  const button = h('button', {type: 'submit', class: 'btn primary wide', testid: 'group-create'}, t('group_create'));
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(button, async () => {
      clearErrors(form);
      if (!name.trim()) return showError(form, {field: 'name', message: t('group_need_name')});
      try {
        const created = await api.createGroup({name: name.trim()});
        app.openGroup({id: created.id, token: created.admin_token, member_token: created.member_token,
                       read_token: created.read_token, name: created.name, access: 'admin'});
        app.go('group-share');
      } catch (error) {
        showGroupError(form, error);
      }
    });
  };
  form.append(field(t('group_name'), h('input', {type: 'text', maxlength: 80, testid: 'group-name-input',
    autocomplete: 'off', onInput: (event) => { name = event.target.value; }}), 'name'),
  errorSlot(''), button);
  return h('details', {class: 'card', testid: 'new-group-card'}, h('summary', {}, t('group_start')), form);
}

function fields(rulesets, repaint) {
  const ruleset = rulesets.find((r) => r.id === draft.ruleset);
  return [
    field(t('evening_name'), input('text', draft.name, (v) => { draft.name = v; }, 'session-name'), 'name'),
    h('fieldset', {}, h('legend', {}, t('ruleset')),
      choices(rulesets.map((r) => ({value: r.id, label: r.name})), {
        selected: [draft.ruleset], testid: 'ruleset', cls: 'stack',
        onPick: (id) => { pickRuleset(rulesets.find((r) => r.id === id)); repaint(); },
      }), errorSlot('ruleset')),
    stakesFields(ruleset),
    optionFields(ruleset),
    houseRulesSection(ruleset, draft.house, draft.houseView, repaint),
    playerFields(),
  ];
}

function pickRuleset(ruleset) {
  draft.ruleset = ruleset.id;
  draft.stakes = {...DEFAULT_STAKES[ruleset.unit]};
  draft.options = defaultOptions(ruleset);
  draft.house = {};
}

function stakesFields(ruleset) {
  const names = ruleset.unit === 'tai' ? ['base', 'per_tai'] : ['base'];
  return h('fieldset', {class: 'stakes'}, h('legend', {}, t('stakes')),
    h('div', {class: 'row'}, names.map((name) => field(t(`stake_${name}_${ruleset.unit}`),
      input('number', draft.stakes[name], (v) => { draft.stakes[name] = v === '' ? '' : Number(v); }, `stake-${name}`,
        {min: 0, step: 1, inputmode: 'numeric'}), `stakes.${name}`))),
    errorSlot('stakes'));
}

function optionFields(ruleset) {
  if (!ruleset.options.length) return null;
  return h('fieldset', {class: 'options'}, h('legend', {}, t('options')),
    ruleset.options.map((option) => optionControl(option)), errorSlot('options'));
}

function optionControl(option) {
  const name = `options.${option.id}`;
  if (option.type === 'bool') {
    return h('label', {class: 'toggle'},
      h('input', {type: 'checkbox', checked: Boolean(draft.options[option.id]), testid: `option-${option.id}`,
        onChange: (event) => { draft.options[option.id] = event.target.checked; }}),
      h('span', {}, optionLabel(option)), errorSlot(name));
  }
  return field(optionLabel(option), input('number', draft.options[option.id] ?? '', (v) => {
    draft.options[option.id] = v === '' ? null : Number(v);
  }, `option-${option.id}`, {min: 1, step: 1, inputmode: 'numeric', placeholder: t('no_cap')}), name);
}

function playerFields() {
  return h('fieldset', {class: 'players'}, h('legend', {}, t('players_in_order')),
    WINDS.map((wind, seat) => h('label', {class: 'field seat-field'},
      h('span', {class: 'wind-badge'}, windName(wind)),
      input('text', draft.players[seat], (v) => { draft.players[seat] = v; }, `player-${seat}`,
        {placeholder: t('player_n', {n: seat + 1}), autocomplete: 'off', maxlength: 40}),
      errorSlot(`players.${seat}`))),
    h('p', {class: 'hint'}, t('first_deals')), errorSlot('players'));
}

function input(type, value, onInput, testid, extra = {}) {
  return h('input', {type, value: value ?? '', testid, ...extra, onInput: (event) => onInput(event.target.value)});
}

function submitRow(form, app, rulesets) {
  const button = h('button', {type: 'submit', class: 'btn primary big', testid: 'start-submit'}, t('start'));
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(button, () => create(form, app, rulesets));
  };
  return h('div', {}, errorSlot(''), button);
}

async function create(form, app, rulesets) {
  clearErrors(form);
  const ruleset = rulesets.find((r) => r.id === draft.ruleset);
  const body = {name: draft.name.trim(), ruleset: ruleset.id, players: draft.players.map((p) => p.trim()),
                stakes: draft.stakes, options: changedOptions(ruleset)};
  const houseRules = houseRulesBody(draft.house);
  if (houseRules) body.house_rules = houseRules;
  const problems = formProblems(body, ruleset);
  if (problems.length) return showErrors(form, problems);
  try {
    const created = await api.createSession(body);
    app.open({id: created.id, token: created.token, read_token: created.read_token, name: created.name || body.name, ruleset: body.ruleset});
    app.data = null;
    draft = null;
    app.go('share');
  } catch (error) {
    if (String(error.field || '').startsWith('house_rules')) {
      draft.houseView.open = true;
      form.querySelector('[data-testid="house-rules"]').open = true;
    }
    showError(form, error);
  }
}

/** Every problem of the form at once, in the page's language (the server checks again). */
function formProblems(body, ruleset) {
  const problems = [];
  if (!body.name) problems.push({field: 'name', message: t('need_name')});
  const seen = new Set();
  body.players.forEach((player, seat) => {
    if (!player) problems.push({field: `players.${seat}`, message: t('need_player', {n: seat + 1})});
    else if (seen.has(player)) problems.push({field: `players.${seat}`, message: t('player_twice', {name: player})});
    seen.add(player);
  });
  for (const [key, value] of Object.entries(body.stakes)) {
    if (!Number.isInteger(value) || value < 1) {
      problems.push({field: `stakes.${key}`, message: t('need_stake', {field: fieldWords(`stakes.${key}`)})});
    }
  }
  const cap = draft.options.max_tai;
  if (ruleset.options.some((option) => option.id === 'max_tai') && cap !== null && cap !== undefined
      && (!Number.isInteger(cap) || cap < 1)) {
    problems.push({field: 'options.max_tai', message: t('need_cap')});
  }
  return problems;
}

function changedOptions(ruleset) {
  const defaults = defaultOptions(ruleset);
  return Object.fromEntries(Object.entries(draft.options).filter(([id, value]) => value !== defaults[id]));
}
