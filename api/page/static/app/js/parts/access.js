// What this phone may do with the evening: a read-only link (the session's
// `access` is "read") changes nothing, so the page offers no control that would;
// a competition's table's own link scores its hands and nothing more;
// a closed evening (結束) says so, and since when.

import {h} from '../dom.js';
import {t} from '../i18n.js';
import {clock} from '../format/dates.js';

/** Whether the page was opened with the read-only link. */
export function readOnly(app) {
  return app.data?.access === 'read';
}

/**
 * Whether the page opened a competition's table with the table's own link: it scores the table's hands, and the
 * organiser's controls (seats, house rules, new links, closing and reopening) are not offered (the server refuses
 * them, 403). The organiser's own token opens the table with `access` "organizer", and all of them.
 */
export function tableOnly(app) {
  return Boolean(app.data?.competition) && app.data?.access === 'write';
}

export function readOnlyNote(app) {
  return readOnly(app) ? h('p', {class: 'note', testid: 'read-only-note'}, t('read_only_note')) : null;
}

/**
 * Whether the evening has been ended (POST …/close), so that nothing may be recorded: a competition's table whose
 * round the organiser ended may still enter the hand in play until its grace is over (`competition.grace_open`),
 * and its own link nothing after that.
 */
export function closed(app) {
  const round = app.data?.competition;
  if (round?.grace_open && Date.now() < Date.parse(round.grace_until)) return false;
  // Past its round and grace a table's own link records nothing, also while the organiser has the table
  // reopened for a correction (the server refuses it, 409; the round's note says so).
  if (tableOnly(app) && round?.ended_at) return true;
  return Boolean(app.data?.state?.closed);
}

export function closedNote(app) {
  if (!closed(app) || !app.data.state.closed) return null;
  return h('p', {class: 'note warn', testid: 'closed-note', id: 'closed-note'},
    t(tableOnly(app) ? 'closed_note_table' : 'closed_note', {time: clock(app.data.state.closed_at)}));
}
