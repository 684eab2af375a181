// A group's home (牌友會): its evenings, open ones first, and its roster. A
// group lives on the server: its screens read it each time and say so plainly
// when the phone is offline (parts/group.js).

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import * as storage from '../../storage.js';
import {day} from '../../format/dates.js';
import {signClass, signed} from '../../format/numbers.js';
import {busy, clearErrors, errorSlot, showErrors} from '../../parts/form.js';
import {showGroupError} from '../../parts/group_shared.js';
import {navButton} from '../../parts/nav.js';
import {newTerms, termsBody, termsFields, termsProblems} from '../../parts/terms.js';

export async function render(root, app) {
  const data = await app.loadGroup();
  const writable = data.access !== 'read';
  replace(root,
    h('h1', {testid: 'group-name'}, data.name),
    writable ? null : h('p', {class: 'note', testid: 'group-read-only'}, t('group_read_only_note')),
    writable ? h('button', {type: 'button', class: 'btn primary big', testid: 'group-new-evening',
      onClick: () => app.go('group-evening')}, t('group_new_evening')) : null,
    h('nav', {class: 'more group-nav'},
      navButton(app, 'standings', t('group_standings')),
      navButton(app, 'balances', t('group_balances')),
      navButton(app, 'group-share', t('group_share'), 'wide')),
    evenings(app, data),
    roster(app, data),
    data.access === 'admin' ? defaultsCard(app, data) : null,
    h('button', {type: 'button', class: 'btn wide ghost', testid: 'nav-start', onClick: () => app.go('start')},
      t('group_other')));
}

/** Ended evenings shown at first under the open ones (a group of years has hundreds). */
const RECENT_ENDED = 10;

/**
 * The group's evenings as the server lists them (open first, then newest):
 * every open one and the latest ended ones, the rest a tap away; a tap on an
 * evening opens it at its table.
 */
function evenings(app, data, all = false) {
  const open = data.evenings.filter((evening) => !evening.closed);
  const shown = all ? data.evenings : [...open, ...data.evenings.filter((evening) => evening.closed).slice(0, RECENT_ENDED)];
  const section = h('section', {class: 'card', testid: 'group-evenings'}, h('h2', {}, t('group_evenings')),
    shown.length ? h('ul', {class: 'evening-list'}, shown.map((evening) => h('li', {},
      h('button', {type: 'button', class: `evening-item${evening.closed ? ' ended' : ''}`, testid: 'group-evening',
        dataset: {session: evening.id}, onClick: () => openEvening(app, evening)},
      h('span', {class: 'evening-head'}, h('span', {class: 'evening-name'}, evening.name),
        h('span', {class: `badge ${evening.closed ? '' : 'open'}`}, t(evening.closed ? 'group_ended' : 'group_open'))),
      h('span', {class: 'hint'}, t('group_evening_line', {day: day(evening.created_at), hands: evening.hand_count})),
      h('span', {class: 'evening-totals'}, Object.entries(evening.totals).map(([name, total]) =>
        h('span', {class: `chip ${signClass(total)}`}, `${name} ${signed(total)}`)))))))
      : h('p', {class: 'hint'}, t('group_no_evenings')),
    shown.length < data.evenings.length ? h('button', {type: 'button', class: 'btn wide', testid: 'all-evenings',
      onClick: () => section.replaceWith(evenings(app, data, true))}, t('group_all_evenings', {count: data.evenings.length}))
      : null);
  return section;
}

/**
 * Open an evening of the group: with its own token when this phone has one,
 * else with the group's token (which opens every evening of the group at its level).
 */
function openEvening(app, evening) {
  const own = storage.knownSessions()[evening.id];
  const useOwn = own && own.token !== app.group.token;
  app.open({id: evening.id, token: useOwn ? own.token : app.group.token, read_token: useOwn ? own.read_token : undefined,
            stream_token: useOwn ? undefined : app.group.read_token,  // the stream's token (api.js streamToken)
            name: evening.name, ruleset: evening.ruleset, group: app.group.id});
  app.data = null;
  app.go('table');
}

/**
 * The roster in the order members joined (the server's), each name opening the member's page; a member or
 * admin link adds a member here (issue 29 item 8).
 */
function roster(app, data) {
  const section = h('section', {class: 'card', testid: 'group-members'}, h('h2', {}, t('group_members')),
    data.members.length ? h('div', {class: 'roster'}, data.members.map((member) => h('button', {
      type: 'button', class: 'btn small', testid: 'member-link', dataset: {member: member.id},
      onClick: () => app.go(`member/${encodeURIComponent(member.id)}`)}, member.name)))
      : h('p', {class: 'hint'}, t('group_no_members_yet')));
  if (data.access !== 'read') section.append(addMember(app));
  return section;
}

function addMember(app) {
  const box = h('form', {class: 'guest add-member', testid: 'add-member', novalidate: true});
  const input = h('input', {type: 'text', testid: 'member-name-input', maxlength: 40, autocomplete: 'off',
    placeholder: t('group_member_name'), 'aria-label': t('group_member_name')});
  const button = h('button', {type: 'submit', class: 'btn', testid: 'add-member-submit'}, t('group_add'));
  box.onsubmit = (event) => {
    event.preventDefault();
    busy(button, async () => {
      clearErrors(box);
      const name = input.value.trim();
      if (!name) return showErrors(box, [{field: 'name', message: t('group_need_member_name')}]);
      try {
        await api.addMember(app.group, {name});
        app.go('group');
      } catch (error) {
        showGroupError(box, error);
      }
    });
  };
  box.append(h('span', {class: 'field-label'}, t('group_add_member')), h('div', {class: 'row'}, input, button),
    errorSlot('name'), errorSlot(''));
  return box;
}

/**
 * The admin's change of the group's defaults (PATCH /api/groups/<id>): what a new evening's form starts
 * from. Drawn while open only (issue 29 item 1).
 */
function defaultsCard(app, data) {
  const form = h('form', {class: 'group-defaults', novalidate: true, testid: 'group-defaults-form'});
  const open = async () => {
    const rulesets = await app.loadRulesets();
    const terms = newTerms(rulesets, data.defaults);
    const button = h('button', {type: 'submit', class: 'btn primary wide', testid: 'group-defaults-save'},
      t('group_defaults_save'));
    form.onsubmit = (event) => {
      event.preventDefault();
      busy(button, async () => {
        clearErrors(form);
        const problems = termsProblems(rulesets, terms);
        if (problems.length) return showErrors(form, problems);
        try {
          data.defaults = (await api.editGroup(app.group, {defaults: termsBody(rulesets, terms)})).defaults;
          app.toast(t('group_defaults_saved'), 'ok');
        } catch (error) {
          showGroupError(form, error);
        }
      });
    };
    const paint = () => replace(form, h('p', {class: 'hint'}, t('group_defaults_hint')),
      ...termsFields(rulesets, terms, paint), errorSlot(''), button);
    paint();
  };
  return h('details', {class: 'card', testid: 'group-defaults',
    onToggle: (event) => { if (event.currentTarget.open) open(); else form.replaceChildren(); }},
  h('summary', {}, t('group_defaults')), form);
}
