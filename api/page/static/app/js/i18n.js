// The page's words in 繁體中文, 简体中文 and English (switchable, remembered). They are
// the tables of words/ (one per language, which the server reads too), served as
// /app/words/<tag>.json at the release's address (the page's import map names it, with
// the hash of the table: kept for good) and kept for offline use by the service worker:
// the language in use is loaded before the page is first drawn (loadWords) and on a switch.
// Pattern names come from the API in the page's script (Accept-Language), never
// converted here.

import {read, write} from './storage.js';
import {WIND_NAMES} from './tiles.js';

/**
 * The languages, in the order the switch goes through them (繁 / 简 / EN):
 * `id` (kept in storage), the page's `lang` tag (the name of its words'
 * table, also sent as Accept-Language, so that the server's messages and
 * pattern names come back in it, and as the picture's ?lang=), `report` for
 * the PDF's lang=, `spelling` for the tile and wind characters it writes
 * differently (the script of a tile face, not a word), and `server` when the
 * server's messages are in that language. A new language is one more entry
 * here and one more table in words/; a test checks that every table has every key.
 */
const LANGUAGES = [
  {id: 'zh', tag: 'zh-Hant', report: 'zh', spelling: {}},
  {id: 'zh-Hans', tag: 'zh-Hans', report: 'zh-Hans', spelling: {萬: '万', 條: '条', 東: '东', 發: '发', 蘭: '兰'}},
  {id: 'en', tag: 'en', report: 'en', server: true, spelling: {}},
];

function byId(id) {
  return LANGUAGES.find((entry) => entry.id === id);
}

/** The language of one BCP 47 tag: zh-CN, zh-SG and zh-Hans read simplified, any other zh traditional. */
function languageOfTag(tag) {
  const lower = tag.toLowerCase();
  if (/^zh-(hans|cn|sg|my)(-|$)/.test(lower)) return byId('zh-Hans');
  if (lower === 'zh' || lower.startsWith('zh-')) return byId('zh');
  if (lower === 'en' || lower.startsWith('en-')) return byId('en');
  return null;
}

/** The first of the phone's preferred languages (navigator.languages) that the page speaks; else English. */
function fromBrowser() {
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || ''];
  return wanted.map(languageOfTag).find(Boolean) || byId('en');
}

let current = byId(read('lang', null)) || fromBrowser();
/** The release's addresses ("/app/words/en.json" -> "…?v=<hash>"): the page's import map (api/page/release.py). */
const ADDRESSES = JSON.parse(document.querySelector('script[type=importmap]')?.textContent || '{}').imports || {};
/** The tables asked for, by language id: each a promise of {key: text}, fetched once. */
const tables = new Map();

/** A language's table of words; an empty one when it cannot be had (no server and no copy kept). */
function tableOf(entry) {
  const inline = inlineData('page-words', entry.tag);
  if (inline && !tables.has(entry.id)) tables.set(entry.id, Promise.resolve(inline));
  if (!tables.has(entry.id)) {
    const path = `/app/words/${entry.tag}.json`;
    tables.set(entry.id, fetch(ADDRESSES[path] || path)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(response.statusText))))
      .catch(() => { tables.delete(entry.id); return {}; }));
  }
  return tables.get(entry.id);
}

/**
 * What the HTML carries inline for a language (`<script type="application/json" id=… data-lang=…>`): the words of
 * the language the browser asked for, and the rule sets in it (api/page/release.py), so that a cold load asks for
 * neither (issue 32); null when it carries them for another language.
 */
export function inlineData(id, tag) {
  const element = document.getElementById(id);
  if (!element || element.dataset.lang !== tag) return null;
  try {
    return JSON.parse(element.textContent);
  } catch {
    return null;
  }
}

/** The table of the language in use. */
let words = {};

/**
 * Makes `entry` the language in use once its words are loaded. A language whose words cannot be had (offline,
 * before the service worker kept them) is not switched to. Only its own table: the switch's menu reads the others
 * when it opens (a table less on every cold load, issue 32).
 */
async function use(entry) {
  const mine = await tableOf(entry);
  if (entry !== current && !Object.keys(mine).length) return;
  [current, words] = [entry, mine];
}

/** Loads the words of the language in use: before the page is first drawn. */
export function loadWords() {
  return use(current);
}

/** `text` with its {placeholders} filled from `vars`. */
function filled(text, vars) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
}

/** The page's own text `key` (words' `page.<key>`). */
export function t(key, vars = {}) {
  return filled(words[`page.${key}`] ?? key, vars);
}

/** A text the page shares with the server's sheets, by its full key (`reason.base`, `option.max_tai`). */
export function word(key, vars = {}) {
  return filled(words[key] ?? key, vars);
}

/** Whether the server's messages are in the language in use. */
export function serverSpeaks() {
  return Boolean(current.server);
}

/** The BCP 47 tag of the language in use, for dates and times, Accept-Language and the picture. */
export function languageTag() {
  return current.tag;
}

/** The PDF's lang= for the language in use ('zh', 'zh-Hans', 'en'). */
export function languageId() {
  return current.report;
}

/** The lang attribute of Chinese names from the API (pattern names): simplified on a simplified page. */
export function chineseTag() {
  return current.id === 'zh-Hans' ? 'zh-Hans' : 'zh-Hant';
}

export function applyLanguage() {
  document.documentElement.lang = current.tag;
}

/** The next language of the switch. */
export function otherLanguage() {
  return LANGUAGES[(LANGUAGES.indexOf(current) + 1) % LANGUAGES.length].id;
}

/**
 * The three languages as the switch offers them (issue 29 item 12: a choice, one tap to any): each by its
 * id, its short and full name in itself (its own table's `page.switch_language` and `page.language_name`),
 * and whether it is the one in use. A language whose words cannot be had (offline, never kept) is left out.
 */
export async function languageChoices() {
  const found = await Promise.all(LANGUAGES.map(async (entry) => [entry, await tableOf(entry)]));
  return found.filter(([entry, table]) => entry === current || Object.keys(table).length)
    .map(([entry, table]) => ({id: entry.id, tag: entry.tag, short: table['page.switch_language'] || entry.id,
                               name: table['page.language_name'] || entry.id, current: entry === current}));
}

/** Switches to the language `id` once its words are loaded, and remembers it. */
export async function setLanguage(id) {
  await use(byId(id) || current);
  write('lang', current.id);
  applyLanguage();
}

/**
 * The text for this language of a {language: text} object from the API (a house-rule preset's name):
 * by the language's tag or id, else, on a Chinese page, the other script's (keyed zh-Hant or zh), else English.
 */
export function inLanguage(texts) {
  if (typeof texts === 'string') return texts;
  const chinese = current.id === 'en' ? [] : ['zh-Hant', 'zh', 'zh-Hans'];
  const key = [current.tag, current.id, ...chinese, 'en'].find((name) => texts?.[name]);
  return key ? texts[key] : '';
}

/** A rule set's option as the start form labels it: its name as the sheet words it (`option.<id>`), capitalised. */
export function optionLabel(option) {
  const name = words[`option.${option.id}`];
  return name ? `${name[0].toUpperCase()}${name.slice(1)}` : option.description || option.id;
}

/** A special event (天胡, 八仙過海 …) as the picker names it. */
export function eventLabel(id) {
  return words[`page.event_${id}`] || id;
}

/** Tile and wind characters as the language writes them ("五万" in 简体; tile faces keep what is printed on a tile). */
export function spell(text) {
  return [...text].map((char) => current.spelling[char] || char).join('');
}

/** Winds are shown as 東南西北 (东南西北 in 简体) in every language. */
export function windName(wind) {
  return spell(WIND_NAMES[wind] || wind);
}

/** Every language's words as the page reads them, by language id: for the test that each has every key. */
export async function messageTables() {
  return Object.fromEntries(await Promise.all(LANGUAGES.map(async (entry) => [entry.id, await tableOf(entry)])));
}
