// The JSON API of API.md, and its two kinds of failure: the server said no
// (ApiError: status, message, field) or the request never got an answer (OfflineError).
// Every request says the page's language, so that the server answers in it.

import {languageTag} from './i18n.js';

export class ApiError extends Error {
  constructor(status, body, method = 'GET') {
    super(body.message || `HTTP ${status}`);
    this.status = status;
    // A 403 on a change is the read-only link's refusal; on a read, a token that does not open the session.
    // (The message itself comes in the page's language, so the page cannot tell them apart by its words.)
    this.change = method !== 'GET';
    this.said = body.message || null; // the server's own words, in the page's language (Accept-Language)
    this.field = body.field || firstErrorPath(body.errors);
    this.revision = body.revision; // a 412: the session's revision now,
    this.since = body.since; // and what was changed since the revision the request named
  }
}

export class OfflineError extends Error {
  constructor() {
    super('offline');
  }
}

/** "winners.0.tai" for marshmallow's nested {"json": {"winners": {"0": {"tai": [...]}}}}. */
function firstErrorPath(errors, path = []) {
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) {
    return path.length ? path.join('.') : undefined;
  }
  const [key] = Object.keys(errors);
  if (key === undefined) return undefined;
  const skip = key === '_schema' || (key === 'json' && path.length === 0);
  return firstErrorPath(errors[key], skip ? path : [...path, key]);
}

const CLIENT = 'phone page';
/** Where the HTML's first script leaves the share link's evening it asked for (startFirstRead). */
const FIRST_READ = 'taizhangFirstRead';

function requestInit(method, {token, body, headers = {}, raw = false} = {}) {
  const init = {method, cache: 'no-store',
                headers: {Accept: raw ? '*/*' : 'application/json', 'Accept-Language': languageTag(), 'X-Client': CLIENT,
                          ...headers}};
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return init;
}

/**
 * A share link's evening, asked for by the page's first script (first_read.js, inline in the HTML's head) while
 * the rest of the page is still arriving: its answer comes beside the page's, not a round trip after the modules
 * have run (issue 32, benchmarks/page_load.py row 2). The same request as `api.session` sends, which takes it.
 */
export function startFirstRead() {
  const params = new URLSearchParams(location.hash.slice(1));
  const [id, token] = [params.get('s'), params.get('t')];
  if (!id || !token) return;
  const path = sessionPath({id});
  const init = requestInit('GET', {token});
  window[FIRST_READ] = {path, init, answer: fetch(path, init)};
  window[FIRST_READ].answer.catch(() => {});  // taken, or not, later: never an unhandled rejection
}

/** The first script's answer when it is this very request (same address, token and language), once. */
function firstRead(path, init) {
  const started = window[FIRST_READ];
  if (!started || init.method !== 'GET' || started.path !== path) return null;
  delete window[FIRST_READ];
  const same = ['Authorization', 'Accept-Language'].every((name) => started.init.headers[name] === init.headers[name]);
  return same ? started.answer : null;
}

async function request(method, path, options = {}) {
  const init = requestInit(method, options);
  let response;
  try {
    response = await (firstRead(path, init) || fetch(path, init));
  } catch {
    throw new OfflineError();
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({message: response.statusText}));
    throw new ApiError(response.status, data, method);
  }
  if (options.raw) return {blob: await response.blob(), filename: filenameOf(response)};
  return response.status === 204 ? null : response.json();
}

/** The download name of an attachment (RFC 5987 filename* first). */
function filenameOf(response) {
  const header = response.headers.get('Content-Disposition') || '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (encoded) return decodeURIComponent(encoded[1]);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1] : null;
}

/** `If-Match: "n"`: the revision a change was made against (none when the page never saw one). */
const against = (revision) => (Number.isInteger(revision) ? {'If-Match': `"${revision}"`} : {});

const sessionPath = (session, rest = '') => `/api/sessions/${encodeURIComponent(session.id)}${rest}`;
const groupPath = (group, rest = '') => `/api/groups/${encodeURIComponent(group.id)}${rest}`;
const competitionPath = (competition, rest = '') => `/api/competitions/${encodeURIComponent(competition.id)}${rest}`;

/**
 * The token a stream is opened with: a read-only one whenever this phone has one (the evening's `&r=`, or for a
 * group's evening opened with a group link, the group's read-only token), since a query string lands in proxies'
 * access logs and a read token there can change nothing. Only a phone that was never given one (a link from
 * before read-only links) uses the token it has.
 */
export function streamToken(session) {
  return session.read_token || session.stream_token || session.token;
}

export const api = {
  rulesets: () => request('GET', '/api/rulesets'),
  score: (body) => request('POST', '/api/score', {body}),
  createSession: (body) => request('POST', '/api/sessions', {body}),
  session: (session) => request('GET', sessionPath(session), {token: session.token}),
  hands: (session) => request('GET', sessionPath(session, '/hands'), {token: session.token}),
  addHand: (session, body, key, revision) => request('POST', sessionPath(session, '/hands'),
    {token: session.token, body, headers: {'Idempotency-Key': key, ...against(revision)}}),
  correctHand: (session, number, body, revision) => request('PUT', sessionPath(session, `/hands/${number}`),
    {token: session.token, body, headers: against(revision)}),
  voidHand: (session, number, revision) => request('DELETE', sessionPath(session, `/hands/${number}`),
    {token: session.token, headers: against(revision)}),
  previewHand: (session, body) => request('POST', sessionPath(session, '/hands/preview'), {token: session.token, body}),
  previewChange: (session, number, change) => request('POST', sessionPath(session, `/hands/${number}/preview`),
    {token: session.token, body: change}),
  audit: (session) => request('GET', sessionPath(session, '/audit'), {token: session.token}),
  changeSeat: (session, body, revision) => request('POST', sessionPath(session, '/seats'),
    {token: session.token, body, headers: against(revision)}),
  changeHouseRules: (session, body, revision) => request('POST', sessionPath(session, '/house_rules'),
    {token: session.token, body, headers: against(revision)}),
  correctHouseRules: (session, body, revision) => request('PUT', sessionPath(session, '/house_rules'),
    {token: session.token, body, headers: against(revision)}),
  previewHouseRules: (session, body) => request('POST', sessionPath(session, '/house_rules/preview'),
    {token: session.token, body}),
  close: (session, revision) => request('POST', sessionPath(session, '/close'),
    {token: session.token, headers: against(revision)}),
  reopen: (session, revision) => request('POST', sessionPath(session, '/reopen'),
    {token: session.token, headers: against(revision)}),
  newTokens: (session) => request('POST', sessionPath(session, '/tokens'), {token: session.token}),
  settlement: (session, query = '') => request('GET', sessionPath(session, `/settlement${query}`),
    {token: session.token}),
  file: (session, name) => request('GET', sessionPath(session, `/${name}`), {token: session.token, raw: true}),
  shareQr: (link) => request('POST', '/app/qr.svg', {body: {link}, raw: true}),
  /** Where other phones can open this server: {public_url, network_url} (reach.js). */
  address: () => request('GET', '/api/address'),
  // Groups (牌友會): `group` is {id, token} with the group token this phone holds.
  createGroup: (body) => request('POST', '/api/groups', {body}),
  group: (group) => request('GET', groupPath(group), {token: group.token}),
  /** {name?, defaults?}: the admin renames the group or replaces its defaults. */
  editGroup: (group, body) => request('PATCH', groupPath(group), {token: group.token, body}),
  addMember: (group, body) => request('POST', groupPath(group, '/members'), {token: group.token, body}),
  member: (group, member) => request('GET', groupPath(group, `/members/${encodeURIComponent(member)}`),
    {token: group.token}),
  standings: (group, query = '') => request('GET', groupPath(group, `/standings${query}`), {token: group.token}),
  balances: (group) => request('GET', groupPath(group, '/balances'), {token: group.token}),
  payments: (group) => request('GET', groupPath(group, '/payments'), {token: group.token}),
  /** One payment {from, to, amount, note?}, or several at once {session, payments: [...]} (one transaction). */
  addPayments: (group, body) => request('POST', groupPath(group, '/payments'), {token: group.token, body}),
  voidPayment: (group, id) => request('DELETE', groupPath(group, `/payments/${encodeURIComponent(id)}`),
    {token: group.token}),
  /** A report of the group (report.pdf, standings.csv, balances.csv, payments.csv, with its query). */
  groupFile: (group, name) => request('GET', groupPath(group, `/${name}`), {token: group.token, raw: true}),
  /** An evening of the group: four members; ruleset, stakes and options as the form shows them. */
  createGroupEvening: (group, body) => request('POST', '/api/sessions',
    {token: group.token, body: {...body, group: group.id}}),
  // Competitions (比賽): `competition` is {id, token} with the organiser's or the read-only token.
  /** A group's competition sends a member or admin token of the group (`groupToken`). */
  createCompetition: (body, groupToken) => request('POST', '/api/competitions', {body, token: groupToken}),
  competition: (competition) => request('GET', competitionPath(competition), {token: competition.token}),
  /** POST …/entrants, …/rounds, …/rounds/<n>/start and /end, …/tables/<id>/reopen, …/entrants/<e>/check_in. */
  competitionPost: (competition, rest, body = {}) => request('POST', competitionPath(competition, rest),
    {token: competition.token, body}),
  /** DELETE …/entrants/<e> (withdraw) and …/entrants/<e>/check_in (undo it). */
  competitionDelete: (competition, rest) => request('DELETE', competitionPath(competition, rest),
    {token: competition.token}),
  competitionStandings: (competition) => request('GET', competitionPath(competition, '/standings'),
    {token: competition.token}),
  /** A file of the competition (tables.pdf?round=n, report.pdf, standings.csv, standings.png), with the bearer token. */
  competitionFile: (competition, name) => request('GET', competitionPath(competition, `/${name}`),
    {token: competition.token, raw: true}),
  /**
   * The competition live: `round`, `table`, `standings` events. The token goes in the query (EventSource sends no
   * headers): the read-only one whenever this phone has it, as an evening's stream does (streamToken).
   */
  competitionEvents: (competition) => new EventSource(`${competitionPath(competition, '/events')}?token=${
    encodeURIComponent(competition.read_token || competition.token)}`),
  /**
   * The session's changes as they happen (Server-Sent Events). EventSource sends no headers of the page's
   * choosing, so the token and the page's language (the script of pattern names) come in the query.
   */
  events: (session, after) => new EventSource(`${sessionPath(session, '/events')}?token=${
    encodeURIComponent(streamToken(session))}&lang=${languageTag()}${Number.isInteger(after) ? `&after=${after}` : ''}`),
};
