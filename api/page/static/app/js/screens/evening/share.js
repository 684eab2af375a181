// Share (分享): the links that open this session on another phone, as text and
// as QR codes: the link to keep score (write) and the read-only link (to watch).
// A token travels only in a link's fragment (#s=…&t=…), which browsers never
// send to a server; the QR image is drawn from the link posted in a request
// body. The write link also carries the read-only token (&r=…), so that every
// phone that keeps score can hand out the read-only link too. "New links"
// retires both tokens (a link that leaked). Links start with the address
// other phones can open (reach.js); with none known, the view says so. A
// competition's table offers its read-only link only: its scoring link is
// on the organiser's table card, and new links are the organiser's.

import {api} from '../../api.js';
import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import * as storage from '../../storage.js';
import {readOnly} from '../../parts/access.js';
import {confirmDialog} from '../../parts/dialog.js';
import {busy, describeError} from '../../parts/form.js';
import {linkBlock} from '../../parts/links.js';
import {unreachable} from '../../parts/unreachable.js';
import {shareOrigin} from '../../reach.js';

/** The link at `origin` that opens `session` with its token (and tells a write phone the read-only token). */
function shareLink(origin, session) {
  const link = `${origin}/#s=${encodeURIComponent(session.id)}&t=${encodeURIComponent(session.token)}`;
  return session.read_token ? `${link}&r=${encodeURIComponent(session.read_token)}` : link;
}

/** The read-only link: the read token alone. */
function readLink(origin, session) {
  return shareLink(origin, {id: session.id, token: session.read_token});
}

export async function render(root, app) {
  if (openedWithGroupToken(app)) return shareTheGroup(root, app);
  if (!app.data) await app.loadSession();
  if (app.data.competition) return shareTheTable(root, app);
  const watching = readOnly(app);
  const origin = await shareOrigin();
  if (!origin) return shareNothing(root, app, watching);
  const write = watching ? null : linkBlock(app, shareLink(origin, app.session), 'share', t('share_write'),
    t('share_warning'));
  const read = watching ? linkBlock(app, shareLink(origin, app.session), 'share', t('share_read'),
    t('share_read_warning'))
    : app.session.read_token ? linkBlock(app, readLink(origin, app.session), 'share-read', t('share_read'),
      t('share_read_warning'), t('qr_read_alt'))
      : h('p', {class: 'hint', testid: 'share-read-unknown'}, t('share_read_unknown'));
  replace(root, h('h1', {}, t('share')), h('p', {class: 'hint'}, t('share_hint')),
    write?.block, read.block || read, ...endOfShare(app, watching));
  await Promise.all([write, read].filter((block) => block?.qr).map((block) => block.qr()));
}

/** No address another phone can open is known: say so, and no link that would open nothing there. */
function shareNothing(root, app, watching) {
  replace(root, h('h1', {}, t('share')), unreachable(), ...endOfShare(app, watching));
}

function endOfShare(app, watching) {
  return [h('button', {type: 'button', class: 'btn primary big wide', testid: 'go-table', onClick: () => app.go('table')},
    t('to_table')),
  watching ? null : h('div', {class: 'row new-links'}, h('button', {type: 'button', class: 'btn small danger',
    testid: 'new-links', onClick: (event) => busy(event.currentTarget, () => newLinks(app))}, t('new_links')))];
}

/**
 * A competition's table: its scoring link is the organiser's to hand out (the table's card), so only the read-only
 * link, for whoever wants to watch, and no new links (the organiser's).
 */
async function shareTheTable(root, app) {
  const origin = await shareOrigin();
  const watching = app.data.access === 'read';
  const read = !origin ? unreachable()
    : watching || app.session.read_token
      ? linkBlock(app, watching ? shareLink(origin, app.session) : readLink(origin, app.session), 'share-read',
        t('share_read'), t('share_read_warning'), t('qr_read_alt'))
      : h('p', {class: 'hint', testid: 'share-read-unknown'}, t('share_table_read_unknown'));
  replace(root, h('h1', {}, t('share')), h('p', {class: 'hint', testid: 'share-table-hint'}, t('share_table_hint')),
    read.block || read, ...endOfShare(app, true));
  if (read.qr) await read.qr();
}

/**
 * An evening opened with its group's token: a link made of that token would
 * open every evening of the group, so the page offers the group's own links.
 */
function openedWithGroupToken(app) {
  const group = storage.knownGroups()[app.session.group];
  return Boolean(group && group.token === app.session.token);
}

function shareTheGroup(root, app) {
  replace(root, h('h1', {}, t('share')), h('p', {class: 'note', testid: 'share-group-instead'}, t('share_group_instead')),
    h('button', {type: 'button', class: 'btn primary big wide', testid: 'go-group-share', onClick: () => {
      app.openGroup(storage.knownGroups()[app.session.group]);
      app.go('group-share');
    }}, t('group_share')),
    h('button', {type: 'button', class: 'btn wide ghost', testid: 'go-table', onClick: () => app.go('table')},
      t('to_table')));
}

/** New write and read-only tokens; the old links answer 401 from now on, on every phone. */
async function newLinks(app) {
  if (!(await confirmDialog(t('confirm_new_links'), t('new_links')))) return;
  try {
    const tokens = await api.newTokens(app.session);
    app.open({...app.session, token: tokens.token, read_token: tokens.read_token});
  } catch (error) {
    app.toast(describeError(error), 'error');
    return;
  }
  app.toast(t('new_links_done'), 'ok');
  app.go('share');
}
