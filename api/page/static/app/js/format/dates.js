// Days and times as the page writes them: on this phone's calendar and clock,
// in the page's language.

import {languageTag} from '../i18n.js';

/** "2026/12/1" (or "12/1/2026") for a stored time, in the page's language. */
export function day(at) {
  return new Date(at).toLocaleDateString(languageTag(), {year: 'numeric', month: 'numeric', day: 'numeric'});
}

/** "12/1" (or "12/1") for a day "2026-12-01" (a season's bounds, the chart's axis), in the page's language. */
export function shortDay(isoDay) {
  const [year, month, date] = isoDay.split('-').map(Number);
  return new Date(year, month - 1, date).toLocaleDateString(languageTag(), {month: 'numeric', day: 'numeric'});
}

/** YYYY-MM-DD of `at` in this phone's time zone (an evening's default name is today's). */
export function localDate(at) {
  const date = new Date(at);
  const two = (number) => String(number).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** "21:40" in the phone's time zone. */
export function clock(at) {
  return new Date(at).toLocaleTimeString(languageTag(), {hour: '2-digit', minute: '2-digit', hour12: false});
}
