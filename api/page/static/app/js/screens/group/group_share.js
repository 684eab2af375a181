// A group's Share view (分享): the member link (to keep score in every evening
// of the group and to record payments) and the read-only link, each as text and
// QR code, drawn exactly like an evening's (parts/links.js). The admin token
// stays on the phone that started the group. Links start with the address
// other phones can open (reach.js); with none known, the view says so.

import {h, replace} from '../../dom.js';
import {t} from '../../i18n.js';
import {linkBlock} from '../../parts/links.js';
import {unreachable} from '../../parts/unreachable.js';
import {shareOrigin} from '../../reach.js';

export async function render(root, app) {
  const data = await app.loadGroup();
  const {id, token, member_token: memberToken, read_token: readToken} = app.group;
  const reading = data.access === 'read';
  const origin = await shareOrigin();
  const toGroup = h('button', {type: 'button', class: 'btn primary big wide', testid: 'to-group',
    onClick: () => app.go('group')}, t('group_to_home'));
  if (!origin) return replace(root, h('h1', {}, t('group_share')), unreachable(), toGroup);
  const member = !reading && memberToken ? linkBlock(app, groupLink(origin, id, memberToken, readToken), 'group-member',
    t('group_share_member'), t('group_share_member_warning'), t('group_qr_member_alt')) : null;
  const readOnlyToken = reading ? token : readToken;
  const read = readOnlyToken ? linkBlock(app, groupLink(origin, id, readOnlyToken), 'group-read', t('share_read'),
    t('group_share_read_warning'), t('qr_read_alt')) : null;
  replace(root, h('h1', {}, t('group_share')), h('p', {class: 'hint'}, t('group_share_hint')),
    member ? member.block : reading ? null
      : h('p', {class: 'hint', testid: 'group-member-unknown'}, t('group_member_link_unknown')),
    read ? read.block : h('p', {class: 'hint', testid: 'group-read-unknown'}, t('group_read_link_unknown')),
    toGroup);
  await Promise.all([member, read].filter(Boolean).map((block) => block.qr()));
}

/** The group's link at `origin`: `#g=<id>&t=<token>`, with the read-only token for a member link (like an evening's). */
function groupLink(origin, id, token, readToken) {
  const link = `${origin}/#g=${encodeURIComponent(id)}&t=${encodeURIComponent(token)}`;
  return readToken && readToken !== token ? `${link}&r=${encodeURIComponent(readToken)}` : link;
}
