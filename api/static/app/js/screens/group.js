// A group (牌友會): its home (the evenings, open ones first, and the roster),
// what the start screen shows of the groups this phone knows, and the words
// for a group request that failed. A group lives on the server: its views
// read it each time and say so plainly when the phone is offline.

import {ApiError, OfflineError, api} from '../api.js';
import {h, replace} from '../dom.js';
import {languageTag, serverSpeaks, t} from '../i18n.js';
import * as storage from '../storage.js';
import {day} from '../format/dates.js';
import {signClass, signed} from '../format/numbers.js';
import {busy, canonicalField, clearErrors, confirmDialog, describeError, errorSlot, field, fieldWords, plainServerText,
  showError} from '../parts/form.js';
import {save, sharePicture} from '../parts/picture.js';

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
    h('button', {type: 'button', class: 'btn wide ghost', testid: 'nav-start', onClick: () => app.go('start')},
      t('group_other')));
}

export function navButton(app, route, label, extra = '') {
  return h('button', {type: 'button', class: `btn ${extra}`, testid: `nav-${route}`, onClick: () => app.go(route)},
    label);
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
            name: evening.name, ruleset: evening.ruleset, group: app.group.id});
  app.data = null;
  app.go('table');
}

function roster(app, data) {
  return h('section', {class: 'card', testid: 'group-members'}, h('h2', {}, t('group_members')),
    data.members.length ? h('div', {class: 'roster'}, data.members.map((member) => h('button', {
      type: 'button', class: 'btn small', testid: 'member-link', dataset: {member: member.id},
      onClick: () => app.go(`member/${encodeURIComponent(member.id)}`)}, member.name)))
      : h('p', {class: 'hint'}, t('group_no_members')));
}

/** The group's link: `#g=<id>&t=<token>`, with the read-only token for a member link (like an evening's). */
export function groupLink(id, token, readToken) {
  const link = `${location.origin}/#g=${encodeURIComponent(id)}&t=${encodeURIComponent(token)}`;
  return readToken && readToken !== token ? `${link}&r=${encodeURIComponent(readToken)}` : link;
}

/**
 * A button that downloads a report of the group: the file needs the bearer
 * token, so it is fetched, then saved from a blob URL (as an evening's sheet).
 */
export function groupDownload(app, name, label, testid, kind = '') {
  const slot = h('p', {class: 'field-error', role: 'alert', hidden: true});
  const button = h('button', {type: 'button', class: `btn wide ${kind}`, testid, onClick: () => busy(button, async () => {
    slot.hidden = true;
    try {
      const {blob, filename} = await api.groupFile(app.group, name());
      save(blob, filename || name().split('?')[0]);
    } catch (error) {
      slot.textContent = groupError(error);
      slot.hidden = false;
    }
  })}, label);
  return h('div', {class: 'download'}, button, slot);
}

/**
 * "Share as a picture" of the group's standings or balances, exactly as Settle
 * shares an evening's card: `name()` is the picture with its query
 * (standings.png?from=&to=), asked in the page's language.
 */
export function groupPicture(app, name, testid) {
  const slot = h('p', {class: 'field-error', role: 'alert', hidden: true});
  const button = h('button', {type: 'button', class: 'btn big primary', testid, onClick: () => busy(button, async () => {
    slot.hidden = true;
    try {
      const asked = name();
      const picture = await api.groupFile(app.group, `${asked}${asked.includes('?') ? '&' : '?'}lang=${languageTag()}`);
      await sharePicture(app, picture, app.groupData?.name || app.group.name);
    } catch (error) {
      slot.textContent = groupError(error);
      slot.hidden = false;
    }
  })}, t('share_card'));
  return h('div', {class: 'download'}, button, slot);
}

/** The fields a group request names, in words. */
const GROUP_FIELDS = {from: 'group_field_from', to: 'group_field_to', amount: 'group_field_amount',
  note: 'group_field_note', name: 'group_field_name', session: 'group_field_session', payments: 'group_field_payments'};

/**
 * A failed group request in the page's language: offline (a group needs the
 * server), unknown group, replaced link, a link that may not do this, or a
 * refused field named in words (the server's own message for a reader of English).
 */
export function groupError(error) {
  if (error instanceof OfflineError) return t('group_offline');
  if (!(error instanceof ApiError)) return describeError(error);
  if (error.status === 404) return t('group_not_found');
  if (error.status === 401) return t('group_link_replaced');
  if (error.status === 403) return t('group_forbidden');
  const path = canonicalField(error.field);
  const key = GROUP_FIELDS[path.split('.')[0]];
  if (error.status !== 422 && error.status !== 400) return describeError(error);
  const words = path.startsWith('players') ? fieldWords(path) : key ? t(key) : '';
  if (!serverSpeaks()) return t('check_field', {field: words || t('group_field_request')});
  const text = plainServerText(error.message);
  return words ? `${words[0].toUpperCase()}${words.slice(1)}: ${text}` : text;
}

/** Show a failed group request next to the field it names. */
export function showGroupError(form, error) {
  showError(form, {field: error.field, message: groupError(error)});
}

/** The start screen's list of the groups this phone knows, like its evenings. */
export function knownGroups(app) {
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
export function newGroup(app) {
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
