// What a Share view shows instead of its links when no address another phone
// can open is known (reach.js): the page was opened on this computer's own
// loopback address and the server knows no other.

import {h} from '../dom.js';
import {t} from '../i18n.js';

export function unreachable() {
  return h('p', {class: 'note warn', testid: 'share-no-address'}, t('share_no_address', {origin: location.origin}));
}
