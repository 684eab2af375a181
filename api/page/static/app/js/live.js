// Live updates (API.md "Revisions, conflicts and live updates"): the page follows
// GET /api/sessions/<id>/events, so a hand recorded on another phone shows here
// without a tap. EventSource reconnects by itself after a drop and resumes with
// Last-Event-ID; only an answer that is not a stream (401 for a replaced link,
// 404) ends it, and then the page is told so it can show why.

import {api, streamToken} from './api.js';
import {languageTag} from './i18n.js';

const KINDS = ['hand', 'void', 'correct', 'seat', 'close', 'reopen', 'house_rules', 'round'];
let source = null;
let following = null;

/**
 * Follow `session` from `revision` on: `onChange(change)` with each change's
 * data ({revision, kind, entry, state, totals}); `onEnd()` if the server ends
 * the stream for good. Following the same session with the same token in the
 * same language again does nothing; in another language the stream starts
 * again in it (its pattern names are in the page's script).
 */
export function follow(session, revision, onChange, onEnd) {
  const key = `${session.id} ${streamToken(session)} ${languageTag()}`;
  if (following === key) return;
  stop();
  following = key;
  source = api.events(session, revision);
  const mine = source;
  for (const kind of KINDS) {
    source.addEventListener(kind, (event) => onChange(JSON.parse(event.data)));
  }
  source.addEventListener('error', () => {
    if (mine.readyState !== EventSource.CLOSED || mine !== source) return;
    stop();
    onEnd();
  });
}

export function stop() {
  source?.close();
  source = null;
  following = null;
}

/** The session document `data` after `change`: its revision, state and totals, the next hand, the seat changes. */
export function applied(data, change) {
  const {kind, entry} = change;
  const next = kind === 'hand' && entry?.number ? Math.max(data.next_hand ?? 1, entry.number + 1) : data.next_hand;
  const rulesChange = kind === 'house_rules' && entry;  // from a hand on (a correction of the evening has none)
  return {...data, revision: change.revision, state: change.state, totals: change.totals, next_hand: next,
          seat_changes: kind === 'seat' && entry ? [...(data.seat_changes || []), entry] : data.seat_changes,
          house_rules: rulesChange ? entry.house_rules : data.house_rules,
          house_rules_changes: rulesChange ? [...(data.house_rules_changes || []), entry] : data.house_rules_changes,
          // A competition's table records one hand after its round ended (within the grace): that one is in.
          competition: kind === 'hand' && data.competition?.ended_at ? {...data.competition, grace_open: false}
            : data.competition};
}

/** The saved History ({hands, corrected}) after `change`: the changed hand in its place, or added. */
export function appliedToHands(saved, change) {
  const {kind, entry} = change;
  if (!entry || entry.number === undefined || !['hand', 'void', 'correct'].includes(kind)) return saved;
  const hands = (saved.hands || []).filter((hand) => hand.number !== entry.number);
  hands.push(entry);
  hands.sort((a, b) => a.number - b.number);
  const corrected = {...(saved.corrected || {})};
  if (kind === 'correct') corrected[entry.number] = new Date().toISOString();
  return {hands, corrected};
}
