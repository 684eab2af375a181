// Start an evening (開桌): name, rule set with its options and stakes, four
// players in seat order. Also lists the evenings and the groups this phone
// already knows, and starts a group (牌友會).

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t, windName} from '../../i18n.js';
import * as storage from '../../storage.js';
import {WINDS} from '../../tiles.js';
import {localDate} from '../../format/dates.js';
import {confirmDialog} from '../../parts/dialog.js';
import {busy, clearErrors, errorSlot, field, showError, showErrors, submitRow} from '../../parts/form.js';
import {showGroupError} from '../../parts/group_shared.js';
import {newTerms, termsBody, termsFields, termsProblems} from '../../parts/terms.js';

let draft = null;

function newDraft(rulesets) {
  return {name: localDate(new Date()), players: ['', '', '', ''], ...newTerms(rulesets)};
}

export async function render(root, app) {
  let rulesets = await app.loadRulesets();
  if (!rulesets[0]?.house_rules) {  // a copy saved before house rules existed: fetch them again
    app.rulesets = null;
    rulesets = await app.loadRulesets();
  }
  draft = draft || newDraft(rulesets);
  const form = h('form', {class: 'card start', testid: 'start-form', novalidate: true});
  const paint = () => replace(form, ...fields(rulesets, paint),
    submitRow(form, 'start-submit', t('start'), () => create(form, app, rulesets)));
  paint();
  const group = newGroup(app, rulesets);
  replace(root, known(app), knownGroups(app), groupLead(group), knownCompetitions(app),
    h('h1', {}, t('new_evening')), form, group,
    h('button', {type: 'button', class: 'btn wide', testid: 'to-competition-new', onClick: () => app.go('competition-new')},
      t('comp_new')));
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

/**
 * What this phone knows of a kind (groups, competitions), most recently opened first, as a card: each opens with
 * a tap, or is forgotten on this phone after asking (`forgetWords(name)`).
 */
function knownCard(app, items, {testid, title, itemTestid, open, forgetWords, forget}) {
  const sorted = Object.values(items).sort((a, b) => (b.opened || '').localeCompare(a.opened || ''));
  if (!sorted.length) return null;
  return h('section', {class: 'card', testid}, h('h2', {}, title),
    sorted.map((item) => h('div', {class: 'row known'},
      h('button', {type: 'button', class: 'btn wide', testid: itemTestid, onClick: () => open(item)},
        item.name || item.id.slice(0, 8)),
      h('button', {type: 'button', class: 'btn ghost small', 'aria-label': t('forget'), onClick: async () => {
        if (!(await confirmDialog(forgetWords(item.name || item.id), t('forget')))) return;
        forget(item);
        app.go('start');
      }}, '✕'))));
}

/** The groups this phone knows, listed like its evenings. */
function knownGroups(app) {
  return knownCard(app, storage.knownGroups(), {testid: 'known-groups', title: t('groups'), itemTestid: 'known-group',
    open: (group) => { app.openGroup(group); app.go('group'); },
    forgetWords: (name) => t('confirm_forget_group', {name}),
    forget: (group) => {
      storage.forgetGroup(group.id);
      if (app.group?.id === group.id) app.group = null;
    }});
}

/** The competitions this phone knows (as an organiser, or the wall's read-only link), listed like its groups. */
function knownCompetitions(app) {
  return knownCard(app, storage.knownCompetitions(), {testid: 'known-competitions', title: t('comp_known'),
    itemTestid: 'known-competition',
    open: (competition) => {
      app.competition = storage.rememberCompetition(competition);
      app.go(competition.access === 'read' ? 'wall' : 'competition');
    },
    forgetWords: (name) => t('comp_confirm_forget', {name}),
    forget: (competition) => {
      storage.forgetCompetition(competition.id);
      if (app.competition?.id === competition.id) app.competition = null;
    }});
}

/**
 * On a phone that knows no group yet, what a group is for, first on the screen, and a button that opens the
 * card below to start one (the card alone sat under the long evening form, where nobody found it).
 */
function groupLead(card) {
  if (Object.keys(storage.knownGroups()).length) return null;
  return h('section', {class: 'card group-lead', testid: 'group-lead'}, h('p', {}, t('group_lead')),
    h('button', {type: 'button', class: 'btn wide', testid: 'lead-group', onClick: () => {
      card.open = true; // its toggle draws the form, then the card comes up with its name field
      setTimeout(() => {
        card.scrollIntoView({block: 'start'});
        card.querySelector('[data-testid="group-name-input"]')?.focus({preventScroll: true});
      });
    }}, t('group_start')));
}

/**
 * "Start a group": a name and what its evenings are played under (its defaults, with the evening form's
 * fields and presets), so that its first evening can start (issue 29 item 1); the phone keeps the admin
 * token and shows the links to hand out. The fields are drawn while the card is open only: the evening
 * form above holds the same ones.
 */
function newGroup(app, rulesets) {
  const state = {name: '', terms: newTerms(rulesets)};
  const form = h('form', {class: 'new-group', novalidate: true, testid: 'new-group'});
  const button = h('button', {type: 'submit', class: 'btn primary wide', testid: 'group-create'}, t('group_create'));
  form.onsubmit = (event) => {
    event.preventDefault();
    busy(button, async () => {
      clearErrors(form);
      const problems = termsProblems(rulesets, state.terms);
      if (!state.name.trim()) problems.unshift({field: 'name', message: t('group_need_name')});
      if (problems.length) return showErrors(form, problems);
      try {
        const created = await api.createGroup({name: state.name.trim(), defaults: termsBody(rulesets, state.terms)});
        app.openGroup({id: created.id, token: created.admin_token, member_token: created.member_token,
                       read_token: created.read_token, name: created.name, access: 'admin'});
        app.go('group-share');
      } catch (error) {
        showGroupError(form, error);
      }
    });
  };
  const paint = () => replace(form,
    field(t('group_name'), h('input', {type: 'text', maxlength: 80, testid: 'group-name-input', value: state.name,
      autocomplete: 'off', onInput: (event) => { state.name = event.target.value; }}), 'name'),
    h('p', {class: 'hint'}, t('group_defaults_hint')),
    ...termsFields(rulesets, state.terms, paint, 'group-'),
    errorSlot(''), button);
  return h('details', {class: 'card new-group-card', testid: 'new-group-card',
    onToggle: (event) => { if (event.currentTarget.open) paint(); else form.replaceChildren(); }},
  h('summary', {}, t('group_start')), form);
}

function fields(rulesets, repaint) {
  return [
    field(t('evening_name'), input('text', draft.name, (v) => { draft.name = v; }, 'session-name'), 'name'),
    ...termsFields(rulesets, draft, repaint),
    playerFields(),
  ];
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

async function create(form, app, rulesets) {
  clearErrors(form);
  const body = {name: draft.name.trim(), players: draft.players.map((p) => p.trim()),
                ...termsBody(rulesets, draft, true)};
  const problems = [...formProblems(body), ...termsProblems(rulesets, draft)];
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

/** Every problem of the name and the players at once, in the page's language (the server checks again). */
function formProblems(body) {
  const problems = [];
  if (!body.name) problems.push({field: 'name', message: t('need_name')});
  const seen = new Set();
  body.players.forEach((player, seat) => {
    if (!player) problems.push({field: `players.${seat}`, message: t('need_player', {n: seat + 1})});
    else if (seen.has(player)) problems.push({field: `players.${seat}`, message: t('player_twice', {name: player})});
    seen.add(player);
  });
  return problems;
}
