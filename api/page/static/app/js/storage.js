// What the phone keeps (localStorage): the sessions it can open, the last copy of
// each session (to show the table while offline), the outbox and the language; the
// groups and the competitions it can open.

const PREFIX = 'taizhang.';
const SESSIONS = `${PREFIX}sessions`;
const CURRENT = `${PREFIX}current`;
const GROUPS = 'groups';
const CURRENT_GROUP = 'group';

export function read(key, fallback) {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

export function write(key, value) {
  localStorage.setItem(PREFIX + key, JSON.stringify(value));
}

export function remove(key) {
  localStorage.removeItem(PREFIX + key);
}

/** Every session this phone has opened: {id: {id, token, name, ruleset, opened}}. */
export function knownSessions() {
  try {
    return JSON.parse(localStorage.getItem(SESSIONS)) || {};
  } catch {
    return {};
  }
}

/**
 * Remember a session (its id, token and, when this phone knows it, the
 * read-only token for the Share view) and make it the current one.
 */
export function rememberSession({id, token, read_token: readToken, stream_token: streamToken, name = '', ruleset = '',
                                 group}) {
  const sessions = knownSessions();
  const before = sessions[id] || {};
  const sameToken = before.token === token;
  sessions[id] = {...before, id, token, read_token: readToken || (sameToken ? before.read_token : undefined),
                  stream_token: streamToken || (sameToken ? before.stream_token : undefined),
                  name: name || before.name || '', ruleset: ruleset || before.ruleset || '',
                  group: group || before.group, opened: new Date().toISOString(),
                  replaced: sameToken ? before.replaced : undefined};
  localStorage.setItem(SESSIONS, JSON.stringify(sessions));
  localStorage.setItem(CURRENT, id);
  return sessions[id];
}

/** The server refused this session's token (401): "New links" replaced it. Kept until another token comes. */
export function markReplaced(id, token) {
  const sessions = knownSessions();
  if (sessions[id]?.token !== token) return sessions[id];
  sessions[id] = {...sessions[id], replaced: true};
  localStorage.setItem(SESSIONS, JSON.stringify(sessions));
  return sessions[id];
}

/** Forget a session on this phone (the session itself stays on the server). */
export function forgetSession(id) {
  const sessions = knownSessions();
  delete sessions[id];
  localStorage.setItem(SESSIONS, JSON.stringify(sessions));
  remove(`cache.${id}`);
  remove(`hands.${id}`);
  if (localStorage.getItem(CURRENT) === id) localStorage.removeItem(CURRENT);
}

export function currentSession() {
  const id = localStorage.getItem(CURRENT);
  return id ? knownSessions()[id] || null : null;
}

export function clearCurrent() {
  localStorage.removeItem(CURRENT);
}

/** The last session document fetched (GET /api/sessions/<id>), for offline display. */
export function cachedSession(id) {
  return read(`cache.${id}`, null);
}

export function cacheSession(id, data) {
  write(`cache.${id}`, data);
}

/**
 * Every group this phone can open: {id: {id, token, member_token, read_token,
 * name, access, opened}}. `token` is the one the phone uses (admin, member or
 * read); the member and read-only tokens are kept when known, for the group's
 * Share view (the admin token is never shared by the page).
 */
export function knownGroups() {
  return read(GROUPS, {});
}

export function rememberGroup({id, token, member_token: memberToken, read_token: readToken, name = '', access}) {
  const groups = knownGroups();
  const before = groups[id]?.token === token ? groups[id] : {};
  groups[id] = {...before, id, token, member_token: memberToken || before.member_token,
                read_token: readToken || before.read_token, name: name || before.name || '',
                access: access || before.access, opened: new Date().toISOString()};
  write(GROUPS, groups);
  write(CURRENT_GROUP, id);
  return groups[id];
}

export function forgetGroup(id) {
  const groups = knownGroups();
  delete groups[id];
  write(GROUPS, groups);
  if (read(CURRENT_GROUP, null) === id) remove(CURRENT_GROUP);
}

export function currentGroup() {
  const id = read(CURRENT_GROUP, null);
  return id ? knownGroups()[id] || null : null;
}

/** Every competition this phone can open: {id: {id, token, read_token, name, access, opened}}. */
export function knownCompetitions() {
  return read('competitions', {});
}

/** Remember a competition (a read-only token learnt once, on creating it, is kept) and make it the current one. */
export function rememberCompetition({id, token, read_token: readToken, name = '', access}) {
  const known = knownCompetitions();
  const before = known[id]?.token === token ? known[id] : {};
  known[id] = {...before, id, token, read_token: readToken || before.read_token, name: name || before.name || '',
               access: access || before.access, opened: new Date().toISOString()};
  write('competitions', known);
  write('competition', id);
  return known[id];
}

export function forgetCompetition(id) {
  const known = knownCompetitions();
  delete known[id];
  write('competitions', known);
  if (read('competition', null) === id) remove('competition');
}

export function currentCompetition() {
  const id = read('competition', null);
  return id ? knownCompetitions()[id] || null : null;
}
