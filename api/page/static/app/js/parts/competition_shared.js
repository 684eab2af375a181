// What a competition's screens share (比賽: #competition, #competition-new, #competition-standings, #wall): the
// competition's links (the phone keeps the competitions it knows in storage.js, as it keeps groups), the words
// for a request that failed, a download of one of its files or its standings shared as a picture, a round's
// clock, points (as decimals) and tie-breaks in words.

import {ApiError, OfflineError, api} from '../api.js';
import {h} from '../dom.js';
import {languageId, languageTag, serverSpeaks, t} from '../i18n.js';
import {clock} from '../format/dates.js';
import {decimal} from '../format/numbers.js';
import {isLoopback, shareOrigin} from '../reach.js';
import {busy, describeError, plainServerText} from './form.js';
import {save, sharePicture} from './picture.js';

/**
 * Where the competition's links start, as the evening's Share finds it (reach.js), else this page's own origin;
 * `reachable` false when that is this computer's own address (127.0.0.1, localhost): no phone opens it.
 */
export async function linkOrigin() {
  const origin = (await shareOrigin().catch(() => null)) || location.origin;
  return {origin, reachable: !isLoopback(new URL(origin).hostname)};
}

/** The organiser's link (opens everything: kept by the organiser only), with the wall's token as `&r=`. */
export function organizerLink(competition, origin) {
  const read = competition.read_token ? `&r=${encodeURIComponent(competition.read_token)}` : '';
  return `${origin}/#c=${encodeURIComponent(competition.id)}&t=${encodeURIComponent(competition.token)}${read}`;
}

/** The wall's link: the read-only token, for a projector, a TV or a spectator's phone. */
export function wallLink(competition, origin) {
  if (!competition.read_token) return null;
  return `${origin}/#c=${encodeURIComponent(competition.id)}&t=${encodeURIComponent(competition.read_token)}&v=wall`;
}

/** A table's scoring link (its evening's write token, and its read-only token as `&r=`), as Share gives it. */
export function tableLink(table, origin) {
  return `${origin}/#s=${encodeURIComponent(table.session)}&t=${encodeURIComponent(table.token)}&r=${
    encodeURIComponent(table.read_token)}`;
}

/** A failed request of a competition in the page's language (the server's own words for a reader of English). */
export function competitionError(error) {
  if (error instanceof OfflineError) return t('comp_offline');
  if (!(error instanceof ApiError)) return describeError(error);
  if (error.status === 404 && !error.change) return t('comp_not_found');
  if (error.status === 401) return t('comp_link_replaced');
  if (error.status === 403) return t('comp_forbidden');
  if ([409, 422, 404].includes(error.status)) return serverSpeaks() ? plainServerText(error.message) : t('comp_refused');
  return describeError(error);
}

/** A button that downloads a file of the competition (needs the bearer token: fetched, then saved). */
export function competitionDownload(competition, name, label, testid, kind = '') {
  return fileButton(competition, name, label, testid, kind,
    ({blob, filename}) => save(blob, filename || name.split('?')[0]));
}

/**
 * "Share as a picture" of the competition's standings (standings.png, in the page's language), exactly as
 * Settle shares an evening's card and a group its standings: to the share sheet, or downloaded
 * (parts/picture.js). Either token reads it, so a spectator shares it too.
 */
export function competitionPicture(app, competition, title, testid) {
  return fileButton(competition, `standings.png?lang=${languageTag()}`, t('share_card'), testid, 'big primary',
    (picture) => sharePicture(app, picture, title));
}

/** The results sheet (report.pdf) in the page's language, as Settle asks an evening's sheet. */
export function resultsSheet(competition, testid) {
  return competitionDownload(competition, `report.pdf?lang=${languageId()}`, t('comp_results_pdf'), testid,
    'big primary');
}

/** A button that fetches `name` of the competition with its token and hands it to `use`; a failure in words. */
function fileButton(competition, name, label, testid, kind, use) {
  const slot = h('p', {class: 'field-error', role: 'alert', hidden: true});
  const button = h('button', {type: 'button', class: `btn wide ${kind}`.trim(), testid,
    onClick: () => busy(button, async () => {
      slot.hidden = true;
      try {
        await use(await api.competitionFile(competition, name));
      } catch (error) {
        slot.textContent = competitionError(error);
        slot.hidden = false;
      }
    })}, label);
  return h('div', {class: 'download'}, button, slot);
}

/** "12:05" of a number of seconds: minutes and seconds (hours as more minutes, as a round's clock reads). */
export function minutesSeconds(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Keep `element`'s text the time left until `deadline` (ms since the epoch), every second, while it is on the
 * page; `done()` once it reaches zero. The timer stops by itself when the element leaves the page.
 */
export function countDown(element, deadline, words, done = () => {}) {
  const tick = () => {
    if (!element.isConnected && started) {
      clearInterval(timer);
      return;
    }
    const left = (deadline - Date.now()) / 1000;
    element.textContent = words(minutesSeconds(left));
    if (left <= 0) {
      clearInterval(timer);
      done();
    }
  };
  let started = false;
  const timer = setInterval(() => { started = true; tick(); }, 1000);
  tick();
  return timer;
}

/** The round's clock: not started, its time left counting down (from `ends_at`, on this device's clock), time
 * up, or ended. */
export function roundClock(round, cls = '') {
  if (round.ended_at) {
    return h('p', {class: `note ${cls}`, testid: 'round-clock'}, t('comp_round_over', {n: round.number,
      time: clock(round.ended_at)}));
  }
  if (!round.started_at) return h('p', {class: 'note', testid: 'round-clock'}, t('comp_not_started'));
  if (!round.ends_at) return h('p', {class: 'note', testid: 'round-clock'}, t('comp_started_at', {time: clock(round.started_at)}));
  const shown = h('p', {class: `note round-clock ${cls}`, testid: 'round-clock', role: 'timer'});
  countDown(shown, Date.parse(round.ends_at), (left) => t('comp_time_left', {left, time: clock(round.ends_at)}),
    () => { shown.textContent = t('comp_time_up'); });
  return shown;
}


/** Points as a decimal of at most two places ("2.33" for 7/3; the ranking is the server's, exact). */
export function pointsText(row) {
  return decimal(row.points_exact ?? String(row.points));
}

/** "1 pt", "1.5 pts", "4 分": points of a row or a round (`points_exact`) in words. */
export function pointsWords(exact) {
  const shown = decimal(exact);
  return t(shown === '1' ? 'comp_point_one' : 'comp_points', {points: shown});
}

/** The tie-breaks of the competition's ranking, stated. */
export function tieBreaks(data) {
  return data.ranking === 'net' ? t('comp_tie_breaks_net')
    : t('comp_tie_breaks_points', {points: data.ranking.placement_points.join('/')});
}
