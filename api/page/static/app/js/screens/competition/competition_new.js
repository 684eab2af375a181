// Create a competition (比賽): its name; what every table plays (rule set, options, stakes, house rules, the
// evening form's fields); the rounds and how a round ends (the table's first 將 or the clock, or the clock
// alone, its minutes, the grace for the hand in play); the ranking (placement points, or net money); the
// seating (Swiss, random, or round 1 by a group's ratings); empty seats (sit out, or substitutes); check-in; optionally a group of this phone
// whose members are the entrants. The organiser's and the read-only tokens come back once and are kept here.

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import * as storage from '../../storage.js';
import {localDate} from '../../format/dates.js';
import {competitionError} from '../../parts/competition_shared.js';
import {choices, clearErrors, errorSlot, field, showError, showErrors, submitRow} from '../../parts/form.js';
import {newTerms, termsBody, termsFields, termsProblems} from '../../parts/terms.js';

let draft = null;

function newDraft(rulesets) {
  return {name: t('comp_default_name', {date: localDate(new Date())}), rounds: '3', until: 'jiang', minutes: '90',
          grace: '5', ranking: 'points', points: ['4', '2', '1', '0'], seating: 'swiss', empty: 'sit_out',
          checkIn: false, group: '', ...newTerms(rulesets)};
}

export async function render(root, app) {
  const rulesets = await app.loadRulesets();
  draft = draft || newDraft(rulesets);
  const form = h('form', {class: 'card', testid: 'comp-form', novalidate: true});
  const paint = () => replace(form, ...fields(rulesets, paint),
    submitRow(form, 'comp-create', t('comp_create'), () => create(form, app, rulesets)));
  paint();
  replace(root, h('h1', {}, t('comp_new')), form,
    h('button', {type: 'button', class: 'btn wide ghost', testid: 'comp-back', onClick: () => app.go('start')},
      t('comp_back_start')));
}

function number(value, onInput, testid, extra = {}) {
  return h('input', {type: 'number', inputmode: 'numeric', value, testid, ...extra,
    onInput: (event) => onInput(event.target.value)});
}

function fields(rulesets, paint) {
  const pick = (key) => (value) => { draft[key] = value; paint(); };
  const groups = Object.values(storage.knownGroups()).filter((group) => ['admin', 'member'].includes(group.access));
  return [
    field(t('comp_name'), h('input', {type: 'text', value: draft.name, maxlength: 200, testid: 'comp-name',
      autocomplete: 'off', onInput: (event) => { draft.name = event.target.value; }}), 'name'),
    ...termsFields(rulesets, draft, paint, 'comp-'),
    field(t('comp_rounds'), number(draft.rounds, (v) => { draft.rounds = v; }, 'comp-rounds', {min: 1, max: 30}),
      'rounds'),
    h('fieldset', {}, h('legend', {}, t('comp_round_ends')),
      choices([{value: 'jiang', label: t('comp_until_jiang')}, {value: 'time', label: t('comp_until_time')}],
        {selected: [draft.until], testid: 'comp-until', onPick: pick('until')}), errorSlot('round.until')),
    h('div', {class: 'row'},
      field(t('comp_minutes'), number(draft.minutes, (v) => { draft.minutes = v; }, 'comp-minutes', {min: 1}),
        'round.minutes', draft.until === 'jiang' ? t('comp_minutes_hint') : null),
      field(t('comp_grace'), number(draft.grace, (v) => { draft.grace = v; }, 'comp-grace', {min: 0}),
        'round.grace')),
    h('fieldset', {}, h('legend', {}, t('comp_ranking')),
      choices([{value: 'points', label: t('comp_ranking_points')}, {value: 'net', label: t('comp_ranking_net')}],
        {selected: [draft.ranking], testid: 'comp-ranking', onPick: pick('ranking')}),
      draft.ranking === 'points' ? h('div', {class: 'row points-row'}, draft.points.map((value, place) =>
        h('label', {class: 'field'}, h('span', {class: 'field-label'}, t('comp_place_n', {n: place + 1})),
          number(value, (v) => { draft.points[place] = v; }, `comp-point-${place}`, {min: 0})))) : null,
      errorSlot('ranking')),
    h('fieldset', {}, h('legend', {}, t('comp_seating')),
      choices([{value: 'swiss', label: t('comp_seating_swiss')}, {value: 'random', label: t('comp_seating_random')},
        ...(groups.length ? [{value: 'rating', label: t('comp_seating_rating')}] : [])], // a group's ratings
      {selected: [draft.seating], testid: 'comp-seating', onPick: pick('seating')}), errorSlot('seating')),
    h('fieldset', {}, h('legend', {}, t('comp_empty_seats')),
      choices([{value: 'sit_out', label: t('comp_sit_out')}, {value: 'substitutes', label: t('comp_substitutes')}],
        {selected: [draft.empty], testid: 'comp-empty', onPick: pick('empty')})),
    h('label', {class: 'toggle'}, h('input', {type: 'checkbox', checked: draft.checkIn, testid: 'comp-check-in',
      onChange: (event) => { draft.checkIn = event.target.checked; }}), h('span', {}, t('comp_check_in_required'))),
    groups.length ? field(t('comp_group'), h('select', {testid: 'comp-group',
      onChange: (event) => { draft.group = event.target.value; }},
    h('option', {value: ''}, t('comp_no_group')),
    groups.map((group) => h('option', {value: group.id, selected: draft.group === group.id}, group.name || group.id))),
    'group', t('comp_group_hint')) : null,
  ];
}

const whole = (text) => (/^\d+$/.test(String(text).trim()) ? Number(text) : NaN);

async function create(form, app, rulesets) {
  clearErrors(form);
  const problems = termsProblems(rulesets, draft);
  const rounds = whole(draft.rounds);
  const minutes = String(draft.minutes).trim() === '' ? null : whole(draft.minutes);
  const grace = whole(draft.grace);
  const points = draft.points.map(whole);
  if (!draft.name.trim()) problems.push({field: 'name', message: t('comp_need_name')});
  if (!(rounds >= 1 && rounds <= 30)) problems.push({field: 'rounds', message: t('comp_need_rounds')});
  if (Number.isNaN(minutes) || (minutes === null && draft.until === 'time') || minutes === 0) {
    problems.push({field: 'round.minutes', message: t('comp_need_minutes')});
  }
  if (Number.isNaN(grace)) problems.push({field: 'round.grace', message: t('comp_need_grace')});
  if (draft.ranking === 'points' && (points.some(Number.isNaN) || points.some((p, i) => i && p > points[i - 1]))) {
    problems.push({field: 'ranking', message: t('comp_need_points')});
  }
  if (problems.length) return showErrors(form, problems);
  const body = {name: draft.name.trim(), ...termsBody(rulesets, draft, true), rounds,
                round: {until: draft.until, minutes, grace},
                ranking: draft.ranking === 'net' ? 'net' : {placement_points: points},
                seating: draft.seating, empty_seats: draft.empty, check_in: draft.checkIn};
  const group = draft.group ? storage.knownGroups()[draft.group] : null;
  if (group) body.group = group.id;
  try {
    const created = await api.createCompetition(body, group?.token);
    app.competition = storage.rememberCompetition({id: created.id, token: created.organizer_token,
      read_token: created.read_token, name: created.name, access: 'organizer'});
    draft = null;
    app.go('competition');
  } catch (error) {
    showError(form, {field: error.field, message: competitionError(error)});
  }
}
