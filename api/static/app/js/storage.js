// What the phone keeps (localStorage): the sessions it can open, the last copy of
// each session (to show the table while offline), the outbox and the language.

const PREFIX = 'taizhang.';
const SESSIONS = `${PREFIX}sessions`;
const CURRENT = `${PREFIX}current`;

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
export function rememberSession({id, token, read_token: readToken, name = '', ruleset = ''}) {
  const sessions = knownSessions();
  const before = sessions[id] || {};
  const sameToken = before.token === token;
  sessions[id] = {...before, id, token, read_token: readToken || (sameToken ? before.read_token : undefined),
                  name: name || before.name || '', ruleset: ruleset || before.ruleset || '',
                  opened: new Date().toISOString()};
  localStorage.setItem(SESSIONS, JSON.stringify(sessions));
  localStorage.setItem(CURRENT, id);
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
