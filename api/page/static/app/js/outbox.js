// The outbox (待送出): hands entered at the table wait here until the server has
// recorded them. Each gets its Idempotency-Key once, when queued, and keeps it
// for every retry, so a hand whose answer was lost is still recorded exactly once.
// Each also keeps the revision it was made against (If-Match), counting the
// hands queued before it on this phone: a hand another phone recorded meanwhile
// makes it stale (412), and it waits, refused, for the person to choose.

import {api, ApiError, OfflineError} from './api.js';
import {read, write} from './storage.js';

const KEY = 'outbox';
const RETRY_MS = 5000;
const listeners = new Set();
let running = null;

function entries() {
  return read(KEY, []);
}

function save(list) {
  write(KEY, list);
  listeners.forEach((listener) => listener());
}

/**
 * Whether `error` is the server's "the evening has moved on" (412): a waiting hand that met another phone's
 * change (here, not in parts/conflict.js, so that the table and the router need none of the conflict dialog's
 * modules to tell: issue 32, fewer modules before the first view).
 */
export function isStale(error) {
  return error instanceof ApiError ? error.status === 412 : error?.status === 412;
}

/** A random key (crypto.randomUUID needs https; getRandomValues works on a LAN address too). */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Queue one hand for `sessionId`, made against `base` ({revision, seen}: the
 * evening as the page showed it); returns the entry {key, session, body, revision, seen, queued}.
 */
export function enqueue(sessionId, body, base = {}) {
  const ahead = pending(sessionId).length; // recorded before this one, each one revision
  const revision = Number.isInteger(base.revision) ? base.revision + ahead : undefined;
  const entry = {key: newKey(), session: sessionId, body, revision, seen: (base.seen ?? 0) + ahead,
                 queued: new Date().toISOString()};
  save([...entries(), entry]);
  return entry;
}

/** The hands of `sessionId` still waiting, oldest first (failed ones carry `error`). */
export function pending(sessionId) {
  return entries().filter((entry) => entry.session === sessionId);
}

export function discard(key) {
  save(entries().filter((entry) => entry.key !== key));
}

/** Call `listener` whenever the outbox changes. */
export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Send the waiting hands of every known session in order. A session's queue
 * stops at its first hand the server rejects (marked with its error, kept for
 * the user) and everything stops while offline. Returns
 * {sent: [{entry, result}], rejected: [{entry, error}], offline: bool}.
 */
export function flush(sessions) {
  running = running || sendAll(sessions).finally(() => { running = null; });
  return running;
}

async function sendAll(sessions) {
  const report = {sent: [], rejected: [], offline: false};
  const blocked = new Set();
  for (const entry of entries()) {
    const session = sessions[entry.session];
    if (!session || blocked.has(entry.session) || report.offline) continue;
    if (entry.error) {
      blocked.add(entry.session);
      continue;
    }
    await sendOne(entry, session, report, blocked);
  }
  return report;
}

async function sendOne(entry, session, report, blocked) {
  try {
    const result = await api.addHand(session, entry.body, entry.key, entry.revision);
    discard(entry.key);
    report.sent.push({entry, result});
  } catch (error) {
    if (error instanceof OfflineError || (error instanceof ApiError && error.status >= 500)) {
      report.offline = true;
    } else {
      markFailed(entry.key, error);
      report.rejected.push({entry, error});
    }
    blocked.add(entry.session);
  }
}

function markFailed(key, error) {
  save(entries().map((entry) => (entry.key === key
    ? {...entry, error: {message: error.message, said: error.said, field: error.field || null, status: error.status,
                         revision: error.revision, since: error.since}}
    : entry)));
}

/** Retry whenever the browser comes back online, and every few seconds while hands wait. */
export function keepSending(getSessions, onReport) {
  const attempt = async () => {
    if (!entries().some((entry) => !entry.error)) return;
    onReport(await flush(getSessions()));
  };
  window.addEventListener('online', attempt);
  setInterval(attempt, RETRY_MS);
  attempt();
}

/** Try a refused hand again (e.g. after the session's token was fixed). */
export function clearError(key) {
  save(entries().map((entry) => {
    if (entry.key !== key) return entry;
    const {error, ...rest} = entry;
    return rest;
  }));
}

/**
 * Put a changed body in place of a refused hand, keeping its place in the queue.
 * It gets a new key: the server never recorded the refused body, and a key names one body.
 */
export function replaceBody(key, body) {
  const fresh = {key: newKey(), body};
  save(entries().map((entry) => {
    if (entry.key !== key) return entry;
    const {error, ...rest} = entry;
    return {...rest, ...fresh};
  }));
  return entries().find((entry) => entry.key === fresh.key);
}

/**
 * The person keeps a hand that met a 412: it and the hands queued after it on
 * this phone are sent on top of the evening as it is now (`revision`), in order.
 */
export function rebase(sessionId, revision) {
  let next = revision;
  save(entries().map((entry) => {
    if (entry.session !== sessionId) return entry;
    const {error, ...rest} = entry;
    const kept = error && error.status !== 412 ? {...rest, error} : rest;
    return {...kept, revision: next++};
  }));
}
