// "New evening" of a group: four members picked from the roster in seat order
// (a guest is added to the roster on the spot). The rule set, stakes, options
// and house rules start as the group's defaults, and the table may change them
// for this evening (issue 29 item 1): the request carries them all.

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t, windName} from '../../i18n.js';
import {WINDS} from '../../tiles.js';
import {localDate} from '../../format/dates.js';
import {busy, choices, clearErrors, errorSlot, field, showError, showErrors, submitRow} from '../../parts/form.js';
import {groupError, showGroupError} from '../../parts/group_shared.js';
import {newTerms, termsBody, termsFields, termsProblems} from '../../parts/terms.js';

let draft = null;

function newDraft(group, rulesets, defaults) {
  return {group, name: localDate(new Date()), seats: [null, null, null, null], guest: '',
          terms: newTerms(rulesets, defaults), termsView: {open: !defaults?.ruleset}};
}

export async function render(root, app) {
  const [data, rulesets] = await Promise.all([app.loadGroup(), app.loadRulesets()]);
  if (draft?.group !== app.group.id) draft = newDraft(app.group.id, rulesets, data.defaults);
  const form = h('form', {class: 'card', testid: 'group-evening-form', novalidate: true});
  const paint = () => replace(form,
    field(t('evening_name'), h('input', {type: 'text', value: draft.name, testid: 'session-name', maxlength: 80,
      onInput: (event) => { draft.name = event.target.value; }}), 'name'),
    seats(data.members, paint),
    rosterPicker(data.members, paint),
    guestRow(app, data.members, paint),
    termsCard(rulesets, paint),
    submitRow(form, 'group-evening-submit', t('start'), () => create(form, app, rulesets)));
  paint();
  replace(root, h('h1', {}, t('group_new_evening')), form,
    h('button', {type: 'button', class: 'btn wide ghost', testid: 'to-group', onClick: () => app.go('group')},
      t('group_to_home')));
}

/** The evening's rules: the group's defaults, open to change for this evening (open when there are none). */
function termsCard(rulesets, paint) {
  return h('details', {class: 'card terms', testid: 'evening-terms', open: draft.termsView.open,
    onToggle: (event) => { draft.termsView.open = event.currentTarget.open; }},
  h('summary', {testid: 'evening-terms-summary'}, t('group_evening_terms')),
  h('p', {class: 'hint'}, t('group_evening_terms_hint')),
  ...termsFields(rulesets, draft.terms, paint));
}

const nameOf = (members, id) => members.find((member) => member.id === id)?.name ?? '';

/** The four seats in turn order; a tap on a filled seat empties it. */
function seats(members, paint) {
  return h('fieldset', {class: 'players'}, h('legend', {}, t('players_in_order')),
    WINDS.map((wind, seat) => h('div', {class: 'field seat-field'},
      h('span', {class: 'wind-badge'}, windName(wind)),
      h('button', {type: 'button', class: `btn seat-pick${draft.seats[seat] ? '' : ' empty'}`, testid: `seat-pick-${seat}`,
        disabled: !draft.seats[seat], onClick: () => { draft.seats[seat] = null; paint(); }},
      draft.seats[seat] ? nameOf(members, draft.seats[seat]) : t('group_tap_member')),
      errorSlot(`players.${seat}`))),
    h('p', {class: 'hint'}, t('group_first_deals')), errorSlot('players'));
}

/** The roster: a tap seats a member in the first empty seat, a second tap stands them up again. */
function rosterPicker(members, paint) {
  const full = draft.seats.every(Boolean);
  return h('fieldset', {}, h('legend', {}, t('group_roster')),
    members.length ? choices(members.map((member) => ({value: member.id, label: member.name,
      disabled: full && !draft.seats.includes(member.id)})), {
      selected: draft.seats.filter(Boolean), testid: 'roster', onPick: (id) => { seatOrStand(id); paint(); }})
      : h('p', {class: 'hint'}, t('group_no_members')));
}

function seatOrStand(id) {
  const seat = draft.seats.indexOf(id);
  if (seat >= 0) draft.seats[seat] = null;
  else if (draft.seats.includes(null)) draft.seats[draft.seats.indexOf(null)] = id;
}

/** "Add a guest": a new member of the roster, seated at once. */
function guestRow(app, members, paint) {
  const box = h('div', {class: 'guest', testid: 'guest'});
  const button = h('button', {type: 'button', class: 'btn', testid: 'add-guest',
    onClick: () => busy(button, () => addGuest(app, box, members, paint))}, t('group_add'));
  box.append(h('span', {class: 'field-label'}, t('group_add_guest')), h('div', {class: 'row'}, h('input', {type: 'text', value: draft.guest, testid: 'guest-name', maxlength: 40,
    autocomplete: 'off', placeholder: t('group_guest_name'), 'aria-label': t('group_guest_name'),
    onInput: (event) => { draft.guest = event.target.value; },
    onKeydown: (event) => { if (event.key === 'Enter') { event.preventDefault(); button.click(); } }}), button), errorSlot('guest'));
  return box;
}

async function addGuest(app, box, members, paint) {
  clearErrors(box);
  const name = draft.guest.trim();
  if (!name) return showError(box, {field: 'guest', message: t('group_need_guest_name')});
  try {
    const member = await api.addMember(app.group, {name});
    members.push(member);
    draft.guest = '';
    seatOrStand(member.id);
    paint();
  } catch (error) {
    showError(box, {field: 'guest', message: groupError(error)});
  }
}

async function create(form, app, rulesets) {
  clearErrors(form);
  const name = draft.name.trim();
  const problems = draft.seats.flatMap((id, seat) => (id ? [] : [{field: `players.${seat}`,
    message: t('group_need_pick', {n: seat + 1})}]));
  if (!name) problems.unshift({field: 'name', message: t('need_name')});
  const terms = termsProblems(rulesets, draft.terms);
  if (terms.length) {
    draft.termsView.open = true;
    form.querySelector('[data-testid=evening-terms]').open = true;
  }
  problems.push(...terms);
  if (problems.length) return showErrors(form, problems);
  try {
    const created = await api.createGroupEvening(app.group,
      // house_rules always: none chosen here means none tonight, not the group's.
      {name, players: [...draft.seats], house_rules: {}, ...termsBody(rulesets, draft.terms)});
    app.open({id: created.id, token: created.token, read_token: created.read_token, name: created.name || name,
              ruleset: created.ruleset, group: app.group.id});
    app.data = null;
    draft = null;
    app.go('table');
  } catch (error) {
    showGroupError(form, error);
  }
}
